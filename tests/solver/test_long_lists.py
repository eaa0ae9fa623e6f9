"""A long complete route list without run rules skips the greedy packing and its pruning: the branch and bound
follows, its first dive is that packing, and the bound phase takes the conflict-free bound alone.

Checked with the threshold at 0 (every such board takes that path) against the threshold out of reach (every
board has the greedy packing and the pruning first), on the late positions of every title's game and on
stress boards: the same revenue, status and bound."""

from __future__ import annotations

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from solver.rulesets.r_standard import solve as standard
from tests.support.corpus_files import late_positions
from tests.support.stress_boards import stress_snapshots

RAWS = [raw for _title, raw in late_positions(2)] + [raw for t in ("1830", "18AL") for raw in stress_snapshots(t)]


def test_without_greedy_packing_the_branch_and_bound_gives_the_same_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[int] = []
    bound = standard.conflict_free_bound

    def counted(cands, counts):  # the long-list path ran
        taken.append(len(cands))
        return bound(cands, counts)

    monkeypatch.setattr(standard, "conflict_free_bound", counted)
    monkeypatch.setattr(standard, "MANY_CANDIDATES", 0)
    short = {}
    for i, raw in enumerate(RAWS):
        before = len(taken)
        answer = solve(board_from_snapshot(raw), SolveOptions(time_limit_s=60))
        if len(taken) > before:
            short[i] = (answer.revenue, answer.status, answer.bound)
    assert len(short) >= 20
    monkeypatch.setattr(standard, "MANY_CANDIDATES", 10**12)
    for i, value in short.items():
        full = solve(board_from_snapshot(RAWS[i]), SolveOptions(time_limit_s=60))
        assert (full.revenue, full.status, full.bound) == value, RAWS[i].get("source")
