"""The modifiers against the shared corpus, title by title.

For every `generic` and `modifiers` position the evaluator prices the engine's routes exactly as
the engine did: each route's revenue and the run total (`engine.routes_revenue`), with the run
legal. For every `modifiers` position the optimiser proves an optimum (OPTIMAL) at least as high
as the recorded run, and its answer passes the evaluator at the same revenue (`solve` raises
EvaluatorDisagreement otherwise). `generic` positions are solved in tests/test_corpus.py.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from solver.claims import claims_from_recorded
from solver.errors import EvaluatorDisagreement
from solver.evaluator import evaluate
from solver.optimiser import solve
from solver.results import SolveOptions
from solver.snapshot import board_from_snapshot, read_positions
from tests.conftest import CORPUS

MODELS = ("generic", "modifiers")
FILES = [f for d in sorted(CORPUS.iterdir()) if d.is_dir() and d.name not in ("examples", "1873")
         for f in sorted(d.glob("*.jsonl.gz"))]
TITLES = sorted({f.parent.name for f in FILES})


def _positions(title: str) -> list[dict]:
    return [p.raw for f in FILES if f.parent.name == title for p in read_positions(f) if p.raw is not None]


@pytest.mark.parametrize("title", TITLES)
def test_evaluator_prices_engine_routes_exactly(title: str) -> None:
    tally: Counter[str] = Counter()
    problems: list[str] = []
    for snap in _positions(title):
        if snap["revenue_model"] not in MODELS:
            continue
        engine = snap["engine"]
        assert engine["legal"], snap["source"]
        board = board_from_snapshot(snap)
        ev = evaluate(board, claims_from_recorded(engine))
        where = f"{title} action {snap['source']['action_id']}"
        tally["positions"] += 1
        tally["routes"] += len(engine["routes"])
        if not ev.legal:
            problems.append(f"{where}: judged illegal: {[f.message for f in ev.findings]}")
        if ev.revenue != engine["routes_revenue"]:
            problems.append(f"{where}: total {ev.revenue} != engine {engine['routes_revenue']}")
        ours = [r.revenue for r in ev.routes]
        theirs = [r["revenue"] for r in engine["routes"]]
        if ours != theirs:
            problems.append(f"{where}: routes {ours} != engine {theirs}")
        tally["bonus_lines"] += sum(len(r.bonuses) for r in ev.routes)
    assert not problems, "\n".join(problems)
    assert tally["positions"] > 0
    if title in ("1846", "1856", "1870", "1882", "18AL", "18MS"):
        assert tally["bonus_lines"] > 0, f"{title}: no bonus priced at all"


MODIFIER_FILES = [f for f in FILES if any(p.raw and p.raw["revenue_model"] == "modifiers" for p in read_positions(f))]


@pytest.mark.parametrize("path", MODIFIER_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_optimum_of_modifier_positions(path: Path) -> None:
    problems: list[str] = []
    for pos in read_positions(path):
        snap = pos.raw
        assert snap is not None, pos.error
        if snap["revenue_model"] != "modifiers":
            continue
        board = board_from_snapshot(snap)
        try:
            result = solve(board, SolveOptions(time_limit_s=60))
        except EvaluatorDisagreement as exc:
            problems.append(f"{pos.source}: {exc}")
            continue
        engine = snap["engine"]["routes_revenue"]
        if result.status != "OPTIMAL":
            problems.append(f"{pos.source}: status {result.status}")
        if result.revenue < engine:
            problems.append(f"{pos.source}: optimum {result.revenue} < recorded {engine}")
    assert not problems, "\n".join(problems)
