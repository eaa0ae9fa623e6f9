"""Every position of the shared corpus (real recorded 18xx.games runs), by fixture file.

Positions are counted by `revenue_model`. For `generic` and `modifiers` positions (the generic
rules, plus the snapshot's modifiers) the evaluator reproduces the engine's revenue from the
recorded routes and calls them legal; the optimiser proves an optimum at least as high, whose
routes the evaluator accepts, and never below a legal AutoRouter result. Any other model would be
counted apart: the recorded routes are legal and the optimum is at least their revenue by our rules.
`unsupported` positions (rules no modifier describes) are counted apart with their reasons; only the
optimiser's own answer is checked on them. Values are revenue + subsidy, the default objective.
(Per-route figures and per-title tallies: tests/solver/test_corpus_modifiers.py.)
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.results import ClaimedRoute, SolveOptions
from solver.optimiser import solve
from solver.routes.claims import claims_from_recorded
from tests.conftest import CORPUS

STANDARD_DIRS = sorted(d.name for d in CORPUS.iterdir() if d.is_dir() and d.name not in ("examples", "1873"))
FILES = [f for d in STANDARD_DIRS for f in sorted((CORPUS / d).glob("*.jsonl.gz"))]
TALLY: Counter[str] = Counter()
UNSUPPORTED: Counter[str] = Counter()  # reasons of the `unsupported` positions, counted apart


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
        model = snap["revenue_model"]
        TALLY[model] += 1
        result = solve(board, SolveOptions(time_limit_s=60))
        claims = [ClaimedRoute(train=r.train, nodes=r.nodes, legs=[list(leg.paths) for leg in r.legs])
                  for r in result.routes]
        again = evaluate(board, claims)
        if not again.legal or again.revenue != result.revenue or again.subsidy != result.subsidy:
            problems.append(f"{pos.source}: optimiser routes rejected or repriced "
                            f"({again.revenue} vs {result.revenue}, subsidy {again.subsidy} vs {result.subsidy})")
        if result.status != "OPTIMAL":
            problems.append(f"{pos.source}: status {result.status}")
        if model == "unsupported":  # rules no modifier describes: counted apart with the snapshot's reasons
            reasons = snap.get("revenue_model_reasons") or []
            if not reasons:
                problems.append(f"{pos.source}: unsupported without revenue_model_reasons")
            for reason in reasons:
                UNSUPPORTED[reason] += 1
            continue
        recorded = evaluate(board, claims_from_recorded(snap["recorded"]))
        if not recorded.legal:
            problems.append(f"{pos.source}: recorded run judged illegal: {[f.message for f in recorded.findings]}")
        best = result.revenue + result.subsidy  # the objective: the company's whole income from the run
        if model in ("generic", "modifiers"):
            engine = snap["engine"]["routes_revenue"]
            engine_subsidy = snap["engine"].get("routes_subsidy") or 0
            if recorded.revenue != engine or recorded.subsidy != engine_subsidy:
                problems.append(f"{pos.source}: evaluator {recorded.revenue} + {recorded.subsidy} != engine "
                                f"{engine} + {engine_subsidy}")
            if best < engine + engine_subsidy:
                problems.append(f"{pos.source}: optimum {best} < recorded {engine + engine_subsidy}")
            TALLY["above_recorded"] += best > engine + engine_subsidy
            anchor = ANCHORS.get((snap["source"]["fixture_path"], snap["source"]["action_id"]))
            # the AutoRouter's judged revenue includes the title's bonuses, as ours does (its subsidy is
            # not given, so our whole income is held to its revenue)
            if anchor and anchor["judged_legal"]:
                TALLY["anchors_compared"] += 1
                if best < anchor["judged_revenue"]:
                    problems.append(f"{pos.source}: optimum {best} < AutoRouter {anchor['judged_revenue']}")
        else:
            TALLY["other_model"] += 1
            if best < recorded.revenue + recorded.subsidy:
                problems.append(f"{pos.source}: optimum {best} < revenue by our rules {recorded.revenue}")
    assert not problems, "\n".join(problems)
