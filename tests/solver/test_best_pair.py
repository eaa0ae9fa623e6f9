"""`packing.pair.best_pair`, the lazy build's lower bound for two trains: on random candidate sets it
finds a legal run (distinct routes sharing no track, one per train) worth what the best pair found
by trying every pair is worth (whenever that beats the run it is told of)."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model.legs import Leg
from solver.packing.pair import best_pair
from solver.routes.leg_graph import mask_bits
from solver.routes.pricing import Candidate


@st.composite
def candidate_sets(draw: st.DrawFn) -> tuple[list[Candidate], list[int]]:
    """Up to 40 routes over 10 track keys, each priced for one or both of two classes (values may be 0)."""
    counts = draw(st.sampled_from([[1, 1], [2], [2, 0], [0, 2], [1, 0, 1]]))
    classes = [ci for ci, n in enumerate(counts) if n]
    cands = []
    for _ in range(draw(st.integers(0, 40))):
        mask = draw(st.integers(0, (1 << 10) - 1))
        priced = draw(st.lists(st.sampled_from(classes), min_size=1, max_size=2, unique=True))
        revenue = {ci: [draw(st.integers(0, 100))] for ci in priced}
        cands.append(Candidate(nodes=("a",), legs=(), mask=mask, revenue=revenue))
    return cands, counts


def _every_pair(cands: list[Candidate], counts: list[int]) -> int:
    """The best run of at most two trains, trying every route and every pair."""
    options = [(r, ci, c.totals[ci]) for r, c in enumerate(cands) for ci in c.totals if counts[ci]]
    best = max((v for _r, _ci, v in options), default=0)
    for (r1, c1, v1), (r2, c2, v2) in combinations(options, 2):
        if r1 != r2 and not cands[r1].mask & cands[r2].mask and (c1 != c2 or counts[c1] == 2):
            best = max(best, v1 + v2)
    return best


@settings(max_examples=400, deadline=None)
@given(candidate_sets(), st.one_of(st.just(0), st.integers(0, 200)))
def test_best_pair_is_the_best_legal_pair(case: tuple[list[Candidate], list[int]], beat: int) -> None:
    """With `beat`, the answer is still a legal run, and the best one whenever the best beats `beat`."""
    cands, counts = case
    chosen = best_pair(cands, counts, ["track"] * len(counts), beat)
    assert chosen is not None
    routes = [r for r, _ci in chosen]
    assert len(set(routes)) == len(routes) <= 2
    assert all(counts[ci] >= sum(1 for _r, c in chosen if c == ci) for _r, ci in chosen)
    if len(chosen) == 2:
        assert not cands[routes[0]].mask & cands[routes[1]].mask
    best = _every_pair(cands, counts)
    if best > beat:
        assert sum(cands[r].totals[ci] for r, ci in chosen) == best
    # the track told per leg by the caller (the optimiser reads a leg's bits from the leg graph), in any
    # order: each route's track split over legs that other routes share, read once per leg
    pool = [_leg(k) for k in range(10)]
    bits_of_leg = {id(leg): [k] for k, leg in enumerate(pool)}
    asked: list[int] = []

    def leg_bits(leg: Leg) -> list[int]:
        asked.append(id(leg))
        return bits_of_leg[id(leg)]

    with_legs = [Candidate(nodes=c.nodes, legs=tuple(pool[k] for k in mask_bits(c.mask)[::-1]), mask=c.mask,
                           revenue=c.revenue) for c in cands]
    assert best_pair(with_legs, counts, ["track"] * len(counts), beat, leg_bits) == chosen
    assert len(asked) == len(set(asked))


def _leg(k: int) -> Leg:
    """A leg over one track key (numbered k)."""
    return Leg(a=f"s{k}", b=f"t{k}", paths=(f"p{k}",), keys=frozenset({("edge", k)}), hexes=(f"h{k}",), crossings=1,
               terminal_first=False, terminal_last=False, terminal_inner=False)


def test_best_pair_declines_other_companies() -> None:
    """Three trains, or two on different track groups: not a pair of this search."""
    cands = [Candidate(nodes=("a",), legs=(), mask=1, revenue={0: [10]})]
    assert best_pair(cands, [3], ["track"]) is None
    assert best_pair(cands, [1, 1], ["track", "other"]) is None
    assert best_pair(cands, [1], ["track"]) is None
