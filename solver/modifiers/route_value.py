"""Per-route pricing with the modifiers' route bonuses (StopBonus, ComboBonus).

Counted stops are the stops that pay: every visited stop for a numeric distance, the paying
subset for a list distance, chosen with the bonuses included (FORMAT.md "Lists and bonuses
together"). Bonuses are never negative (the parser refuses negative amounts), so a bonus never
changes which subset size is chosen, only which subset of that size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

from solver.board import Board, DistanceRow, Node, Train
from solver.limits import MAX_SUBSET_SEARCH
from solver.modifiers.model import STOP_REVENUE, SUM, BonusLine, ComboBonus, Modifier, StopBonus
from solver.train_rules import has_token_for, paying_stops, searchable_stops, stop_revenue

Counted = Sequence[tuple[Node, int]]  # counted stops in route order, with what each pays


def _stop_bonus(m: StopBonus, table: dict[str, object], counted: Counted) -> int:
    if m.endpoint:
        if len(counted) < 2:
            return 0
        hits = [e for e in (counted[0], counted[-1]) if e[0].hex in table]
    else:
        hits = [e for e in counted if e[0].hex in table]
    if not hits:
        return 0

    def value(entry: tuple[Node, int]) -> int:
        v = table[entry[0].hex]
        return entry[1] if v == STOP_REVENUE else int(v)  # type: ignore[call-overload]

    if m.count == "once":
        return value(hits[0])
    if m.count == "per_hex":
        first: dict[str, tuple[Node, int]] = {}
        for e in hits:
            first.setdefault(e[0].hex, e)
        return sum(value(e) for e in first.values())
    return sum(value(e) for e in hits)


def _combo_bonus(m: ComboBonus, tables: list[dict[str, int]], counted: Counted) -> int:
    matched = 0
    for table in tables:
        hit = next((n.hex for n, _ in counted if n.hex in table), None)
        if hit is None:
            return 0
        matched += table[hit]
    return matched if m.amount == SUM else int(m.amount)


@dataclass(frozen=True)
class RouteBonuses:
    """The route-bonus modifiers of a board, with their hex tables built once."""

    modifiers: tuple[StopBonus | ComboBonus, ...]

    @cached_property
    def _tables(self) -> list[object]:
        return [dict(m.hexes) if isinstance(m, StopBonus) else [dict(s) for s in m.sets] for m in self.modifiers]

    @cached_property
    def hexes(self) -> frozenset[str]:
        """Every hex some route bonus looks at: a route with no stop there earns no bonus."""
        out: set[str] = set()
        for m in self.modifiers:
            if isinstance(m, StopBonus):
                out.update(h for h, _ in m.hexes)
            else:
                out.update(h for s in m.sets for h, _ in s)
        return frozenset(out)

    def touches(self, nodes: Sequence[Node]) -> bool:
        return any(n.hex in self.hexes for n in nodes)

    def lines(self, counted: Counted) -> list[BonusLine]:
        """One line per modifier that pays something on these counted stops."""
        out = []
        for m, table in zip(self.modifiers, self._tables):
            amount = (_stop_bonus(m, table, counted) if isinstance(m, StopBonus)  # type: ignore[arg-type]
                      else _combo_bonus(m, table, counted))  # type: ignore[arg-type]
            if amount:
                out.append(BonusLine(m.label, amount, m.source))
        return out

    def total(self, counted: Counted) -> int:
        return sum(line.amount for line in self.lines(counted))


def route_bonuses(modifiers: Sequence[Modifier]) -> RouteBonuses | None:
    """The route bonuses among `modifiers`, or None when there are none."""
    mods = tuple(m for m in modifiers if isinstance(m, (StopBonus, ComboBonus)))
    return RouteBonuses(mods) if mods else None


@dataclass
class RouteValue:
    """A priced route: what each visited stop pays (route order) and its bonus lines."""

    stop_revenues: list[int]
    bonuses: list[BonusLine] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.stop_revenues) + sum(b.amount for b in self.bonuses)


def _fit_rows(rows: Sequence[DistanceRow], combo: Sequence[Node]) -> list[int] | None:
    """Each node's row: the first row accepting its kind with `pay` room left; None if one does not fit."""
    used = [0] * len(rows)
    out = []
    for n in combo:
        for i, r in enumerate(rows):
            if n.kind in r.kinds and used[i] < r.pay:
                used[i] += 1
                out.append(i)
                break
        else:
            return None
    return out


def _best_list_subset(train: Train, nodes: Sequence[Node],
                      bonuses: RouteBonuses) -> tuple[dict[int, int], int] | None:
    """The paying subset of a list-distance train with bonuses included: {stop index: pay}, value;
    None when more than MAX_SUBSET_SEARCH subsets would be examined (a route no real train runs)."""
    rows = sorted(train.rows, key=lambda r: len(r.kinds))
    keep = searchable_stops(train, nodes, rows)
    if keep is None:
        return {}, 0
    budget = MAX_SUBSET_SEARCH
    top = min(sum(r.pay for r in rows), len(keep))
    for size in range(top, 0, -1):
        best: dict[int, int] | None = None
        best_value = -1
        for combo in combinations(keep, size):
            budget -= 1
            if budget < 0:
                return None
            stops = [nodes[i] for i in combo]
            if train.requires_token and not any(has_token_for(train, n) for n in stops):
                continue
            fit = _fit_rows(rows, stops)
            if fit is None:
                continue
            counted = [(n, stop_revenue(n, train, rows[r])) for n, r in zip(stops, fit)]
            value = sum(v for _, v in counted) + bonuses.total(counted)
            if value > best_value:
                best, best_value = {i: v for i, (_, v) in zip(combo, counted)}, value
        if best is not None and best_value > 0:
            return best, best_value
    return {}, 0


def route_value(board: Board, train: Train, node_ids: Sequence[str],
                bonuses: RouteBonuses | None = None) -> RouteValue:
    """Price one route: per-stop revenues and the route-bonus lines (`bonuses`: default the board's)."""
    if bonuses is None:
        bonuses = route_bonuses(getattr(board, "modifiers", ()))
    nodes = [board.nodes[n] for n in node_ids]
    found = (_best_list_subset(train, nodes, bonuses)
             if bonuses is not None and train.unit == "stops_by_type" and bonuses.touches(nodes) else None)
    if found is not None and bonuses is not None:
        paid = found[0]
        stops = [paid.get(i, 0) for i in range(len(nodes))]
        counted = [(nodes[i], paid[i]) for i in sorted(paid)]
        return RouteValue(stops, bonuses.lines(counted))
    by_id = {id(n): v for n, v in paying_stops(train, nodes)}
    stops = [by_id.get(id(n), 0) for n in nodes]
    if bonuses is None or not bonuses.touches(nodes):
        return RouteValue(stops)
    counted = [(n, by_id[id(n)]) for n in nodes if id(n) in by_id]
    return RouteValue(stops, bonuses.lines(counted))
