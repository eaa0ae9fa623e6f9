"""Which list-distance trains pay every stop they visit (`list_pays_every_stop`): the candidate builder
prices their routes from one stop table instead of searching the paying stops, so a train wrongly
taken for one would be overpaid."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model.board import DistanceRow, Node, Train
from solver.rules.train_rules import list_pays_every_stop, paying_stops, pour_fits

CITIES = ("city", "offboard")


def _train(*rows: DistanceRow) -> Train:
    return Train(id="t-0", name="t", unit="stops_by_type", rows=rows)


NODES = [Node(id="c", hex="A1", kind="city", revenue=30), Node(id="t", hex="A2", kind="town", revenue=10),
         Node(id="o", hex="A3", kind="offboard", revenue=40), Node(id="j", hex="A4", kind="junction", visit_cost=0)]


def test_rows_that_pay_what_they_visit_pay_every_stop() -> None:
    """18FL's 4 (cities and towns), 1839's 3+ (towns free) and a 3E (towns counted at 0)."""
    assert list_pays_every_stop(_train(DistanceRow(CITIES, 4, 4), DistanceRow(("town",), 99, 99)), NODES)
    assert list_pays_every_stop(_train(DistanceRow(CITIES, 3, 3, 2), DistanceRow(("town",), 99, 99, 0)), NODES)


def test_a_row_paying_fewer_than_it_visits_does_not() -> None:
    """1867's towns (visited, never paid) and a 2/3 (three cities visited, two paid)."""
    assert not list_pays_every_stop(_train(DistanceRow(CITIES, 5, 5), DistanceRow(("town",), 0, 99)), NODES)
    assert not list_pays_every_stop(_train(DistanceRow(CITIES, 2, 3)), NODES)


def test_kinds_in_two_rows_that_do_not_nest_free_visits_and_other_units_do_not() -> None:
    assert not list_pays_every_stop(_train(DistanceRow(CITIES, 2, 2), DistanceRow(("city", "town"), 2, 2)), NODES)
    assert not list_pays_every_stop(_train(DistanceRow(("town",), 1, 1), DistanceRow(("town", *CITIES), 3, 3, 2)),
                                    NODES)  # nested, but a town pays twice as much in one row
    assert not list_pays_every_stop(_train(DistanceRow(("town",), 1, 1), DistanceRow(("town", "city"), 1, 1),
                                           DistanceRow(("town", *CITIES), 3, 3)), NODES)  # three rows
    assert not list_pays_every_stop(_train(DistanceRow(("town",), 1, 1), DistanceRow(("town", *CITIES), 2, 3)),
                                    NODES)  # the large row pays fewer stops than it visits
    free_town = [*NODES, Node(id="h", hex="A5", kind="town", revenue=10, visit_cost=0)]  # visits cost nothing
    assert not list_pays_every_stop(_train(DistanceRow(CITIES, 4, 4), DistanceRow(("town",), 9, 9)), free_town)
    assert not list_pays_every_stop(Train(id="t-0", name="t", distance=4), NODES)


def test_such_a_train_is_paid_every_stop_by_the_generic_rule() -> None:
    """What the predicate promises, asked of the engine's rule: on a route it may run, every stop pays."""
    train = Train(id="t-0", name="t", unit="stops_by_type", requires_token=False,
                  rows=(DistanceRow(CITIES, 2, 2, 2), DistanceRow(("town",), 9, 9)))
    assert list_pays_every_stop(train, NODES)
    assert {n.id: v for n, v in paying_stops(train, NODES[:3])} == {"c": 60, "t": 10, "o": 80}  # each in its row


def test_towns_in_two_nested_rows_pay_every_stop() -> None:
    """1837's 3+1 and 1847 AE's n+n: towns fit both rows, which pay alike."""
    assert list_pays_every_stop(_train(DistanceRow(("town",), 1, 1), DistanceRow(("town", "city", "offboard"), 3, 3)),
                                NODES)
    assert list_pays_every_stop(_train(DistanceRow(("city", "offboard", "town"), 4, 4), DistanceRow(("town",), 4, 4)),
                                NODES)
    # a 1+2: the second town overflows the town row into the other, which still pays it
    towns = [Node(id="t1", hex="B1", kind="town", revenue=10), Node(id="c", hex="B2", kind="city", revenue=30),
             Node(id="t2", hex="B3", kind="town", revenue=20)]
    train = Train(id="t-0", name="t", unit="stops_by_type", requires_token=False,
                  rows=(DistanceRow(("town",), 1, 1), DistanceRow(("town", *CITIES), 2, 2)))
    assert list_pays_every_stop(train, towns) and pour_fits(train.rows, towns)
    assert {n.id: v for n, v in paying_stops(train, towns)} == {"t1": 10, "c": 30, "t2": 20}


KINDS = ("city", "town", "offboard")


@st.composite
def nested_trains_and_routes(draw: st.DrawFn) -> tuple[Train, list[Node]]:
    """A list train of two nested rows (either listed first, at one multiplier) and stops for a route."""
    small = tuple(draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=2, unique=True)))
    large = tuple(dict.fromkeys(small + tuple(draw(st.lists(st.sampled_from(KINDS), min_size=1, max_size=3)))))
    if len(large) == len(small):
        large = tuple(dict.fromkeys(large + tuple(k for k in KINDS if k not in small)[:1]))
    mult = draw(st.sampled_from((1, 2)))
    rows = [DistanceRow(small, draw(st.integers(1, 2)), 0, mult), DistanceRow(large, draw(st.integers(1, 4)), 0, mult)]
    rows = [DistanceRow(r.kinds, r.pay + draw(st.integers(0, 1)), r.pay, r.multiplier) for r in rows]
    if draw(st.booleans()):
        rows.reverse()
    train = Train(id="t-0", name="t", unit="stops_by_type", requires_token=draw(st.booleans()), rows=tuple(rows))
    n = draw(st.integers(1, 7))
    token = draw(st.integers(0, n - 1))
    shared = st.sampled_from(small)  # most stops of the kinds both rows take, which may overflow the small row
    nodes = [Node(id=f"n{i}", hex=f"A{i}", kind=draw(st.one_of(shared, shared, st.sampled_from(KINDS))),
                  revenue=draw(st.integers(0, 50)), visit_cost=draw(st.integers(1, 2)), tokened_by_company=i == token)
             for i in range(n)]
    return train, nodes


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(nested_trains_and_routes())
def test_nested_rows_pay_every_stop_of_a_route_they_may_run(case: tuple[Train, list[Node]]) -> None:
    """What the predicate promises for nested rows, asked of the engine's rule (the paying-subset search): on
    every route that passes the length check and earns anything, every stop pays, in a row that takes it."""
    train, nodes = case
    assert list_pays_every_stop(train, nodes)
    if not pour_fits(train.rows, nodes) or not any(n.revenue for n in nodes):
        return
    paid = {n.id: v for n, v in paying_stops(train, nodes)}
    assert paid == {n.id: n.revenue * train.rows[0].multiplier for n in nodes}
