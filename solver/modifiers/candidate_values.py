"""Candidate values with the route bonuses, for the optimiser's candidate generator.

A bonus can depend on the route's direction (the first hit of a `once` bonus, a combo's first
match), and the candidate walk keeps one direction per route: `price` prices both and says
which direction pays more. A candidate's revenue list is its stop revenues (route order)
followed by one entry per bonus line, so its sum stays the route's value.

Pricing the reverse is skipped where no bonus can tell the directions apart (`order_free` for the
board, `_route_order_free` for one route) and the train pays the same stops either way; for trains on
which every stop pays it only re-reads the bonuses: the stops pay the same either way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from solver.board import Board, Node, Train
from solver.limits import MAX_SUBSET_SEARCH
from solver.modifiers.model import STOP_REVENUE, SUM, BestRouteBonus, ComboBonus, RequiredRoute, StopBonus
from solver.modifiers.route_value import RouteBonuses, RouteValue, route_bonuses, route_value

EVERY_STOP_PAYS = ("stops", "hexes", "none")  # units whose routes pay every visited stop (no subset chosen)


def _same_either_way(values: Sequence[object], stops_per_hex: Sequence[int]) -> bool:
    """Whether taking the first of several hits among these hexes pays the same from either end:
    one value for all of them (never the stop's own revenue), or at most one stop to hit at all."""
    return sum(stops_per_hex) <= 1 or (len(set(values)) == 1 and STOP_REVENUE not in values)


def order_free(m: StopBonus | ComboBonus, stops_in_hex: Counter[str]) -> bool:
    """Whether `m` pays the same on a route walked either way, when every stop of the route counts
    (`stops_in_hex`: the board's stops per hex). Conservative: False where unsure."""
    if isinstance(m, ComboBonus):
        if m.amount != SUM:
            return True  # only whether every set is hit
        return all(_same_either_way([v for _, v in s], [stops_in_hex[h] for h, _ in s]) for s in m.sets)
    if m.count == "per_stop":
        return True  # every hit (or both ends) pays
    if m.count == "per_hex":  # the first hit per hex: differs only for a stop's own revenue on a hex of several stops
        return all(v != STOP_REVENUE or stops_in_hex[h] <= 1 for h, v in m.hexes)
    return _same_either_way([v for _, v in m.hexes], [stops_in_hex[h] for h, _ in m.hexes])  # once


def _symmetric_list(train: Train, n_stops: int) -> bool:
    """Whether a list train's best paying subset is worth the same either way: no kind fits two rows
    (each stop has its one row, whatever the order), and the route is short enough that the subset
    search never runs out of its budget (2^stops subsets at most)."""
    if train.unit != "stops_by_type" or 2 ** n_stops > MAX_SUBSET_SEARCH:
        return False
    kinds = [k for r in train.rows for k in r.kinds]
    return len(kinds) == len(set(kinds))


class CandidatePricer:
    """Prices candidate routes of one board with its route bonuses."""

    def __init__(self, board: Board, bonuses: RouteBonuses | None) -> None:
        self.board = board
        self.bonuses = bonuses
        # a route that pays nothing may still take a best-route bonus or be the required run
        self.keep_zero = any(isinstance(m, (BestRouteBonus, RequiredRoute)) for m in board.modifiers)
        stops_in_hex = Counter(n.hex for n in board.nodes.values())  # junctions too: never fewer
        self.order_free = bonuses is None or all(order_free(m, stops_in_hex) for m in bonuses.modifiers)
        # the hex tables of the bonuses that may depend on the order, read per route by `_route_order_free`
        self.tables: list[dict[str, object]] = []
        for m in bonuses.modifiers if bonuses is not None else ():
            if not order_free(m, stops_in_hex):
                self.tables.extend([dict(m.hexes)] if isinstance(m, StopBonus) else [dict(t) for t in m.sets])

    def bonus_cap(self, top_stop: int, n_stops: int) -> int:
        """At most what the route bonuses add to one route of `n_stops` stops, where no stop pays
        more than `top_stop` (bonuses are never negative)."""
        cap = 0
        for m in self.bonuses.modifiers if self.bonuses is not None else ():
            if isinstance(m, StopBonus):
                values = [top_stop if v == STOP_REVENUE else int(v) for _, v in m.hexes]
                if m.count == "once":
                    cap += max(values, default=0)
                elif m.count == "per_hex":
                    cap += sum(sorted(values, reverse=True)[:n_stops])
                else:  # per_stop: each counted stop (both ends at most, for an endpoint bonus)
                    cap += max(values, default=0) * (2 if m.endpoint else n_stops)
            else:
                cap += sum(max(v for _, v in t) for t in m.sets) if m.amount == SUM else int(m.amount)
        return cap

    def _route_order_free(self, stops: Sequence[Node]) -> bool:
        """Whether no bonus table meets two stops of this route that pay differently (or their own
        revenue): then every subset of its stops earns the same bonuses walked either way."""
        for table in self.tables:
            values = [table[n.hex] for n in stops if n.hex in table]
            if len(values) >= 2 and (STOP_REVENUE in values or len(set(values)) > 1):
                return False
        return True

    def price(self, train: Train, nodes: Sequence[str], paid: list[int] | None = None,
              ) -> tuple[list[int], bool] | None:
        """The route's values (stops, then bonuses) in its better direction and whether that is
        the reverse; None when no bonus can apply (price it as usual). `paid`: what each stop pays
        this train, when the caller has it and every stop pays (saves pricing the stops again)."""
        stops = [self.board.nodes[n] for n in nodes]
        if self.bonuses is None or not self.bonuses.touches(stops):
            return None
        if paid is not None and train.unit in EVERY_STOP_PAYS:
            ahead = RouteValue(paid, self.bonuses.lines(list(zip(stops, paid))))
        else:
            ahead = route_value(self.board, train, nodes, self.bonuses)
        ahead_values = ahead.stop_revenues + [b.amount for b in ahead.bonuses]
        free = self.order_free or self._route_order_free(stops)
        if train.unit in EVERY_STOP_PAYS:
            if free:
                return ahead_values, False
            # every stop pays the same either way: only the bonuses are read again on the reversed stops
            back_stops = ahead.stop_revenues[::-1]
            back_lines = self.bonuses.lines(list(zip(stops[::-1], back_stops)))
            if sum(b.amount for b in back_lines) > sum(b.amount for b in ahead.bonuses):
                return back_stops + [b.amount for b in back_lines], True
            return ahead_values, False
        if free and _symmetric_list(train, len(stops)):
            return ahead_values, False
        back = route_value(self.board, train, nodes[::-1], self.bonuses)
        if back.total > ahead.total:
            return back.stop_revenues + [b.amount for b in back.bonuses], True
        return ahead_values, False


def candidate_pricer(board: Board) -> CandidatePricer | None:
    """The pricer of a board with modifiers, None without any."""
    if not board.modifiers:
        return None
    return CandidatePricer(board, route_bonuses(board.modifiers))
