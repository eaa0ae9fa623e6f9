"""Run a what-if request: the unchanged board, the scenarios and the advisors' scenarios, in one
deadline, with the leg walk and the token scenarios' candidates shared (`solver.whatif.shared`).

Scenarios run `workers` at a time in threads (CP-SAT searches in parallel; the Python phases share
one interpreter, so the default is one), each with a fair share of the time left:
`(deadline - now) * workers / scenarios left`, so time one scenario does not use goes to the next.
A scenario the deadline cuts answers FEASIBLE with its bound; a scenario that is not legal is
reported with the field at fault and the others go on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

from solver.model.board import Board
from solver.model.cancel import CancelToken
from solver.model.errors import BoardError, EvaluatorDisagreement
from solver.model.limits import MAX_TRAINS
from solver.model.results import Objective, SolveOptions, SolveResult
from solver.optimiser import solve
from solver.routes.leg_graph import LegGraph, build_leg_graph
from solver.whatif.advisors import token_scenarios, train_scenarios
from solver.whatif.apply import apply_scenario
from solver.whatif.model import Scenario, ScenarioResult, WhatIfResult
from solver.whatif.shared import SharedWork, TokenPool, pool_prices_hold
from solver.whatif.train_specs import check_spec

POOL_SHARE = 0.4  # of the time, at most what pricing the token pool may take
BASE_INDEX, ADVISOR_INDEX = -1, -2


@dataclass
class WhatIfOptions:
    """The request's time limit, objective and cancel token; `share` turns the sharing off
    (for measuring it)."""

    time_limit_s: float = 10.0
    objective: Objective | None = None
    cancel: CancelToken | None = None
    share: bool = True
    workers: int = 1  # scenarios solved at once
    # seconds from the start after which a scenario not started is not solved (the service: within its call's
    # deadline); None: every scenario is solved, each with at least a sliver of time
    cutoff_s: float | None = None


def check_train_offers(offers: Sequence[str], where: str = "trains") -> None:
    """The advisor's train specs, checked for form (a malformed one is bad input, not a scenario)."""
    if len(offers) > MAX_TRAINS:
        raise BoardError(where, f"at most {MAX_TRAINS} trains offered (limit), got {len(offers)}")
    for j, spec in enumerate(offers):
        check_spec(spec, f"{where}[{j}]")


def run_whatif(board: Board, scenarios: Sequence[Scenario], opts: WhatIfOptions | None = None,
               tokens: bool = False, trains: Sequence[str] = ()) -> WhatIfResult:
    """The optimum of `board` and of each changed board: the given scenarios, every token placement
    (`tokens`) and each offered train added and replacing the weakest (`trains`), ranked by delta."""
    opts = opts or WhatIfOptions()
    check_train_offers(trains)
    deadline = time.monotonic() + opts.time_limit_s
    t0 = time.monotonic()
    cutoff = None if opts.cutoff_s is None else t0 + opts.cutoff_s
    share = opts.share and board.ruleset == "standard"  # the other rulesets build their own candidates
    graph = build_leg_graph(board)  # validates nothing new: the board is validated already
    with_subsidy = opts.objective != Objective.REVENUE_ONLY
    pending = [(i, s, f"scenarios[{i}]") for i, s in enumerate(scenarios)]
    if tokens:
        pending += [(ADVISOR_INDEX, s, "tokens") for s in token_scenarios(board, graph)]
    boards: list[tuple[int, Scenario, Board | BoardError]] = []
    for index, scenario, where in pending:
        try:
            boards.append((index, scenario, apply_scenario(board, scenario, where, lambda b: _graph(b, board, graph))))
        except BoardError as exc:
            boards.append((index, scenario, exc))
    pool = None
    if share and pool_prices_hold(board):
        stations = sorted({nid for _i, s, b in boards if isinstance(b, Board) and not s.changes_track
                           and not (s.add_trains or s.remove_trains) for nid in s.tokens})
        if stations:
            pool = TokenPool(board, graph, stations, with_subsidy, time.monotonic() + opts.time_limit_s * POOL_SHARE,
                             opts.cancel)
    stats = {"pool_ms": pool.build_ms if pool else 0.0, "pool_routes": float(len(pool.cands)) if pool else 0.0}
    left = len(boards) + 1 + (2 * len(trains) if trains else 0)
    base = _solve(board, Scenario(), BASE_INDEX, deadline, left, opts, _work(share, graph, pool, Scenario()))
    if base.result is None:
        raise BoardError(base.error_field, base.error)
    if trains:
        for scenario, where in train_scenarios(board, trains, base.result):
            try:
                boards.append((ADVISOR_INDEX, scenario, apply_scenario(board, scenario, where,
                                                                      lambda b: _graph(b, board, graph))))
            except BoardError as exc:
                boards.append((ADVISOR_INDEX, scenario, exc))
    answers = _solve_all(boards, deadline, cutoff, opts, lambda scenario: _work(share, graph, pool, scenario))
    base_income = _income(base.result)
    for a in answers:
        if a.result is not None:
            a.delta = _income(a.result) - base_income
    ranked = sorted((a for a in answers if a.ok), key=lambda a: -a.delta)
    stats["total_ms"] = (time.monotonic() - t0) * 1000.0
    return WhatIfResult(base=base, scenarios=ranked + [a for a in answers if not a.ok], stats=stats)


