"""The gRPC RouteService: validates input, runs the solver, maps errors to status codes.

Every solve watches a cancel token that the call's end (cancelled, expired or done) sets, so a
cancelled call stops its search at once. At most `workers` long calls (Solve, Evaluate, Audit)
compute at once; the server has spare threads beyond those, so health checks and light calls never
wait behind a search, and long calls beyond `workers` wait for a slot within their deadline.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import grpc

import routemax
from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server import convert, convert_whatif, request_log
from server.config import ServerConfig
from server.extensions import r_1873 as proto_1873
from solver import rulesets
from solver.audit.run import audit_text
from solver.evaluator import evaluate_with_advice
from solver.input.hex_reuse import HexReuse
from solver.model.cancel import CancelToken
from solver.model.errors import BoardError, EvaluatorDisagreement
from solver.model.results import Objective, SolveOptions
from solver.optimiser import solve
from solver.whatif import WhatIfOptions, check_train_offers, run_whatif

log = logging.getLogger(__name__)
DEADLINE_SHARE = 0.6  # of the remaining gRPC deadline given to the search
SPARE_THREADS = 32  # threads beyond the computing ones: health, light calls, calls queued for a slot
# at most so many calls wait for a slot at once, and so many Audit streams stay open (each holds a thread while
# it waits for its next position): the rest of the spare threads stay free for health and light calls
MAX_WAITING = SPARE_THREADS // 2
MAX_AUDIT_STREAMS = SPARE_THREADS // 4
WHATIF_CUTOFF = 0.8  # of a WhatIf call's deadline: a scenario whose turn comes later is not solved
WAIT_STEP_S = 0.25  # a call waiting for a slot looks this often whether its client is still there


def time_budget(request: object, context: grpc.ServicerContext, default_s: float = ServerConfig.default_time_limit_s,
                max_s: float = ServerConfig.max_time_limit_s) -> float:
    """The search time: the request's `time_limit_s` (unset: the default), capped at max_s and cut to
    fit the call's deadline. Set but not a finite number above 0: INVALID_ARGUMENT (the command
    line's rule too)."""
    requested = default_s
    if request is not None and request.HasField("time_limit_s"):  # type: ignore[attr-defined]
        requested = request.time_limit_s  # type: ignore[attr-defined]
        if not math.isfinite(requested) or requested <= 0:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"time_limit_s: must be a number of seconds above 0, got {requested}")
    budget = min(requested, max_s)
    remaining = context.time_remaining()
    if remaining is not None:
        budget = min(budget, max(0.01, remaining * DEADLINE_SHARE))
    return budget


def cancel_token(context: grpc.ServicerContext) -> CancelToken:
    """A token set when the call ends for any reason (cancelled, deadline passed, or answered)."""
    token = CancelToken()
    if not context.add_callback(token.cancel):  # the call has already ended
        token.cancel()
    return token


