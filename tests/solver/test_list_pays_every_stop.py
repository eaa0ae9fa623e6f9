"""Which list-distance trains pay every stop they visit (`list_pays_every_stop`): the candidate builder
prices their routes from one stop table instead of searching the paying stops, so a train wrongly
taken for one would be overpaid."""

from __future__ import annotations

from solver.model.board import DistanceRow, Node, Train
from solver.rules.train_rules import list_pays_every_stop, paying_stops

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


def test_kinds_in_two_rows_free_visits_and_other_units_do_not() -> None:
    assert not list_pays_every_stop(_train(DistanceRow(CITIES, 2, 2), DistanceRow(("city", "town"), 2, 2)), NODES)
    free_town = [*NODES, Node(id="h", hex="A5", kind="town", revenue=10, visit_cost=0)]  # visits cost nothing
    assert not list_pays_every_stop(_train(DistanceRow(CITIES, 4, 4), DistanceRow(("town",), 9, 9)), free_town)
    assert not list_pays_every_stop(Train(id="t-0", name="t", distance=4), NODES)


def test_such_a_train_is_paid_every_stop_by_the_generic_rule() -> None:
    """What the predicate promises, asked of the engine's rule: on a route it may run, every stop pays."""
    train = Train(id="t-0", name="t", unit="stops_by_type", requires_token=False,
                  rows=(DistanceRow(CITIES, 2, 2, 2), DistanceRow(("town",), 9, 9)))
    assert list_pays_every_stop(train, NODES)
    assert {n.id: v for n, v in paying_stops(train, NODES[:3])} == {"c": 60, "t": 10, "o": 80}  # each in its row
