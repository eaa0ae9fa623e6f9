"""Every position of the shared corpus (real recorded 18xx.games runs), by fixture file.

Positions are counted by `revenue_model`. For `generic` and `modifiers` positions (the generic
rules, plus the snapshot's modifiers) the evaluator reproduces the engine's revenue from the
recorded routes and calls them legal; the optimiser proves an optimum at least as high, whose
routes the evaluator accepts, and never below a legal AutoRouter result. Any other model would be
counted apart: the recorded routes are legal and the optimum is at least their revenue by our rules.
(Per-route figures and per-title tallies: tests/test_corpus_modifiers.py.)
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from solver.claims import claims_from_recorded
from solver.evaluator import evaluate
from solver.optimiser import solve
from solver.results import ClaimedRoute, SolveOptions
from solver.snapshot import board_from_snapshot, read_positions
from tests.conftest import CORPUS

STANDARD_DIRS = sorted(d.name for d in CORPUS.iterdir() if d.is_dir() and d.name not in ("examples", "1873"))
FILES = [f for d in STANDARD_DIRS for f in sorted((CORPUS / d).glob("*.jsonl.gz"))]
TALLY: Counter[str] = Counter()


def _anchors() -> dict[tuple[str, int], dict]:
    out = {}
    path = CORPUS.parent / "anchors" / "autorouter.jsonl"
    with path.open() as fh:
        for line in fh:
            a = json.loads(line)
            out[(a["fixture_path"], a["action_id"])] = a
    return out


ANCHORS = _anchors()


def test_corpus_is_present() -> None:
    assert len(FILES) >= 30, f"expected the shared corpus at {CORPUS}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_file(path: Path) -> None:
    problems: list[str] = []
    for pos in read_positions(path):
        assert pos.raw is not None, pos.error
        snap = pos.raw
        board = board_from_snapshot(snap)
        recorded = evaluate(board, claims_from_recorded(snap["recorded"]))
        result = solve(board, SolveOptions(time_limit_s=60))
        claims = [ClaimedRoute(train=r.train, nodes=r.nodes, legs=[list(leg.paths) for leg in r.legs])
                  for r in result.routes]
        again = evaluate(board, claims)
        if not again.legal or again.revenue != result.revenue:
            problems.append(f"{pos.source}: optimiser routes rejected or repriced "
                            f"({again.revenue} vs {result.revenue})")
        if result.status != "OPTIMAL":
            problems.append(f"{pos.source}: status {result.status}")
        if not recorded.legal:
            problems.append(f"{pos.source}: recorded run judged illegal: {[f.message for f in recorded.findings]}")
        model = snap["revenue_model"]
        TALLY[model] += 1
        if model in ("generic", "modifiers"):
            engine = snap["engine"]["routes_revenue"]
            if recorded.revenue != engine:
                problems.append(f"{pos.source}: evaluator {recorded.revenue} != engine {engine}")
            if result.revenue < engine:
                problems.append(f"{pos.source}: optimum {result.revenue} < recorded {engine}")
            TALLY["above_recorded"] += result.revenue > engine
            anchor = ANCHORS.get((snap["source"]["fixture_path"], snap["source"]["action_id"]))
            # the AutoRouter's judged revenue includes the title's bonuses, as ours now does
            if anchor and anchor["judged_legal"]:
                TALLY["anchors_compared"] += 1
                if result.revenue < anchor["judged_revenue"]:
                    problems.append(f"{pos.source}: optimum {result.revenue} < AutoRouter {anchor['judged_revenue']}")
        else:
            TALLY["other_model"] += 1
            if result.revenue < recorded.revenue:
                problems.append(f"{pos.source}: optimum {result.revenue} < revenue by our rules {recorded.revenue}")
    assert not problems, "\n".join(problems)