OUT_OF_TIME = "not solved: its turn came too close to the call's deadline"


def _solve_all(boards: list[tuple[int, Scenario, Board | BoardError]], deadline: float, cutoff: float | None,
               opts: WhatIfOptions, work_of: Callable[[Scenario], SharedWork | None]) -> list[ScenarioResult]:
    """Every changed board's answer (in order), `opts.workers` at a time within the one deadline; one whose
    turn comes after `cutoff` is not solved (an error naming `time_limit_s`)."""
    todo = [n for n, (_i, _s, changed) in enumerate(boards) if isinstance(changed, Board)]
    started = {n: k for k, n in enumerate(todo)}  # a scenario's place in the queue: its share of the time

    def one(n: int) -> ScenarioResult:
        index, scenario, changed = boards[n]
        assert isinstance(changed, Board)
        if cutoff is not None and time.monotonic() >= cutoff:  # not solved: the call keeps to its deadline
            return ScenarioResult(scenario, index, error_field="time_limit_s", error=OUT_OF_TIME)
        left = max(1, -(-(len(todo) - started[n]) // max(1, opts.workers)))  # rounds of scenarios still to come
        return _solve(changed, scenario, index, deadline, left, opts, work_of(scenario))

    if opts.workers > 1 and len(todo) > 1:
        with ThreadPoolExecutor(max_workers=opts.workers, thread_name_prefix="whatif") as pool:
            solved = dict(zip(todo, pool.map(one, todo)))
    else:
        solved = {n: one(n) for n in todo}
    return [solved[n] if n in solved else ScenarioResult(s, i, error_field=c.field, error=c.message)  # type: ignore[union-attr]
            for n, (i, s, c) in enumerate(boards)]


def _graph(changed: Board, board: Board, graph: LegGraph) -> LegGraph:
    """The leg graph of a changed board: the unchanged board's while the track is the same."""
    return graph if changed.paths is board.paths and changed.hexes is board.hexes else build_leg_graph(changed)


def _work(share: bool, graph: LegGraph, pool: TokenPool | None, scenario: Scenario) -> SharedWork | None:
    """What a scenario may reuse: the leg graph unless it lays track; the token pool for the
    unchanged board and the scenarios that only place tokens."""
    if not share or scenario.changes_track:
        return None
    tokens_only = not (scenario.add_trains or scenario.remove_trains or scenario.add_modifiers
                       or scenario.remove_modifiers)
    return SharedWork(graph, pool if tokens_only else None)


def _income(result: SolveResult) -> int:
    return result.revenue + result.subsidy


def _solve(board: Board, scenario: Scenario, index: int, deadline: float, left: int, opts: WhatIfOptions,
           work: SharedWork | None) -> ScenarioResult:
    """One scenario's optimum within its share of the time left; a shared answer the evaluator does
    not confirm is solved again from scratch."""
    share_s = max(0.01, (deadline - time.monotonic()) / max(1, left))
    solve_opts = SolveOptions(time_limit_s=share_s, objective=opts.objective, cancel=opts.cancel, prepared=work)
    t0 = time.monotonic()
    try:
        result = solve(board, solve_opts)
        shared = work is not None and work.used_pool
    except EvaluatorDisagreement:
        if work is None or not work.used_pool:
            raise
        result = solve(board, replace(solve_opts, prepared=None,
                                      time_limit_s=max(0.01, (deadline - time.monotonic()) / max(1, left))))
        shared = False
    except BoardError as exc:
        return ScenarioResult(scenario, index, error_field=exc.field, error=exc.message)
    stats = {"solve_ms": (time.monotonic() - t0) * 1000.0, "shared": 1.0 if shared else 0.0}
    return ScenarioResult(scenario, index, result=result, stats=stats)
