"""The branch and bound for runs with best-route awards (`solver.packing.award_pack`): against brute
force on random candidates (hypothesis), against the CP-SAT packing of the same candidates on real
positions with a BestRouteBonus, and handing over to CP-SAT when it stops early."""

from __future__ import annotations

import time
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver.packing.award_pack as award_pack
import solver.packing.setpack as setpack
import solver.rulesets.r_standard.solve as standard
from solver.model.results import SolveOptions, Status
from solver.modifiers.model import BestRouteBonus
from solver.optimiser import solve
from solver.packing.award_pack import award_packing, award_search_fits
from solver.routes.pricing import Candidate
from tests.support.cancel_after import CancelAfter
from tests.support.packing_runs import assert_best_run, brute_best, cpsat_packing, legal_run, searched_runs

Awards = dict[tuple[int, int], list[int]]


class _Terms:
    """The fields of RunTerms that the award search reads: the award rules and each option's bonuses."""

    def __init__(self, rules: int, awards: Awards) -> None:
        self.best = [BestRouteBonus(source="s", label=f"award {k}", award="first_max", per_visited_stop=10)
                     for k in range(rules)]
        self.required: list = []
        self.set_rules: list = []
        self.units = None
        self.drop_at: int | None = None
        self.changes: dict = {}
        self._awards = awards

    def awards(self, cand: Candidate, ci: int) -> list[int]:
        return self._awards[(id(cand), ci)]


def _run_value(cands: Sequence[Candidate], chosen: Sequence[tuple[int, int]], terms: _Terms) -> int:
    """The routes' values plus, per award rule, the largest bonus among the chosen routes."""
    total = sum(sum(cands[r].revenue[ci]) for r, ci in chosen)
    return total + sum(max((terms.awards(cands[r], ci)[k] for r, ci in chosen), default=0)
                       for k in range(len(terms.best)))


@st.composite
def _instances(draw: st.DrawFn) -> tuple[list[Candidate], list[int], list[str], _Terms]:
    n_classes = draw(st.integers(1, 3))
    counts = [draw(st.integers(1, 2)) for _ in range(n_classes)]
    groups = [draw(st.sampled_from(["g0", "g1"])) for _ in range(n_classes)]
    rules = draw(st.integers(1, 2))
    cands, awards = [], {}
    for r in range(draw(st.integers(1, 7))):
        mask = draw(st.integers(0, 31))  # track bits (0: a route without track)
        classes = draw(st.lists(st.integers(0, n_classes - 1), min_size=1, max_size=n_classes, unique=True))
        same = draw(st.booleans())  # every class earns the same on it (classes then share an option)
        revenue = {ci: [draw(st.sampled_from([-20, 0, 10, 20, 40, 70]))] for ci in classes}
        bonus = [draw(st.sampled_from([0, 0, 10, 20, 30])) for _ in range(rules)]
        cand = Candidate(nodes=(f"s{r}",), legs=(), mask=mask, revenue=revenue)
        for ci in classes:
            if same:
                revenue[ci] = list(revenue[classes[0]])
            awards[(id(cand), ci)] = bonus if same else [draw(st.sampled_from([0, 10, 30])) for _ in range(rules)]
        cands.append(cand)
    return cands, counts, groups, _Terms(rules, awards)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_instances(), st.booleans())
def test_the_best_run_is_the_brute_force_best(instance, merge: bool) -> None:
    cands, counts, groups, terms = instance
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(award_pack, "MERGE_CLASSES", 6 if merge else 0)  # classes that earn alike share an option
        found = award_packing(cands, counts, groups, terms, 0, [], time.monotonic() + 60)  # type: ignore[arg-type]
    assert_best_run(found, cands, counts, groups, lambda run: _run_value(cands, run, terms))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(_instances())
def test_a_known_run_nothing_beats_is_kept(instance) -> None:
    cands, counts, groups, terms = instance
    best = brute_best(cands, counts, groups, lambda run: _run_value(cands, run, terms))
    found = award_packing(cands, counts, groups, terms, best, [(0, -1)], time.monotonic() + 60)  # type: ignore[arg-type]
    assert (found.status, found.chosen, found.bound) == (Status.OPTIMAL, [(0, -1)], best)


