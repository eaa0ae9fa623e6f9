"""`prune` drops exactly the (route, class) options that cannot beat the lower bound even beside the
best options of every other train (conflicts ignored), keeps the known packing, and keeps the routes in
order; the conflict-free bound it returns is the sum of each class's best options. Checked on random
candidate lists, where nothing or something is dropped (hypothesis, derandomised)."""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.packing.pack import prune
from solver.routes.pricing import Candidate


@st.composite
def _lists(draw: st.DrawFn) -> tuple[list[Candidate], list[int], int, list[tuple[int, int]]]:
    counts = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    cands = []
    for r in range(draw(st.integers(1, 12))):
        classes = draw(st.sets(st.integers(0, len(counts) - 1), min_size=1))
        cands.append(Candidate(nodes=(f"n{r}",), legs=(), mask=1 << r,
                               revenue={ci: [draw(st.integers(0, 90))] for ci in sorted(classes)}))
    pairs = [(r, ci) for r, c in enumerate(cands) for ci in c.revenue]
    keep = draw(st.lists(st.sampled_from(pairs), max_size=2, unique=True))
    return cands, counts, draw(st.integers(0, 400)), keep


@settings(max_examples=400, derandomize=True, deadline=None)
@given(_lists())
def test_prune_drops_exactly_the_options_that_cannot_beat_the_bound(case) -> None:
    cands, counts, lower, keep = case
    tops = {ci: heapq.nlargest(counts[ci], [c.totals[ci] for c in cands if ci in c.revenue])
            for ci in range(len(counts))}
    upper = sum(sum(t) for t in tops.values())

    def best_beside(v: int, ci: int) -> int:  # the option worth v in its class's place among the best
        t = tops[ci]
        return upper - t[-1] + v if len(t) == counts[ci] and v < t[-1] else upper

    out, new_keep, bound = prune(cands, counts, lower, keep)
    assert bound == upper
    kept = {(c.nodes, ci) for c in out for ci in c.revenue}
    for r, c in enumerate(cands):
        for ci, v in c.totals.items():
            must = (r, ci) in keep or best_beside(v, ci) > lower
            assert ((c.nodes, ci) in kept) == must
    assert [c.nodes for c in out] == [c.nodes for c in cands if any((c.nodes, ci) in kept for ci in c.revenue)]
    assert sorted((out[i].nodes, ci) for i, ci in new_keep) == sorted((cands[r].nodes, ci) for r, ci in keep)
    assert new_keep == sorted(new_keep, key=lambda p: (p[0], list(out[p[0]].revenue).index(p[1])))


class _DropTerms:
    """The run rules `prune` reads, of a board whose lowest route is dropped from `drop_at` routes on."""

    drop_at = 1

    def upper_extra(self, cands: list[Candidate]) -> int:
        return 0

    def qualifies(self, cand: Candidate) -> bool:
        return False


def test_an_option_worth_less_than_nothing_is_kept_where_it_may_be_the_dropped_route() -> None:
    """Two trains, the lowest route dropped from one route on: A (80) beside X (-10) earns 80, beating a known
    70, though X beside the best other train (80 - 10) does not; C (70) shares A's track."""
    cands = [Candidate(nodes=("a",), legs=(), mask=1, revenue={0: [80]}),
             Candidate(nodes=("x",), legs=(), mask=2, revenue={0: [-10]}),
             Candidate(nodes=("c",), legs=(), mask=1, revenue={0: [70]})]
    kept, _keep, upper = prune(cands, [2], 70, [], _DropTerms())  # type: ignore[arg-type]
    assert [c.nodes for c in kept] == [("a",), ("x",), ("c",)] and upper == 150
    without_drop, _keep, _upper = prune(cands, [2], 70, [])
    assert ("x",) not in [c.nodes for c in without_drop]  # no drop: X only lowers a run
