"""The 1873 service rule: as many routes as possible must be serviced.

Our reading: the most routes the company's trains can legally run together this OR, counting
each standard-train route and each diesel route, is the number it must run; revenue is then
maximised among such runs (objective RULEBOOK). A claimed run with fewer routes breaks no hard
rule that 18xx.games enforces, so it gets an advisory finding, UNDERSERVICED, kept apart.
"""

from __future__ import annotations

from solver.model.board import Board
from solver.model.cancel import CancelToken
from solver.model.results import Evaluation, Finding, Objective, SolveOptions, Status
from solver.rulesets.r_1873.extras import HarzbahnRun
from solver.rulesets.r_1873.solve import solve_run
from solver.rulesets.r_1873.view import Harzbahn


def route_limit(ctx: Harzbahn) -> int:
    """The most routes the trains may run at all: each mining train's sub-trains, plus the diesel's
    train ids (what the optimiser's model allows; the network and track rules may allow fewer)."""
    diesel = ctx.diesel_train
    return (sum(len(st.subtrains) for st in ctx.mining_trains)
            + (len(ctx.diesel_pool or diesel.subtrains) if diesel is not None else 0))


def service_finding(board: Board, ctx: Harzbahn, evaluation: Evaluation, time_limit_s: float = 10.0,
                    cancel: CancelToken | None = None) -> Finding | None:
    """UNDERSERVICED when a legal run could service more routes than the claimed one (`ctx`: the
    board's 1873 facts)."""
    if not isinstance(evaluation.extras, HarzbahnRun):
        return None
    if evaluation.extras.routes_serviced >= route_limit(ctx):  # no run services more: no search
        evaluation.extras.routes_possible = evaluation.extras.routes_serviced
        return None
    best = solve_run(board, ctx, SolveOptions(time_limit_s=time_limit_s, objective=Objective.RULEBOOK, cancel=cancel))
    if best.status != Status.OPTIMAL:
        return None
    possible = len(best.routes)
    evaluation.extras.routes_possible = possible
    served = evaluation.extras.routes_serviced
    if served >= possible:
        return None
    return Finding("UNDERSERVICED", f"the run services {served} routes but {possible} can be serviced together "
                                    "(rules: as many routes as possible must be serviced)", -1, hard=False)
