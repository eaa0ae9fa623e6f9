"""The gRPC RouteService: validates input, runs the solver, maps errors to status codes."""

from __future__ import annotations

import logging
from collections.abc import Callable

import grpc

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server import convert
from server.extensions import r_1873 as proto_1873
from solver import rulesets
from solver.audit import audit_text
from solver.errors import BoardError, EvaluatorDisagreement
from solver.evaluator import evaluate_with_advice
from solver.optimiser import solve
from solver.results import Objective, SolveOptions

log = logging.getLogger(__name__)
DEFAULT_TIME_LIMIT_S = 10.0
DEADLINE_SHARE = 0.6  # of the remaining gRPC deadline given to the search


def time_budget(requested: float, context: grpc.ServicerContext) -> float:
    """The search time: the request's limit (or the default), cut to fit the call's deadline."""
    budget = requested if requested > 0 else DEFAULT_TIME_LIMIT_S
    remaining = context.time_remaining()
    if remaining is not None:
        budget = min(budget, max(0.01, remaining * DEADLINE_SHARE))
    return budget


class RouteService(pb_grpc.RouteServiceServicer):
    """Solve, Evaluate and ListRulesets."""

    def Solve(self, request: pb.SolveRequest, context: grpc.ServicerContext) -> pb.SolveResponse:
        if request.time_limit_s < 0:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "time_limit_s: must not be negative")
        board = self._board(request, context)
        try:
            result = solve(board, SolveOptions(time_limit_s=time_budget(request.time_limit_s, context),
                                               objective=convert.OBJECTIVES.get(request.objective)))
        except EvaluatorDisagreement as exc:
            log.error("evaluator disagreement: %s", exc)
            context.abort(grpc.StatusCode.INTERNAL, f"optimiser and evaluator disagree: {exc}")
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        response = convert.solve_response(result)
        if request.render_svg:
            from solver.render.pictures import solve_picture  # only when a picture is asked for

            response.svg = self._picture(context, lambda: solve_picture(board, result))
        return response

    def Evaluate(self, request: pb.EvaluateRequest, context: grpc.ServicerContext) -> pb.EvaluateResponse:
        board = self._board(request, context)
        for i, r in enumerate(request.routes):
            if not r.train:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"routes[{i}].train: missing train id")
            if not r.nodes:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"routes[{i}].nodes: a route needs its stops")
        claims = convert.claims_from_proto(list(request.routes))
        evaluation = evaluate_with_advice(board, claims, time_budget(0, context))
        response = convert.evaluate_response(evaluation)
        if request.render_svg:
            from solver.render.pictures import evaluation_picture  # only when a picture is asked for

            response.svg = self._picture(context, lambda: evaluation_picture(board, claims, evaluation))
        return response

    def MineProduction(self, request: pb.MineProductionRequest,
                       context: grpc.ServicerContext) -> pb.MineProductionResponse:
        harzbahn = rulesets.get("1873")
        try:
            result = harzbahn.mine_production(proto_1873.mines_from_proto(request),  # type: ignore[attr-defined]
                                              public=request.public_company, harzer_werke=request.harzer_werke,
                                              hw_bonus=request.hw_bonus or 50)
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        return proto_1873.production_to_proto(result)

    def ListRulesets(self, request: pb.ListRulesetsRequest, context: grpc.ServicerContext) -> pb.ListRulesetsResponse:
        return pb.ListRulesetsResponse(rulesets=[pb.RulesetInfo(name=r.name, description=r.description,
                                                                train_kinds=list(r.train_kinds))
                                                 for r in rulesets.all_rulesets()])

    def Audit(self, request_iterator, context: grpc.ServicerContext):
        """One audit line per position, in order; stops when the call is cancelled or out of time."""
        for req in request_iterator:
            if not context.is_active():
                return
            if req.time_limit_s < 0:
                context.abort(grpc.StatusCode.INVALID_ARGUMENT, "time_limit_s: must not be negative")
            objective = convert.OBJECTIVES.get(req.objective) or Objective.REVENUE_ONLY
            line = audit_text(req.source, req.snapshot_json, time_budget(req.time_limit_s, context), objective)
            if not context.is_active():
                return
            yield convert.audit_line(line)

    @staticmethod
    def _picture(context: grpc.ServicerContext, draw: Callable[[], str]) -> str:
        """The SVG `draw` makes; a board the map cannot be drawn from is INVALID_ARGUMENT naming the field."""
        try:
            return draw()
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
            raise

    @staticmethod
    def _board(request, context: grpc.ServicerContext):
        try:
            return convert.board_from_request(request)
        except BoardError as exc:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
