"""Big packings: the CP-SAT packing of enumerated routes and the compact circuit model
(`solver.packing.compact_model`) race in two threads; the first to prove its answer stops the other.

The compact model covers every route, listed or not, so its status and bound hold even when the
enumeration was cut short; the packing's hold only when the enumeration was complete.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.model.results import Status
from solver.packing.compact_model import CompactModel, eligible
from solver.packing.outcome import Choice, Packing
from solver.routes.leg_graph import LegGraph
from solver.routes.pricing import Candidate

Chosen = list[Choice]
PackFn = Callable[[CancelToken, int], Packing]


def value(cands: Sequence[Candidate], chosen: Chosen) -> int:
    """Total revenue of the chosen (route, class) pairs."""
    return sum(sum(cands[r].revenue[ci]) for r, ci in chosen)


def wants_compact(board: Board, classes: Sequence[Train], groups: Sequence[str], exhaustive: bool) -> bool:
    """Whether to race the compact model: trains it covers, no modifiers (it values plain stops),
    and a candidate list the enumeration could not complete (only then does the packing's own bound
    not hold, so the race can only help)."""
    return not board.modifiers and eligible(classes, groups) and not exhaustive


def race(board: Board, graph: LegGraph, classes: Sequence[Train], counts: Sequence[int], cands: list[Candidate],
         greedy: Chosen, exhaustive: bool, deadline: float, pack: PackFn,
         cancel: CancelToken | None = None) -> Packing:
    """Run `pack(stop, workers)` here and the compact model in a thread until one proves optimal,
    the deadline passes or `cancel` is set. The better of both answers: its candidates (`cands`: the
    packing's, or the compact model's routes), chosen pairs into them, OPTIMAL or FEASIBLE, a bound
    over every route (None when neither proved one), and the stats of both."""
    stop = CancelToken()
    if cancel is not None:
        cancel.on_cancel(stop.cancel)
    box: dict[str, Packing] = {}
    t0 = time.monotonic()

    def compact() -> None:
        model = CompactModel(board, graph, classes, counts)
        model.hint([(ci, cands[r].nodes, cands[r].legs) for r, ci in greedy])
        result = model.solve(deadline, 1, stop)
        result.stats["compact_ms"] = (time.monotonic() - t0) * 1000.0
        box["c"] = result
        if result.status == Status.OPTIMAL:
            stop.cancel()

    thread = threading.Thread(target=compact, name="compact-model", daemon=True)
    thread.start()
    packed = pack(stop, 1)
    p_status, p_chosen, p_bound, stats = packed.status, packed.chosen, packed.bound, packed.stats
    if p_status == Status.OPTIMAL and exhaustive:
        stop.cancel()
    thread.join()
    c = box.get("c")
    stats = dict(stats)
    stats["workers"] = 2.0
    best_cands, best_chosen = cands, (p_chosen if p_status != Status.UNKNOWN else greedy)
    best = value(cands, best_chosen)
    bounds: list[int] = []
    proven = False
    if p_status == Status.OPTIMAL and exhaustive:
        bounds.append(best)
        proven = True
    elif exhaustive and p_bound is not None:
        bounds.append(max(p_bound, best))
    if c is not None:
        stats.update(c.stats)
        if c.status != Status.UNKNOWN and c.cands is not None and c.bound is not None:
            c_value = value(c.cands, c.chosen)
            if c_value > best:
                best_cands, best_chosen, best = c.cands, c.chosen, c_value
            bounds.append(max(c.bound, c_value))
            proven = proven or c.status == Status.OPTIMAL
        stats["compact_status"] = {Status.OPTIMAL: 2.0, Status.FEASIBLE: 1.0}.get(c.status, 0.0)
    bound = max(best, min(bounds)) if bounds else None
    status = Status.OPTIMAL if proven or bound == best else Status.FEASIBLE
    if status == Status.OPTIMAL:
        bound = best
    return Packing(status, best_chosen, bound, stats, cands=best_cands)