def test_a_search_stopped_early_keeps_a_legal_run_better_than_the_known_one(monkeypatch: pytest.MonkeyPatch) -> None:
    cands = [Candidate(nodes=(f"s{r}",), legs=(), mask=(1 << r) | (1 << (r + 1)), revenue={0: [10 * r + 10]})
             for r in range(200)]
    terms = _Terms(1, {(id(c), 0): [10 * (r % 7)] for r, c in enumerate(cands)})
    known = [(0, 0)]  # a weak legal run: the search's first dive beats it
    lower = _run_value(cands, known, terms)
    monkeypatch.setattr(setpack, "CHECK_EVERY", 1)  # the token is read at every search node
    # a token set once read twice: the Python search reads it (the compiled one reads a flag the token sets)
    monkeypatch.setenv("ROUTEMAX_NATIVE", "0")
    found = award_packing(cands, [3], ["g"], terms, lower, known, time.monotonic() + 60,  # type: ignore[arg-type]
                          CancelAfter(1))  # type: ignore[arg-type]
    assert (found.status, found.bound) == (Status.UNKNOWN, None)
    assert found.stats["bb_nodes"] == 2  # stopped in its first dive, with the best route alone found
    assert found.chosen != known and legal_run(cands, found.chosen, [3], ["g"])
    assert _run_value(cands, found.chosen, terms) > lower


def test_the_search_takes_only_the_rules_it_prices() -> None:
    terms = _Terms(1, {})
    assert award_search_fits(terms)  # type: ignore[arg-type]
    for field, value in (("best", []), ("best", [object()] * 3), ("units", {"a": ("a", 10)}),
                         ("required", [object()]), ("set_rules", [object()]), ("drop_at", 3),
                         ("changes", {("a",): object()})):
        other = _Terms(1, {})
        setattr(other, field, value)
        assert not award_search_fits(other), field  # type: ignore[arg-type]
    assert not award_search_fits(None)
    varying = BestRouteBonus(source="a", label="a", award="last", per_visited_stop=10)
    fixed = BestRouteBonus(source="b", label="b", award="last", amount=20)
    for rules, fits in (([varying, fixed], True), ([fixed, fixed], True), ([varying, varying], False)):
        other = _Terms(1, {})
        other.best = rules
        assert award_search_fits(other) == fits, rules  # type: ignore[arg-type]


def _award_runs(every: int) -> list:
    """Real positions with a best-route award after the bound phase, where a search is needed."""
    return searched_runs(("1846", "18Tokaido", "18AL"), every,
                         lambda snap: any(m.get("type") == "BestRouteBonus" for m in snap.get("modifiers", ())),
                         award_search_fits)


def test_real_award_runs_match_the_cpsat_packing() -> None:
    runs = _award_runs(every=1)
    assert len(runs) >= 10
    for run in runs:
        found = award_packing(run.cands, run.counts, run.groups, run.terms, run.lower, run.lower_pack,
                              time.monotonic() + 60)
        model = cpsat_packing(run)
        assert found.status == Status.OPTIMAL
        assert found.bound == run.terms.value(run.cands, found.chosen) == run.terms.value(run.cands, model.chosen)


def test_a_search_stopped_early_hands_over_to_cpsat(monkeypatch: pytest.MonkeyPatch) -> None:
    boards = [run.board for run in _award_runs(every=2)][:4]
    assert boards
    full = [solve(b, SolveOptions(time_limit_s=60)) for b in boards]
    assert all("bb_nodes" in r.stats and "cpsat_wall_ms" not in r.stats for r in full)
    monkeypatch.setattr(standard, "BB_SHARE", 0.0)  # no time for the branch and bound
    monkeypatch.setattr(setpack, "CHECK_EVERY", 1)  # which reads the clock at its first node
    for board, before in zip(boards, full, strict=True):
        after = solve(board, SolveOptions(time_limit_s=60))
        assert "cpsat_wall_ms" in after.stats
        assert (after.revenue, after.status) == (before.revenue, Status.OPTIMAL)
