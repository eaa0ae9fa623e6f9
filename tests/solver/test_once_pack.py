"""The branch and bound for runs in which a stop pays once (`solver.packing.once_pack`): against brute
force on random candidates (hypothesis), against the CP-SAT packing of the same candidates on real
1877 Stockholm Tramways positions, and handing over to CP-SAT when it stops early."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver.packing.once_pack as once_pack
from solver.model.results import SolveOptions, Status
from solver.optimiser import solve
from solver.packing.once_pack import once_packing, once_search_fits
from solver.routes.pricing import Candidate
from tests.support.packing_runs import assert_best_run, brute_best, cpsat_packing, legal_run, searched_runs

TRAMS = "1877: Stockholm Tramways"


def _run_value(cands: list[Candidate], chosen: list[tuple[int, int]], units: dict[str, tuple[str, int]]) -> int:
    """What a run earns when each pay unit pays once: the routes' other revenue and each unit counted once."""
    others = sum(sum(cands[r].revenue[ci][len(cands[r].nodes):]) for r, ci in chosen)
    return others + sum(dict(units[n] for r, _ci in chosen for n in cands[r].nodes).values())


@st.composite
def _instances(draw: st.DrawFn) -> tuple[list[Candidate], list[int], list[str], dict[str, tuple[str, int]]]:
    n_stops = draw(st.integers(2, 7))
    stop_pay = [draw(st.sampled_from([0, 10, 20, 30, 50])) for _ in range(n_stops)]
    grouped = draw(st.booleans())  # pairs of stops that share a revenue group pay once together
    units = {f"s{k}": (f"u{k // 2}" if grouped else f"u{k}", stop_pay[k - k % 2] if grouped else stop_pay[k])
             for k in range(n_stops)}
    n_classes = draw(st.integers(1, 2))
    counts = [draw(st.integers(1, 2)) for _ in range(n_classes)]
    groups = [draw(st.sampled_from(["g0", "g1"])) for _ in range(n_classes)]
    cands = []
    for _ in range(draw(st.integers(1, 7))):
        stops = draw(st.lists(st.integers(0, n_stops - 1), min_size=1, max_size=4, unique=True))
        nodes = tuple(f"s{k}" for k in stops)
        mask = draw(st.integers(0, 15))  # track bits (0: a route without track)
        classes = draw(st.lists(st.integers(0, n_classes - 1), min_size=1, max_size=n_classes, unique=True))
        revenue = {ci: [units[n][1] for n in nodes] + [draw(st.sampled_from([0, 0, 10, -10]))] for ci in classes}
        cands.append(Candidate(nodes=nodes, legs=(), mask=mask, revenue=revenue))
    return cands, counts, groups, units


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_instances())
def test_the_best_run_is_the_brute_force_best(instance) -> None:
    cands, counts, groups, units = instance
    found = once_packing(cands, counts, groups, units, 0, [], time.monotonic() + 60)
    assert_best_run(found, cands, counts, groups, lambda run: _run_value(cands, run, units))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(_instances())
def test_a_known_run_nothing_beats_is_kept(instance) -> None:
    cands, counts, groups, units = instance
    best = brute_best(cands, counts, groups, lambda run: _run_value(cands, run, units))
    found = once_packing(cands, counts, groups, units, best, [(0, -1)], time.monotonic() + 60)
    assert (found.status, found.chosen, found.bound) == (Status.OPTIMAL, [(0, -1)], best)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(_instances(), st.integers(0, 30))
def test_a_search_stopped_early_keeps_a_legal_run_at_least_as_good(instance, limit: int) -> None:
    cands, counts, groups, units = instance
    known = [(0, next(iter(cands[0].revenue)))]  # a legal run of one route, which the search may beat
    lower = _run_value(cands, known, units)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(once_pack, "SCAN_LIMIT", limit)
        found = once_packing(cands, counts, groups, units, lower, known, time.monotonic() + 60)
    assert legal_run(cands, found.chosen, counts, groups)
    assert _run_value(cands, found.chosen, units) >= lower
    best = brute_best(cands, counts, groups, lambda run: _run_value(cands, run, units))
    if found.status == Status.OPTIMAL:
        assert found.bound == max(best, lower) == _run_value(cands, found.chosen, units)
    else:
        assert found.status == Status.UNKNOWN and found.bound is None


def test_the_search_takes_only_the_rule_it_prices() -> None:
    class Terms:  # the fields of RunTerms that once_search_fits reads
        units: dict | None = {"a": ("a", 10), "b": ("b", 0)}
        best: list = []
        required: list = []
        set_rules: list = []
        drop_at: int | None = None

    assert once_search_fits(Terms())  # type: ignore[arg-type]
    for field, value in (("units", None), ("units", {"a": ("a", -10)}), ("best", [object()]),
                         ("required", [object()]), ("set_rules", [object()]), ("drop_at", 3)):
        other = Terms()
        setattr(other, field, value)
        assert not once_search_fits(other), field  # type: ignore[arg-type]
    assert not once_search_fits(None)


def _tram_runs(every: int) -> list:
    """Real tram positions after the bound phase, where a search is needed (greedy below the bound)."""
    return searched_runs(("1877StockholmTramways",), every, lambda snap: snap["source"].get("title") == TRAMS,
                         once_search_fits)


def test_real_tram_runs_match_the_cpsat_packing() -> None:
    runs = _tram_runs(every=3)
    assert len(runs) >= 20
    for run in runs:
        assert run.terms is not None and run.terms.units is not None
        found = once_packing(run.cands, run.counts, run.groups, run.terms.units, run.lower, run.lower_pack,
                             time.monotonic() + 60)
        model = cpsat_packing(run)
        value = run.terms.value(run.cands, found.chosen)
        if found.status == Status.OPTIMAL:
            assert found.bound == value == run.terms.value(run.cands, model.chosen)
        else:  # stopped at its scan limit: a legal run no worse than the greedy one, for CP-SAT's hint
            assert value is not None and value >= run.lower


def test_a_search_stopped_early_hands_over_to_cpsat(monkeypatch: pytest.MonkeyPatch) -> None:
    boards = [run.board for run in _tram_runs(every=9)][:6]
    assert boards
    full = [solve(b, SolveOptions(time_limit_s=60)) for b in boards]
    assert any("bb_nodes" in r.stats and "cpsat_wall_ms" not in r.stats for r in full)
    monkeypatch.setattr(once_pack, "SCAN_LIMIT", 0)
    for board, before in zip(boards, full, strict=True):
        after = solve(board, SolveOptions(time_limit_s=60))
        assert "cpsat_wall_ms" in after.stats
        assert (after.revenue, after.status) == (before.revenue, Status.OPTIMAL)
