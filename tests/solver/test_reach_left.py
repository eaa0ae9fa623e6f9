"""`route_bound.reach_left` on random small track graphs, legs one way or both: what it gives for a route's
end and the stops it has seen is never below what the best continuation earns, found by trying every
continuation (a walk that enters no seen stop, passes only stops it may pass, and ends anywhere)."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.routes.route_bound import ReachBound, reach_left

NODES = 7


@st.composite
def graphs(draw: st.DrawFn) -> tuple[dict, dict, dict, frozenset[str], int, str]:
    """Legs (some one way only, some parallel), the stops' and legs' weights, the stops a route may pass,
    the stops seen (bits) and the route's end."""
    names = [f"n{i}" for i in range(NODES)]
    pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names), st.booleans(),
                                    st.integers(0, 20)), min_size=3, max_size=18))
    legs_from: dict[str, list] = {n: [] for n in names}
    leg_weight: dict[int, int] = {}
    for a, b, both_ways, w in pairs:
        if a == b:
            continue
        for x, y in ((a, b), (b, a)) if both_ways else ((a, b),):
            leg = SimpleNamespace(a=x, b=y)
            legs_from[x].append(leg)
            leg_weight[id(leg)] = w
    node_weight = {n: draw(st.integers(0, 50)) for n in names}
    passable = frozenset(n for n in names if draw(st.booleans()) or n == names[0])
    end = draw(st.sampled_from(names))
    seen = {end} | set(draw(st.lists(st.sampled_from(names), max_size=3)))
    bit = {n: 1 << i for i, n in enumerate(names)}
    return legs_from, node_weight, leg_weight, passable, sum(bit[n] for n in seen), end


def _best_continuation(legs_from: dict, node_weight: dict, leg_weight: dict, passable: frozenset[str],
                       seen: set[str], at: str) -> int:
    """The most any continuation from `at` adds, by trying them all."""
    best = 0
    for leg in legs_from[at]:
        if leg.b in seen:
            continue
        here = node_weight[leg.b] + leg_weight[id(leg)]
        onward = _best_continuation(legs_from, node_weight, leg_weight, passable, seen | {leg.b}, leg.b) \
            if leg.b in passable else 0
        best = max(best, here + onward)
    return best


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_no_continuation_earns_more_than_reach_left(graph: tuple) -> None:
    legs_from, node_weight, leg_weight, passable, seen_bits, end = graph
    bit = {n: 1 << i for i, n in enumerate(legs_from)}
    bound = ReachBound(node_weight, leg_weight, {}, 0, 99, flat=True)
    left = reach_left(legs_from, passable, bound, bit)
    seen = {n for n in legs_from if bit[n] & seen_bits}
    assert _best_continuation(legs_from, node_weight, leg_weight, passable, seen, end) <= left(end, seen_bits)


def test_a_continuation_is_bounded_by_the_one_branch_it_enters() -> None:
    """From the middle of a chain z - a - u - b - c, a continuation goes one way: through a to z (worth 5 + 3)
    or through b to c (worth 10 + 20); never both, so the bound is 30 (both ways with one end would be 35).
    From z, with nothing seen but z, every stop is on its one way: 5 + 7 + 10 + 20."""
    names = ["z", "a", "u", "b", "c"]
    legs_from: dict[str, list] = {n: [] for n in names}
    for x, y in (("z", "a"), ("a", "u"), ("u", "b"), ("b", "c")):
        legs_from[x].append(SimpleNamespace(a=x, b=y))
        legs_from[y].append(SimpleNamespace(a=y, b=x))
    weights = {"z": 3, "a": 5, "u": 7, "b": 10, "c": 20}
    leg_weight = {id(leg): 0 for legs in legs_from.values() for leg in legs}
    bit = {n: 1 << i for i, n in enumerate(names)}
    left = reach_left(legs_from, frozenset(names), ReachBound(weights, leg_weight, {}, 0, 99, flat=True), bit)
    assert left("u", bit["u"]) == 30
    assert left("z", bit["z"]) == 42
