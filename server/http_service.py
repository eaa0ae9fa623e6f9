"""The RouteService for Connect's ASGI application (HTTP JSON, gRPC-Web, Connect): each call runs the gRPC
RouteService's own handler in a worker thread, through an `HttpCallContext`, wrapped by the same
request log. The handlers, their worker slots and their limits are the gRPC service's, shared.

When Connect cancels a call (its deadline passed, or the client went away) the call's context ends
at once: the solver's cancel token is set, the search stops and its worker slot is free again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from grpc_health.v1 import health_pb2

from routemax.v1 import routemax_connect
from routemax.v1 import routemax_pb2 as pb
from server.health import HealthServicer
from server.http_context import HttpCallContext
from server.request_log import QUIET_SERVICES, InFlight, logged_unary
from server.service import RouteService

log = logging.getLogger("routemax.http")
TRANSPORT = {"transport": "http"}  # on the request log lines of HTTP calls
HEALTH_SERVICE = health_pb2.DESCRIPTOR.services_by_name["Health"].full_name


class HttpCalls:
    """Runs gRPC-style handlers for HTTP calls: in the thread pool, logged, cancelled with the call."""

    def __init__(self, executor: ThreadPoolExecutor, in_flight: InFlight) -> None:
        self.executor = executor
        self.in_flight = in_flight

    def handler(self, method: str, behaviour: Callable[[Any, Any], Any], quiet: bool = False) -> Callable:
        """`behaviour(request, context)` as an async Connect handler `(request, ctx) -> response`."""
        level = logging.DEBUG if quiet else logging.INFO
        logged = logged_unary(method, _checked(behaviour), self.in_flight, level, TRANSPORT)

        async def call(request: Any, ctx: RequestContext) -> Any:
            timeout_ms = ctx.timeout_ms
            context = HttpCallContext(None if timeout_ms is None else max(timeout_ms, 0.0) / 1000)
            work = asyncio.get_running_loop().run_in_executor(self.executor, logged, request, context)
            try:
                response = await work
            except asyncio.CancelledError:
                # Connect cancels the call at its deadline or when the client disconnects: end it now,
                # so that the handler's cancel token stops the search and frees its worker slot
                context.end(grpc.StatusCode.DEADLINE_EXCEEDED if context.expired() else grpc.StatusCode.CANCELLED)
                raise
            finally:
                context.end()
            return response

        return call


def _checked(behaviour: Callable[[Any, Any], Any]) -> Callable[[Any, HttpCallContext], Any]:
    """The handler, with a status set without aborting raised, and a bug answered as gRPC answers it
    (UNKNOWN, one line) with the traceback in the server's log only."""

    def run(request: Any, context: HttpCallContext) -> Any:
        try:
            response = behaviour(request, context)
        except ConnectError:
            raise
        except Exception as exc:
            log.exception("handler failed")
            context.set_code(grpc.StatusCode.UNKNOWN)
            raise ConnectError(Code.UNKNOWN, f"Exception calling application: {exc}") from None
        context.raise_if_failed()
        return response

    return run


class HttpRouteService(routemax_connect.RouteService):
    """routemax.v1.RouteService for Connect: the gRPC RouteService's handlers, called per HTTP request."""

    def __init__(self, service: RouteService, calls: HttpCalls) -> None:
        self._solve = calls.handler("Solve", service.Solve)
        self._evaluate = calls.handler("Evaluate", service.Evaluate)
        self._whatif = calls.handler("WhatIf", service.WhatIf)
        self._list_rulesets = calls.handler("ListRulesets", service.ListRulesets)
        self._mine_production = calls.handler("MineProduction", service.MineProduction)

    async def solve(self, request: pb.SolveRequest, ctx: RequestContext) -> pb.SolveResponse:
        return await self._solve(request, ctx)

    async def evaluate(self, request: pb.EvaluateRequest, ctx: RequestContext) -> pb.EvaluateResponse:
        return await self._evaluate(request, ctx)

    async def what_if(self, request: pb.WhatIfRequest, ctx: RequestContext) -> pb.WhatIfResponse:
        return await self._whatif(request, ctx)

    async def list_rulesets(self, request: pb.ListRulesetsRequest, ctx: RequestContext) -> pb.ListRulesetsResponse:
        return await self._list_rulesets(request, ctx)

    async def mine_production(self, request: pb.MineProductionRequest,
                              ctx: RequestContext) -> pb.MineProductionResponse:
        return await self._mine_production(request, ctx)

    def audit(self, request: AsyncIterator[pb.AuditRequest], ctx: RequestContext) -> AsyncIterator[pb.AuditLine]:
        raise ConnectError(Code.UNIMPLEMENTED, "Audit is a stream in both directions: call it over gRPC "
                                               "(the gRPC port); over HTTP call Solve and Evaluate per position")


def health_check(health: HealthServicer, calls: HttpCalls) -> Callable:
    """grpc.health.v1.Health/Check for Connect: the gRPC health servicer's own answer."""
    return calls.handler("Check", health.Check, quiet=HEALTH_SERVICE in QUIET_SERVICES)
