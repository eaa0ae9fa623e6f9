"""The gRPC RouteService: validates input, runs the solver, maps errors to status codes."""

from __future__ import annotations

import logging
import math

import grpc

import routemax
from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server import convert, convert_1873
from server.config import ServerConfig
from solver.audit import audit_text
from solver.errors import BoardError, EvaluatorDisagreement
from solver.evaluator import evaluate
from solver.h1873.production import production
from solver.h1873.service_rule import service_finding
from solver.optimiser import SolveOptions, solve
from solver.rulesets import RULESETS

log = logging.getLogger(__name__)
DEFAULT_TIME_LIMIT_S = ServerConfig.default_time_limit_s
MAX_TIME_LIMIT_S = ServerConfig.max_time_limit_s
DEADLINE_SHARE = 0.6  # of the remaining gRPC deadline given to the search


def time_budget(requested: float, context: grpc.ServicerContext, default_s: float = DEFAULT_TIME_LIMIT_S,
                max_s: float = MAX_TIME_LIMIT_S) -> float:
    """The search time: the request's limit (0: the default), capped at max_s and cut to fit the call's
    deadline. A negative or non-finite limit aborts the call with INVALID_ARGUMENT."""
    if requested < 0 or not math.isfinite(requested):
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, "time_limit_s: must be a finite number, not negative")
    budget = min(requested if requested > 0 else default_s, max_s)
    remaining = context.time_remaining()
    if remaining is not None:
        budget = min(budget, max(0.01, remaining * DEADLINE_SHARE))
    return budget


class RouteService(pb_grpc.RouteServiceServicer):
    """Solve, Evaluate and ListRulesets."""

    def __init__(self, config: ServerConfig | None = None) -> None:
        config = config or ServerConfig()
        self.limits = (config.default_time_limit_s, config.max_time_limit_s)

    def Solve(self, request: pb.SolveRequest, context: grpc.ServicerContext) -> pb.SolveResponse:
        if request.time_limit_s < 0:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "time_limit_s: must not be negative")
        board = self._board(request, context)
        try:
            result = solve(board, SolveOptions(time_limit_s=time_budget(request.time_limit_s, context, *self.limits),
                                               objective=convert.OBJECTIVES.get(request.objective)))
        except EvaluatorDisagreement as exc:
            log.error("evaluator disagreement: %s", exc)
            context.abort(grpc.StatusCode.INTERNAL, f"optimiser and evaluator disagree: {exc}")
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return convert.solve_response(result)

    def Evaluate(self, request: pb.EvaluateRequest, context: grpc.ServicerContext) -> pb.EvaluateResponse:
        board = self._board(request, context)
        for i, r in enumerate(request.routes):
            if not r.train:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"routes[{i}].train: missing train id")
            if not r.nodes:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"routes[{i}].nodes: a route needs its stops")
        evaluation = evaluate(board, convert.claims_from_proto(list(request.routes)))
        if board.ruleset == "1873" and evaluation.legal:
            finding = service_finding(board, evaluation, time_budget(0, context, *self.limits))
            if finding is not None:
                evaluation.findings.append(finding)
        return convert.evaluate_response(evaluation)

    def MineProduction(self, request: pb.MineProductionRequest,
                       context: grpc.ServicerContext) -> pb.MineProductionResponse:
        try:
            result = production(convert_1873.mines_from_proto(request), public=request.public_company,
                                harzer_werke=request.harzer_werke, hw_bonus=request.hw_bonus or 50)
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return convert_1873.production_to_proto(result)

    def ListRulesets(self, request: pb.ListRulesetsRequest, context: grpc.ServicerContext) -> pb.ListRulesetsResponse:
        return pb.ListRulesetsResponse(rulesets=[pb.RulesetInfo(name=r.name, description=r.description,
                                                                train_kinds=list(r.train_kinds))
                                                 for r in RULESETS.values()], server_version=routemax.__version__)

    def Audit(self, request_iterator, context: grpc.ServicerContext):
        """One audit line per position, in order; stops when the call is cancelled or out of time."""
        for req in request_iterator:
            if not context.is_active():
                return
            if req.time_limit_s < 0:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, "time_limit_s: must not be negative")
            objective = convert.OBJECTIVES.get(req.objective) or "REVENUE_ONLY"
            budget = time_budget(req.time_limit_s, context, *self.limits)
            line = audit_text(req.source, req.snapshot_json, budget, objective)
            if not context.is_active():
                return
            yield convert.audit_line(line)

    @staticmethod
    def _board(request, context: grpc.ServicerContext):
        try:
            return convert.board_from_request(request)
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
