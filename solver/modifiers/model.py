"""The modifier types (corpus FORMAT.md "Modifiers", vocabulary v2) as frozen data.

Every type carries `trains`: the train names it applies to (None: every train). A route whose
train is not admitted ignores the modifier.
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.model.results import BonusLine  # noqa: F401 (the line a bonus adds; re-exported here)

STOP_REVENUE = "stop_revenue"  # a StopBonus value: the stop pays twice
MINUS_STOP_REVENUE = "-stop_revenue"  # a StopBonus value: the stop pays nothing to the route
SUM = "sum"  # a ComboBonus amount: the sum of the matched hexes' values
STOP_COUNTS = ("once", "per_hex", "per_stop")
STOP_SCOPES = ("counted", "visited", "path_hexes")
COMBO_SCOPES = ("counted", "visited")
TARGETS = ("revenue", "subsidy")
AWARDS = ("most_visited_stops", "last", "first_max")
ROUTE_RULES = ("min_stops", "max_stops", "no_hex_revisit", "forbidden_hexes")
RULE_SCOPES = ("counted", "visited", "endpoints", "path_hexes", "candidates")
COUNT_METHODS = ("mandatory_first",)
SET_RULES = ("max_routes_visiting",)
OVERLAP_SCOPES = ("run", "route", "pools")

BonusValue = int | str  # an amount, STOP_REVENUE or MINUS_STOP_REVENUE


def admits(trains: tuple[str, ...] | None, name: str) -> bool:
    """Whether a modifier with this `trains` field applies to a train of this name."""
    return trains is None or name in trains


@dataclass(frozen=True)
class StopBonus:
    """A bonus for stops in listed hexes (or, with `nodes`, listed nodes): hex/node id -> value."""

    source: str
    label: str
    hexes: tuple[tuple[str, BonusValue], ...] = ()
    count: str = "once"
    endpoint: bool = False
    nodes: tuple[tuple[str, BonusValue], ...] = ()  # v2: keyed by node id instead of hex id
    scope: str = "counted"  # v2: counted, visited or path_hexes
    target: str = "revenue"  # v2: revenue or subsidy
    trains: tuple[str, ...] | None = None

    @property
    def by_node(self) -> bool:
        return bool(self.nodes)

    @property
    def table(self) -> tuple[tuple[str, BonusValue], ...]:
        """The key -> value pairs: node ids with `nodes`, else hex ids."""
        return self.nodes or self.hexes

    def value(self, hex_id: str) -> BonusValue | None:
        return dict(self.hexes).get(hex_id)


@dataclass(frozen=True)
class ComboBonus:
    """A bonus when the stops in scope reach one hex of every set (`amount`: an integer or SUM)."""

    source: str
    label: str
    sets: tuple[tuple[tuple[str, int], ...], ...]
    amount: int | str = SUM
    scope: str = "counted"  # v2: counted or visited
    exclusive: str = ""  # v2: of the combos with this key, only the first that matches applies
    trains: tuple[str, ...] | None = None


@dataclass(frozen=True)
class CountedStops:
    """v2: replaces the choice of the paying stops of a list-distance train (`mandatory_first`)."""

    source: str
    label: str
    method: str = "mandatory_first"
    trains: tuple[str, ...] | None = None


@dataclass(frozen=True)
class RouteRule:
    """v2: a legality condition on one route (see ROUTE_RULES and RULE_SCOPES)."""

    source: str
    label: str
    rule: str
    scope: str
    error: str
    count: int = 0
    kinds: tuple[str, ...] | None = None  # None: any kind
    hexes: tuple[str, ...] | None = None  # None: any hex; (): none
    exclude_nodes: tuple[str, ...] = ()
    trains: tuple[str, ...] | None = None

    def selects(self, kind: str, hex_id: str, node_id: str) -> bool:
        """Whether a stop is *selected* (min_stops / max_stops)."""
        return ((self.kinds is None or kind in self.kinds) and (self.hexes is None or hex_id in self.hexes)
                and node_id not in self.exclude_nodes)


@dataclass(frozen=True)
class BestRouteBonus:
    """One bonus per run, to one qualifying route: `per_visited_stop` x visited stops,
    `per_distinct` x distinct hex values, or `amount`."""

    source: str
    label: str
    award: str
    per_visited_stop: int = 0
    amount: int = 0
    requires_hexes: tuple[str, ...] = ()
    stop_kinds: tuple[str, ...] | None = None  # v2: only these kinds count as visited stops
    per_distinct: int = 0  # v2
    distinct_hex_values: tuple[tuple[str, str], ...] = ()  # v2: hex id -> value
    trains: tuple[str, ...] | None = None


@dataclass(frozen=True)
class RequiredRoute:
    """A non-empty run needs a route whose first and last visited stops lie in `endpoint_hexes`."""

    source: str
    label: str
    endpoint_hexes: tuple[str, ...]
    error: str
    trains: tuple[str, ...] | None = None


@dataclass(frozen=True)
class DropLowestRoute:
    """With at least `min_routes` routes, the lowest route revenue is taken off the total."""

    source: str
    label: str
    min_routes: int


@dataclass(frozen=True)
class RouteSetRule:
    """v2: at most `count` routes of the run have a visited stop in one of `hexes`."""

    source: str
    label: str
    rule: str
    hexes: tuple[str, ...]
    count: int
    error: str
    trains: tuple[str, ...] | None = None


@dataclass(frozen=True)
class OverlapRule:
    """v2: where track must be exclusive: over the run, within each route, or per pool of trains."""

    source: str
    label: str
    scope: str
    pools: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class StopPaysOnce:
    """v2: a counted stop pays only on the first route (run order) that counts it (or, with
    `groups`, a node sharing a revenue group with it)."""

    source: str
    label: str
    groups: bool = False


Modifier = (StopBonus | ComboBonus | CountedStops | RouteRule | BestRouteBonus | RequiredRoute | DropLowestRoute
            | RouteSetRule | OverlapRule | StopPaysOnce)
ROUTE_BONUSES = (StopBonus, ComboBonus)
