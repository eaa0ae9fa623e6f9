"""The modifiers against the shared corpus, title by title.

For every `generic` and `modifiers` position the evaluator prices the engine's routes exactly as
the engine did: each route's revenue and the run total (`engine.routes_revenue`), with the run
legal, and the subsidy (vocabulary v2: per route where the engine gives one, and in total). For
every `modifiers` position the optimiser proves an optimum (OPTIMAL) of revenue + subsidy at least as
high as the recorded run, and its answer passes the evaluator at the same value (`solve` raises
EvaluatorDisagreement otherwise). `generic` positions are solved in tests/solver/test_corpus.py.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.errors import EvaluatorDisagreement
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.routes.claims import claims_from_recorded
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
        if ev.subsidy != (engine.get("routes_subsidy") or 0):  # v2: paid besides the revenue
            problems.append(f"{where}: subsidy {ev.subsidy} != engine {engine.get('routes_subsidy')}")
        for i, (r, e) in enumerate(zip(ev.routes, engine["routes"])):
            if "subsidy" in e and r.subsidy != e["subsidy"]:
                problems.append(f"{where}: route {i + 1} subsidy {r.subsidy} != engine {e['subsidy']}")
        tally["subsidy"] += ev.subsidy
        tally["bonus_lines"] += sum(len(r.bonuses) for r in ev.routes)
    assert not problems, "\n".join(problems)
    assert tally["positions"] > 0
    if title in ("1846", "1856", "1870", "1882", "18AL", "18MS", "1817", "1867", "18LosAngeles1", "18FL", "1841"):
        assert tally["bonus_lines"] > 0, f"{title}: no bonus priced at all"
    if title in ("1837", "1824", "1888"):  # the titles with a subsidy
        assert tally["subsidy"] > 0, f"{title}: no subsidy priced at all"


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
        engine = snap["engine"]["routes_revenue"] + (snap["engine"].get("routes_subsidy") or 0)
        if result.status != "OPTIMAL":
            problems.append(f"{pos.source}: status {result.status}")
        if result.revenue + result.subsidy < engine:  # the default objective: revenue + subsidy
            problems.append(f"{pos.source}: optimum {result.revenue} + {result.subsidy} < recorded {engine}")
    assert not problems, "\n".join(problems)
