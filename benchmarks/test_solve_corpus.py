"""Solve time per corpus position, by title: one benchmark round per position.

Run: `python -m pytest benchmarks --benchmark-only`. The median and max columns are per
position; `extra_info` carries p99, and the AutoRouter's median on the same positions.
"""

from __future__ import annotations

import json
import statistics
from itertools import count

import pytest

from benchmarks.conftest import CORPUS, boards_by_title
from benchmarks.figures import p99
from solver.model.results import SolveOptions
from solver.optimiser import solve

BOARDS = boards_by_title()


def _autorouter_seconds() -> dict[tuple[str, int], float]:
    out = {}
    with (CORPUS.parent / "anchors" / "autorouter.jsonl").open() as fh:
        for line in fh:
            a = json.loads(line)
            out[(a["fixture_path"], a["action_id"])] = a["total_seconds"]
    return out


AUTOROUTER = _autorouter_seconds()


def _final_rounds(boards: list) -> list:
    """The positions of each game's last operating round (its latest `round`), the late game."""
    last: dict[str, str] = {}
    for b in boards:  # positions are in game order
        last[b.source["fixture"]] = b.source.get("round", "")
    return [b for b in boards if b.source.get("round", "") == last[b.source["fixture"]]]


FINAL_1867 = "1867 final rounds"  # navig18xx publishes 1867 final-round times (5 s to 2 min on 2 cores)
if "1867" in BOARDS:
    BOARDS[FINAL_1867] = _final_rounds(BOARDS["1867"])

CASES = [(t, None) for t in sorted(BOARDS) if t != "Harzbahn 1873"]
CASES += [("Harzbahn 1873", "RULEBOOK"), ("Harzbahn 1873", "REVENUE_ONLY")]


@pytest.mark.parametrize(("title", "objective"), CASES, ids=lambda v: str(v))
def test_solve_positions_of_title(benchmark, title: str, objective: str | None) -> None:
    boards = BOARDS[title]
    nxt = count()
    times: list[float] = []

    def setup():
        return (boards[next(nxt) % len(boards)],), {}

    def run(board):
        result = solve(board, SolveOptions(time_limit_s=60, objective=objective))
        times.append(result.stats["solve_ms"])
        return result

    benchmark.pedantic(run, setup=setup, rounds=len(boards), iterations=1, warmup_rounds=0)
    ar = [AUTOROUTER[(b.source["fixture_path"], b.source["action_id"])] * 1000 for b in boards
          if (b.source.get("fixture_path"), b.source.get("action_id")) in AUTOROUTER]
    benchmark.extra_info.update({
        "positions": len(boards), "median_ms": round(statistics.median(times), 2), "p99_ms": round(p99(times), 2),
        "autorouter_median_ms": round(statistics.median(ar), 2) if ar else None,
        "autorouter_p99_ms": round(p99(ar), 2) if ar else None,
    })
    assert len(times) == len(boards)


# the seventeen titles vocabulary v2 brought (issue 18); the first fourteen are the others
V2_TITLES = frozenset({
    "1817", "1817NA", "18 Hiawatha", "1824", "1828.Games", "1837", "1841", "1847 AE", "1850", "1867",
    "1877: Stockholm Tramways", "1888", "Uncle Lachlan's 18 Christmas Eve", "18FL", "18 Los Angeles", "18Tokaido",
    "Steam Over Holland"})
GROUPS = {
    "whole corpus": lambda title, board: True,
    "vocabulary v2 titles": lambda title, board: title in V2_TITLES,
    "first 14 titles, generic and modifiers": lambda title, board: (
        title not in V2_TITLES and board.revenue_model in ("generic", "modifiers")),
}


@pytest.mark.parametrize("group", list(GROUPS))
def test_solve_title_group(benchmark, group: str) -> None:
    """The issues' corpus targets are over groups of titles: every supported position of the group once,
    with the objective its title defaults to; `extra_info` has the median and p99 of `solve_ms`."""
    boards = [b for title in sorted(BOARDS) if title != FINAL_1867 for b in BOARDS[title] if GROUPS[group](title, b)]
    nxt = count()
    times: list[float] = []

    def setup():
        return (boards[next(nxt) % len(boards)],), {}

    def run(board):
        result = solve(board, SolveOptions(time_limit_s=60))
        times.append(result.stats["solve_ms"])
        return result

    benchmark.pedantic(run, setup=setup, rounds=len(boards), iterations=1, warmup_rounds=0)
    benchmark.extra_info.update({"positions": len(boards), "median_ms": round(statistics.median(times), 2),
                                 "p99_ms": round(p99(times), 2), "max_ms": round(max(times), 2),
                                 "over_100_ms": sum(t > 100 for t in times)})
    assert len(times) == len(boards)
