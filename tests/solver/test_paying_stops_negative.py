"""A list train's paying stops where a stop pays less than nothing (snapshots allow negative revenues):
FORMAT.md takes the largest set of stops that earns something, so a set without the stop that costs may pay
where the best set of the largest size earns nothing or less. `paying_stops` against that rule written
plainly (the brute force's `train_value`)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model.board import DistanceRow, Node, Train
from solver.model.limits import MAX_SUBSET_SEARCH
from solver.rules.train_rules import _paying_by_search, _paying_greedy, paying_stops, pour_fits
from tests.support.bruteforce_modifiers import train_value

CITIES = ("city", "offboard")


def test_a_town_that_costs_more_than_the_city_earns_is_left_out() -> None:
    """City 10 (the token) and a town at -20: both together earn -10, the city alone 10."""
    rows = (DistanceRow(CITIES, 2, 2), DistanceRow(("town",), 1, 1))
    train = Train(id="t-0", name="t", unit="stops_by_type", rows=rows)
    city = Node(id="c", hex="A1", kind="city", revenue=10, tokened_by_company=True)
    town = Node(id="t", hex="A2", kind="town", revenue=-20)
    assert [(n.id, v) for n, v in paying_stops(train, [city, town])] == [("c", 10)]


def test_a_route_too_long_to_search_keeps_the_largest_set_that_earns_something() -> None:
    """City 10 and 21 towns at -1 in one row of 22: the search of subsets stops at MAX_SUBSET_SEARCH, and
    the stand-in takes the city and nine towns (the largest set that earns something: 1)."""
    train = Train(id="t-0", name="t", unit="stops_by_type", rows=(DistanceRow(("city", "town"), 22, 22),))
    city = Node(id="c", hex="A0", kind="city", revenue=10, tokened_by_company=True)
    towns = [Node(id=f"t{i}", hex=f"A{i + 1}", kind="town", revenue=-1) for i in range(21)]
    assert sum(math.comb(22, k) for k in range(11, 23)) > MAX_SUBSET_SEARCH  # the search gives up before size 10
    paid = paying_stops(train, [city, *towns])
    assert (len(paid), sum(v for _, v in paid)) == (10, 1)
    assert paid[0] == (city, 10)


@st.composite
def disjoint_rows_and_stops(draw: st.DrawFn) -> tuple[Train, list[Node]]:
    """A list train of cities and off-boards in one row and towns in the other (either listed first), and
    stops for a route, some paying less than nothing, one with the company's token."""
    rows = [DistanceRow(CITIES, draw(st.integers(1, 3)), 0), DistanceRow(("town",), draw(st.integers(0, 3)), 0)]
    rows = [DistanceRow(r.kinds, r.pay, r.pay + draw(st.integers(0, 1))) for r in rows]
    if draw(st.booleans()):
        rows.reverse()
    train = Train(id="t-0", name="t", unit="stops_by_type", rows=tuple(rows))
    n = draw(st.integers(1, 6))
    token = draw(st.integers(0, n - 1))
    nodes = [Node(id=f"n{i}", hex=f"A{i}", kind=draw(st.sampled_from(("city", "town", "offboard"))),
                  revenue=draw(st.integers(-40, 40)), tokened_by_company=i == token) for i in range(n)]
    return train, nodes


@settings(max_examples=500, deadline=None, derandomize=True)
@given(disjoint_rows_and_stops())
def test_paying_stops_earn_what_the_rule_says(case: tuple[Train, list[Node]]) -> None:
    train, nodes = case
    if not pour_fits(train.rows, nodes):
        return
    assert sum(v for _, v in paying_stops(train, nodes)) == max(0, train_value(train, nodes, []) or 0)


@st.composite
def nested_or_disjoint_rows_and_stops(draw: st.DrawFn) -> tuple[Train, list[Node]]:
    """A list train needing no token, of rows sharing no kind (each at its multiplier) or one holding the
    other's kinds at one multiplier (1837's 3+1), and stops of any pay."""
    small, large = ("town",), draw(st.sampled_from([CITIES, (*CITIES, "town")]))
    times = (1, 1) if "town" in large else (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    rows = [DistanceRow(small, draw(st.integers(0, 3)), 3, times[0]),
            DistanceRow(large, draw(st.integers(1, 4)), 4, times[1])]
    if draw(st.booleans()):
        rows.reverse()
    train = Train(id="t-0", name="t", unit="stops_by_type", rows=tuple(rows), requires_token=False)
    nodes = [Node(id=f"n{i}", hex=f"A{i}", kind=draw(st.sampled_from(("city", "town", "offboard"))),
                  revenue=draw(st.integers(-30, 30))) for i in range(draw(st.integers(1, 7)))]
    return train, nodes


@settings(max_examples=500, deadline=None, derandomize=True)
@given(nested_or_disjoint_rows_and_stops())
def test_the_stand_in_for_long_routes_earns_what_the_search_finds(case: tuple[Train, list[Node]]) -> None:
    """`_paying_greedy` (past MAX_SUBSET_SEARCH subsets) against the search, on routes short enough to search."""
    train, nodes = case
    rows = sorted(train.rows, key=lambda r: len(r.kinds))
    searched = _paying_by_search(train, nodes, rows)
    stand_in = _paying_greedy(train, nodes, rows)
    assert (len(stand_in), sum(v for _, v in stand_in)) == (len(searched), sum(v for _, v in searched))
