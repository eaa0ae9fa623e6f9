"""The five modifier types as frozen data, and the revenue line a bonus adds to a route."""

from __future__ import annotations

from dataclasses import dataclass

from solver.results import BonusLine  # noqa: F401 (the line a bonus adds; re-exported here)

STOP_REVENUE = "stop_revenue"  # a StopBonus value: the stop pays twice
SUM = "sum"  # a ComboBonus amount: the sum of the matched hexes' values
STOP_COUNTS = ("once", "per_hex", "per_stop")
AWARDS = ("most_visited_stops", "last")

BonusValue = int | str  # an amount, or STOP_REVENUE


@dataclass(frozen=True)
class StopBonus:
    """A bonus for counted stops in listed hexes (`hexes`: hex id -> amount or STOP_REVENUE)."""

    source: str
    label: str
    hexes: tuple[tuple[str, BonusValue], ...]
    count: str = "once"
    endpoint: bool = False

    def value(self, hex_id: str) -> BonusValue | None:
        return dict(self.hexes).get(hex_id)


@dataclass(frozen=True)
class ComboBonus:
    """A bonus when the counted stops reach one hex of every set (`amount`: an integer or SUM)."""

    source: str
    label: str
    sets: tuple[tuple[tuple[str, int], ...], ...]
    amount: int | str = SUM


@dataclass(frozen=True)
class BestRouteBonus:
    """One bonus per run, to one qualifying route: `per_visited_stop` x visited stops, or `amount`."""

    source: str
    label: str
    award: str
    per_visited_stop: int = 0
    amount: int = 0
    requires_hexes: tuple[str, ...] = ()


@dataclass(frozen=True)
class RequiredRoute:
    """A non-empty run needs a route whose first and last visited stops lie in `endpoint_hexes`."""

    source: str
    label: str
    endpoint_hexes: tuple[str, ...]
    error: str


@dataclass(frozen=True)
class DropLowestRoute:
    """With at least `min_routes` routes, the lowest route revenue is taken off the total."""

    source: str
    label: str
    min_routes: int


Modifier = StopBonus | ComboBonus | BestRouteBonus | RequiredRoute | DropLowestRoute
ROUTE_BONUSES = (StopBonus, ComboBonus)
