"""Big packings: the CP-SAT packing of enumerated routes and the compact circuit model
(`solver.packing.compact_model`) race in two threads; the first to prove its answer stops the other.

The compact model covers every route, listed or not, so its status and bound hold even when the
enumeration was cut short; the packing's hold only when the enumeration was complete.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.packing.compact_model import CompactModel, CompactResult, eligible
from solver.routes.candidates import Candidate, LegGraph

Chosen = list[tuple[int, int]]
PackFn = Callable[[CancelToken, int], tuple[str, Chosen, int, dict[str, float]]]


@dataclass
class RaceResult:
    """The better of both answers: candidates (the packing's plus the compact model's routes),
    chosen pairs into them, status, a bound over every route, and stats."""

    cands: list[Candidate]
    chosen: Chosen
    status: str
    bound: int
    stats: dict[str, float] = field(default_factory=dict)


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
         cancel: CancelToken | None = None) -> RaceResult:
    """Run `pack(stop, workers)` here and the compact model in a thread until one proves optimal,
    the deadline passes or `cancel` is set."""
    stop = CancelToken()
    if cancel is not None:
        cancel.on_cancel(stop.cancel)
    box: dict[str, CompactResult] = {}
    t0 = time.monotonic()

    def compact() -> None:
        model = CompactModel(board, graph, classes, counts)
        model.hint([(ci, cands[r].nodes, cands[r].legs) for r, ci in greedy])
        result = model.solve(deadline, 1, stop)
        result.stats["compact_ms"] = (time.monotonic() - t0) * 1000.0
        box["c"] = result
        if result.status == "OPTIMAL":
            stop.cancel()

    thread = threading.Thread(target=compact, name="compact-model", daemon=True)
    thread.start()
    p_status, p_chosen, p_bound, stats = pack(stop, 1)
    if p_status == "OPTIMAL" and exhaustive:
        stop.cancel()
    thread.join()
    c = box.get("c")
    stats = dict(stats)
    stats["workers"] = 2.0
    best_cands, best_chosen = cands, (p_chosen if p_status != "UNKNOWN" else greedy)
    best = value(cands, best_chosen)
    bounds: list[int] = []
    proven = False
    if p_status == "OPTIMAL" and exhaustive:
        bounds.append(best)
        proven = True
    elif exhaustive and p_bound >= 0:
        bounds.append(max(p_bound, best))
    if c is not None:
        stats.update(c.stats)
        if c.status != "UNKNOWN":
            c_value = value(c.routes, c.chosen)
            if c_value > best:
                best_cands, best_chosen, best = c.routes, c.chosen, c_value
            bounds.append(max(c.bound, c_value))
            proven = proven or c.status == "OPTIMAL"
        stats["compact_status"] = {"OPTIMAL": 2.0, "FEASIBLE": 1.0}.get(c.status, 0.0)
    bound = max(best, min(bounds)) if bounds else -1
    status = "OPTIMAL" if proven or bound == best else "FEASIBLE"
    if status == "OPTIMAL":
        bound = best
    return RaceResult(cands=best_cands, chosen=best_chosen, status=status, bound=bound, stats=stats)