class RouteService(pb_grpc.RouteServiceServicer):
    """Solve, Evaluate, MineProduction, ListRulesets and Audit."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        config = config or ServerConfig()
        self.limits = (config.default_time_limit_s, config.max_time_limit_s)
        self.long_calls = threading.BoundedSemaphore(config.workers)
        self.waiting = threading.BoundedSemaphore(MAX_WAITING)
        self.audit_streams = threading.BoundedSemaphore(MAX_AUDIT_STREAMS)

    def _wait_for_slot(self, context: grpc.ServicerContext) -> None:
        """Take a computing slot: RESOURCE_EXHAUSTED when MAX_WAITING calls wait already or none is free
        before the deadline; when the call ends meanwhile, what its client saw (DEADLINE_EXCEEDED, CANCELLED)."""
        if self.long_calls.acquire(blocking=False):
            return
        if not self.waiting.acquire(blocking=False):
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, "the server is busy: too many calls wait for a worker")
        try:
            while True:
                remaining = context.time_remaining()
                if remaining is not None and remaining <= 0:
                    context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                  "the server is busy: no worker free before the deadline")
                if self.long_calls.acquire(timeout=WAIT_STEP_S if remaining is None else min(WAIT_STEP_S, remaining)):
                    return
                if not context.is_active():  # what its client saw: its deadline passed, or it went away
                    if request_log.ended_by_deadline(context):
                        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline passed while the call waited "
                                                                         "for a worker")
                    context.abort(grpc.StatusCode.CANCELLED, "the call ended while it waited for a worker")
        finally:
            self.waiting.release()

    @contextmanager
    def _long_call(self, context: grpc.ServicerContext) -> Iterator[None]:
        """A computing slot for a long call (health and light calls need none), with the solver's
        errors mapped to status codes."""
        self._wait_for_slot(context)
        try:
            yield
        except EvaluatorDisagreement as exc:
            log.error("evaluator disagreement: %s", exc)
            context.abort(grpc.StatusCode.INTERNAL, f"optimiser and evaluator disagree: {exc}")
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        finally:
            self.long_calls.release()

    def Solve(self, request: pb.SolveRequest, context: grpc.ServicerContext) -> pb.SolveResponse:
        time_budget(request, context, *self.limits)  # a bad time limit is refused before the call waits for a slot
        board = self._board(request, context)
        objective = self._objective(request.objective, context)
        with self._long_call(context):
            budget = time_budget(request, context, *self.limits)  # the deadline left once a slot is free
            result = solve(board, SolveOptions(time_limit_s=budget, objective=objective, cancel=cancel_token(context)))
        response = convert.solve_response(result)
        if request.render_svg:
            from solver.render.pictures import solve_picture  # only when a picture is asked for

            response.svg = self._picture(context, lambda: solve_picture(board, result))
        return response

    def WhatIf(self, request: pb.WhatIfRequest, context: grpc.ServicerContext) -> pb.WhatIfResponse:
        """The unchanged board and every scenario in one deadline; a scenario that is not legal is
        answered with its error, a malformed request is INVALID_ARGUMENT."""
        time_budget(request, context, *self.limits)  # a bad time limit is refused before the call waits for a slot
        board = self._board(request, context)
        objective = self._objective(request.objective, context)
        try:
            scenarios = convert_whatif.scenarios_from_proto(request.scenarios)
            check_train_offers(list(request.trains))
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        with self._long_call(context):
            remaining = context.time_remaining()  # scenarios not started by WHATIF_CUTOFF of it are not solved
            opts = WhatIfOptions(time_limit_s=time_budget(request, context, *self.limits), objective=objective,
                                 cancel=cancel_token(context),  # the deadline left once a slot is free
                                 cutoff_s=None if remaining is None else remaining * WHATIF_CUTOFF)
            result = run_whatif(board, scenarios, opts, tokens=request.tokens, trains=list(request.trains))
        return convert_whatif.whatif_response(result)

    def Evaluate(self, request: pb.EvaluateRequest, context: grpc.ServicerContext) -> pb.EvaluateResponse:
        board = self._board(request, context)
        for i, r in enumerate(request.routes):
            if not r.train:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"routes[{i}].train: missing train id")
            if not r.nodes:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"routes[{i}].nodes: a route needs its stops")
        claims = convert.claims_from_proto(list(request.routes))
        with self._long_call(context):  # the advisory 1873 check searches too
            evaluation = evaluate_with_advice(board, claims, time_budget(None, context, *self.limits),
                                              cancel_token(context))
        response = convert.evaluate_response(evaluation)
        if request.render_svg:
            from solver.render.pictures import evaluation_picture  # only when a picture is asked for

            response.svg = self._picture(context, lambda: evaluation_picture(board, claims, evaluation))
        return response

    def MineProduction(self, request: pb.MineProductionRequest,
                       context: grpc.ServicerContext) -> pb.MineProductionResponse:
        harzbahn = rulesets.mine_producer("1873")
        try:
            result = harzbahn.mine_production(proto_1873.mines_from_proto(request),
                                              public=request.public_company, harzer_werke=request.harzer_werke,
                                              hw_bonus=request.hw_bonus or 50)
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return proto_1873.production_to_proto(result)

    def ListRulesets(self, request: pb.ListRulesetsRequest, context: grpc.ServicerContext) -> pb.ListRulesetsResponse:
        return pb.ListRulesetsResponse(rulesets=[pb.RulesetInfo(name=r.name, description=r.description,
                                                                train_kinds=list(r.train_kinds))
                                                 for r in rulesets.all_rulesets()],
                                       server_version=routemax.__version__)

    def Audit(self, request_iterator, context: grpc.ServicerContext):
        """One audit line per position, in order; stops when the call is cancelled or out of time. A call reads
        each hex once while it stays unchanged from one position to the next (`HexReuse`: a game in turn)."""
        if not self.audit_streams.acquire(blocking=False):
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                          f"the server is busy: {MAX_AUDIT_STREAMS} audit streams are open already")
        try:
            token = cancel_token(context)
            reuse = HexReuse()
            for req in request_iterator:
                if not context.is_active():
                    return
                objective = self._objective(req.objective, context) or Objective.REVENUE_ONLY
                time_budget(req, context, *self.limits)  # a bad time limit is refused before the call waits
                with self._long_call(context):
                    budget = time_budget(req, context, *self.limits)  # the deadline left once a slot is free
                    line = audit_text(req.source, req.snapshot_json, budget, objective, cancel=token, reuse=reuse)
                if not context.is_active():
                    return
                yield convert.audit_line(line)
        finally:
            self.audit_streams.release()

    @staticmethod
    def _picture(context: grpc.ServicerContext, draw: Callable[[], str]) -> str:
        """The SVG `draw` makes; a board the map cannot be drawn from is INVALID_ARGUMENT naming the field."""
        try:
            return draw()
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            raise

    @staticmethod
    def _objective(value: int, context: grpc.ServicerContext) -> Objective | None:
        """The objective a request names (unset: None, the ruleset's default); a number the enum does not
        hold is INVALID_ARGUMENT."""
        if value == pb.OBJECTIVE_UNSPECIFIED:
            return None
        found = convert.OBJECTIVES.get(value)
        if found is None:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT,
                          f"objective: unknown value {value} (OBJECTIVE_UNSPECIFIED, RULEBOOK or REVENUE_ONLY)")
        return found

    @staticmethod
    def _board(request, context: grpc.ServicerContext):
        try:
            board = convert.board_from_request(request)
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        request_log.note(ruleset=board.ruleset)
        return board
