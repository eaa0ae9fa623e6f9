"""Per-route pricing and legality with the modifiers: the route bonuses (StopBonus, ComboBonus), the
route's subsidy, the paying-stop choice (CountedStops) and the route rules (RouteRule).

Counted stops are the stops that pay: every visited stop for a numeric distance, the paying
subset for a list distance, chosen with the revenue bonuses included (FORMAT.md "Lists and bonuses
together"), or by `CountedStops`. A route whose counted stops break a `RouteRule` is illegal; the
rules are returned as findings, never silently dropped. `zero` names the stops that pay nothing on
this route because an earlier route of the run counted them (`StopPaysOnce`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, combinations
from math import comb

from solver.model.board import Board, DistanceRow, Node, Train
from solver.model.limits import MAX_SUBSET_SEARCH
from solver.modifiers.model import (
    MINUS_STOP_REVENUE,
    STOP_REVENUE,
    SUM,
    BonusLine,
    ComboBonus,
    CountedStops,
    Modifier,
    RouteRule,
    StopBonus,
    admits,
)
from solver.rules.train_rules import (
    has_token_for,
    paying_disjoint,
    paying_stops,
    row_by_kind,
    searchable_stops,
    stop_revenue,
)

Entry = tuple[Node, int]  # a stop and what it pays this route
Counted = Sequence[Entry]  # counted stops in route order, with what each pays
Zero = Callable[[Node], bool]  # stops that pay nothing on this route (StopPaysOnce)

RULE_CODES = {"min_stops": "TOO_FEW_SELECTED_STOPS", "max_stops": "TOO_MANY_SELECTED_STOPS",
              "no_hex_revisit": "HEX_VISITED_TWICE", "forbidden_hexes": "FORBIDDEN_HEX"}
NO_PAYING_STOPS = "NO_PAYING_STOPS"


def _signed(v: object, pay: int) -> int:
    if v == STOP_REVENUE:
        return pay
    if v == MINUS_STOP_REVENUE:
        return -pay
    return int(v)  # type: ignore[call-overload]


def _stop_bonus(m: StopBonus, table: dict[str, object], counted: Counted, visited: Counted,
                path_hexes: Sequence[str]) -> int:
    """What one StopBonus adds to a route (FORMAT.md "StopBonus")."""
    if m.scope == "path_hexes":
        hits = [(h, int(table[h])) for h in path_hexes if h in table]  # type: ignore[call-overload]
        if not hits:
            return 0
        if m.count == "once":
            return hits[0][1]
        return sum(v for _, v in hits)  # path hexes are distinct: per_hex and per_stop alike
    entries = counted if m.scope == "counted" else visited
    if m.endpoint:
        if len(entries) < 2:
            return 0
        entries = (entries[0], entries[-1])
    key = (lambda n: n.id) if m.by_node else (lambda n: n.hex)
    hits = [e for e in entries if key(e[0]) in table]
    if not hits:
        return 0
    if m.count == "once":
        return _signed(table[key(hits[0][0])], hits[0][1])
    if m.count == "per_hex":
        first: dict[str, Entry] = {}
        for e in hits:
            first.setdefault(e[0].hex, e)
        return sum(_signed(table[key(e[0])], e[1]) for e in first.values())
    return sum(_signed(table[key(e[0])], e[1]) for e in hits)


def _combo_match(tables: list[dict[str, int]], entries: Counted) -> list[int] | None:
    """The value of each set's match (its first stop in route order), or None if a set has none."""
    matched = []
    for table in tables:
        hit = next((n.hex for n, _ in entries if n.hex in table), None)
        if hit is None:
            return None
        matched.append(table[hit])
    return matched


@dataclass(frozen=True)
class RouteBonuses:
    """The route-bonus modifiers one train earns (StopBonus and ComboBonus admitting it), with their
    tables built once. `lines` gives the revenue lines, `subsidy_lines` the subsidy lines."""

    modifiers: tuple[StopBonus | ComboBonus, ...]

    @cached_property
    def _tables(self) -> list[object]:
        return [dict(m.table) if isinstance(m, StopBonus) else [dict(s) for s in m.sets] for m in self.modifiers]

    @cached_property
    def hexes(self) -> frozenset[str]:
        """Every hex some bonus keyed by hex looks at."""
        out: set[str] = set()
        for m in self.modifiers:
            if isinstance(m, StopBonus):
                if not m.by_node:
                    out.update(h for h, _ in m.hexes)
            else:
                out.update(h for s in m.sets for h, _ in s)
        return frozenset(out)

    @cached_property
    def node_ids(self) -> frozenset[str]:
        """Every node some bonus keyed by node looks at."""
        return frozenset(k for m in self.modifiers if isinstance(m, StopBonus) for k, _ in m.nodes)

    @cached_property
    def uses_path(self) -> bool:
        """Whether some bonus reads the route's path hexes (then `touches` must be given them)."""
        return any(isinstance(m, StopBonus) and m.scope == "path_hexes" for m in self.modifiers)

    @cached_property
    def plain(self) -> bool:
        """Only v1 features: counted scope, hex keys, revenue target, no exclusive combos."""
        return all(m.scope == "counted" and (isinstance(m, ComboBonus) or (not m.by_node and m.target == "revenue"))
                   and not (isinstance(m, ComboBonus) and m.exclusive) for m in self.modifiers)

    @cached_property
    def reads_ends(self) -> bool:
        """Whether some revenue bonus hits only the first and last stop in scope (`endpoint`): then which stop
        is first or last counts, listed or not."""
        return any(isinstance(m, StopBonus) and m.endpoint and m.target == "revenue" for m in self.modifiers)

    @cached_property
    def has_revenue(self) -> bool:
        return any(not (isinstance(m, StopBonus) and m.target == "subsidy") for m in self.modifiers)

    @cached_property
    def has_subsidy(self) -> bool:
        return any(isinstance(m, StopBonus) and m.target == "subsidy" for m in self.modifiers)

    def per_stop(self, nodes: Sequence[Node]) -> Callable[[Node, int], int] | None:
        """What each stop adds to this route's revenue bonuses, when that depends on the stop alone
        (every revenue bonus a counted-stop StopBonus that pays each hit, or that this route can hit
        once at most, or a combination whose sets the route's stops do not all reach, which pays
        nothing whichever stops count); None otherwise. Then a list train's best paying stops are
        ranked by it."""
        tables = []
        for m, table in zip(self.modifiers, self._tables):
            if isinstance(m, ComboBonus):
                if all(any(n.hex in t for n in nodes) for t in table):  # type: ignore[union-attr]
                    return None
                continue
            if m.target != "revenue":
                continue
            if m.scope != "counted" or m.endpoint:
                return None
            key = (lambda n: n.id) if m.by_node else (lambda n: n.hex)
            if m.count != "per_stop" and sum(1 for n in nodes if key(n) in table) > 1:  # type: ignore[operator]
                return None
            tables.append((m.by_node, table))

        def bonus(node: Node, pay: int) -> int:
            out = 0
            for by_node, table in tables:
                v = table.get(node.id if by_node else node.hex)  # type: ignore[attr-defined]
                if v is not None:
                    out += _signed(v, pay)
            return out
        return bonus

    def reads(self, node: Node) -> bool:
        """Whether some bonus looks at this stop (by its hex or its id)."""
        return node.hex in self.hexes or node.id in self.node_ids

    def touches(self, nodes: Sequence[Node], path_hexes: Sequence[str] = ()) -> bool:
        """Whether some bonus can hit this route at all."""
        if any(map(self.reads, nodes)):
            return True
        return self.uses_path and any(h in self.hexes for h in path_hexes)

    def _lines(self, counted: Counted, visited: Counted | None, path_hexes: Sequence[str],
               target: str) -> list[BonusLine]:
        out = []
        matched_keys: set[str] = set()
        visited = counted if visited is None else visited
        for m, table in zip(self.modifiers, self._tables):
            if isinstance(m, StopBonus):
                if m.target != target:
                    continue
                amount = _stop_bonus(m, table, counted, visited, path_hexes)  # type: ignore[arg-type]
            else:
                if target != "revenue" or (m.exclusive and m.exclusive in matched_keys):
                    continue
                values = _combo_match(table, counted if m.scope == "counted" else visited)  # type: ignore[arg-type]
                if values is None:
                    continue
                if m.exclusive:
                    matched_keys.add(m.exclusive)
                amount = sum(values) if m.amount == SUM else int(m.amount)
            if amount:
                out.append(BonusLine(m.label, amount, m.source))
        return out

    def lines(self, counted: Counted, visited: Counted | None = None, path_hexes: Sequence[str] = ()
              ) -> list[BonusLine]:
        """One revenue line per modifier that adds something (`visited`: every stop with what it pays,
        default the counted stops; `path_hexes`: the route's path hexes)."""
        return self._lines(counted, visited, path_hexes, "revenue")

    def subsidy_lines(self, counted: Counted, visited: Counted | None = None, path_hexes: Sequence[str] = ()
                      ) -> list[BonusLine]:
        """One subsidy line per StopBonus with target "subsidy" that pays something."""
        return self._lines(counted, visited, path_hexes, "subsidy")

    def total(self, counted: Counted, visited: Counted | None = None, path_hexes: Sequence[str] = ()) -> int:
        return sum(line.amount for line in self.lines(counted, visited, path_hexes))

    def cap(self, stops: Sequence[tuple[Node, int, int]], path_hexes: Sequence[str] = (), subsidy: bool = False) -> int:
        """At least what the bonuses (revenue, and with `subsidy` the subsidy too) add to a route over any of
        these stops, each given with the most and the least it may pay (a stop not counted pays 0), and
        these path hexes: only the bonuses its stops or path hexes can hit count, a combination only when
        the stops reach every set."""
        hexes = {n.hex for n, _most, _least in stops}
        out = 0
        for m, table in zip(self.modifiers, self._tables):
            if isinstance(m, StopBonus):
                if m.target == "subsidy" and not subsidy:
                    continue
                if m.scope == "path_hexes":
                    hits = [(h, most_added(table[h], 0, 0)) for h in set(path_hexes) if h in table]  # type: ignore[index, operator]
                else:
                    hits = [(n.hex, most_added(v, most, least)) for n, most, least in stops
                            if (v := table.get(n.id if m.by_node else n.hex)) is not None]  # type: ignore[attr-defined]
                if not hits:
                    continue
                if m.count == "once":
                    out += max(v for _, v in hits)
                elif m.count == "per_hex":
                    best: dict[str, int] = {}
                    for h, v in hits:
                        best[h] = max(best.get(h, 0), v)
                    out += sum(best.values())
                else:
                    out += sum(v for _, v in hits)
            else:
                matched = [[v for h, v in t if h in hexes] for t in m.sets]
                if all(matched):
                    out += combo_most(m, matched)
        return out


def most_added(value: object, most: int, least: int) -> int:
    """At most what a bonus of this value adds at a stop that pays at most `most` and at least `least`
    (never below 0; minus the stop's revenue adds most where the stop pays least)."""
    return max(0, most if value == STOP_REVENUE else -least if value == MINUS_STOP_REVENUE  # type: ignore[call-overload]
               else int(value))


def combo_most(m: ComboBonus, matched: Sequence[Sequence[int]] | None = None) -> int:
    """At most what a combination pays (`matched`: per set, the values the route can take; default all)."""
    sets = matched if matched is not None else [[v for _, v in t] for t in m.sets]
    return max(0, sum(max(vs) for vs in sets)) if m.amount == SUM else max(0, int(m.amount))


@dataclass(frozen=True)
class TrainMods:
    """The per-route modifiers that apply to one train name."""

    bonuses: RouteBonuses | None
    counted_stops: CountedStops | None
    rules: tuple[RouteRule, ...]

    @cached_property
    def candidate_rules(self) -> tuple[RouteRule, ...]:
        return tuple(r for r in self.rules if r.scope == "candidates")

    @cached_property
    def uses_path(self) -> bool:
        """Whether a bonus or a rule reads the route's path hexes."""
        return (self.bonuses is not None and self.bonuses.uses_path) or any(r.scope == "path_hexes" for r in self.rules)

    @property
    def plain(self) -> bool:
        """Only what vocabulary v1 had: plain route bonuses, no paying-stop method, no route rules."""
        return self.counted_stops is None and not self.rules and (self.bonuses is None or self.bonuses.plain)


NO_MODS = TrainMods(None, None, ())


class RouteMods:
    """The per-route modifiers of a board, split per train name once."""

    def __init__(self, modifiers: Sequence[Modifier]) -> None:
        self.modifiers = tuple(m for m in modifiers if isinstance(m, (StopBonus, ComboBonus, CountedStops, RouteRule)))
        self._by_name: dict[str, TrainMods] = {}
        self._by_set: dict[tuple[int, ...], TrainMods] = {}

    def for_train(self, name: str) -> TrainMods:
        """The modifiers admitting this train name (names admitted by the same ones share one object)."""
        found = self._by_name.get(name)
        if found is None:
            mine = [m for m in self.modifiers if admits(m.trains, name)]
            key = tuple(i for i, m in enumerate(self.modifiers) if admits(m.trains, name))
            found = self._by_set.get(key)
            if found is None:
                bonuses = tuple(m for m in mine if isinstance(m, (StopBonus, ComboBonus)))
                found = self._by_set[key] = TrainMods(
                    bonuses=RouteBonuses(bonuses) if bonuses else None,
                    counted_stops=next((m for m in mine if isinstance(m, CountedStops)), None),
                    rules=tuple(m for m in mine if isinstance(m, RouteRule)))
            self._by_name[name] = found
        return found

    def walked(self) -> RouteMods:
        """These modifiers less the route rules that `walk_limits` hands to the route walk (every
        walked route meets them, so pricing need not ask)."""
        one_per_hex, forbidden = self.walk_limits()
        out = RouteMods(())
        out.modifiers = tuple(m for m in self.modifiers if not (
            isinstance(m, RouteRule) and m.trains is None and m.scope == "visited"
            and ((m.rule == "no_hex_revisit" and m.hexes is None and one_per_hex)
                 or (m.rule == "forbidden_hexes" and set(m.hexes or ()) <= forbidden))))
        return out

    def walk_limits(self) -> tuple[bool, frozenset[str]]:
        """What every route of every train must meet, so that the route walk may enforce it: one stop
        per hex (a `no_hex_revisit` on every hex), and hexes no route may stop in (`forbidden_hexes`
        on visited stops)."""
        every = [m for m in self.modifiers if isinstance(m, RouteRule) and m.trains is None and m.scope == "visited"]
        one_per_hex = any(m.rule == "no_hex_revisit" and m.hexes is None for m in every)
        forbidden = frozenset(h for m in every if m.rule == "forbidden_hexes" for h in m.hexes or ())
        return one_per_hex, forbidden


def route_mods(modifiers: Sequence[Modifier]) -> RouteMods | None:
    """The per-route modifiers among `modifiers`, or None when there are none."""
    mods = RouteMods(modifiers)
    return mods if mods.modifiers else None


def rule_breaks(rule: RouteRule, stops: Sequence[Node], path_hexes: Sequence[str] = ()) -> bool:
    """Whether these stops (already taken by the rule's scope) break the rule; `path_hexes` only for a
    forbidden_hexes rule of scope path_hexes."""
    if rule.rule in ("min_stops", "max_stops"):
        n = sum(1 for s in stops if rule.selects(s.kind, s.hex, s.id))
        return n < rule.count if rule.rule == "min_stops" else n > rule.count
    if rule.rule == "no_hex_revisit":
        seen: set[str] = set()
        for s in stops:
            if s.hex in seen and (rule.hexes is None or s.hex in rule.hexes):
                return True
            seen.add(s.hex)
        return False
    forbidden = set(rule.hexes or ())
    return any(s.hex in forbidden for s in stops) or any(h in forbidden for h in path_hexes)


def _scoped(rule: RouteRule, counted: Sequence[Node], visited: Sequence[Node]) -> Sequence[Node]:
    if rule.scope == "counted":
        return counted
    if rule.scope == "endpoints":
        return [visited[0], visited[-1]] if len(visited) >= 2 else list(visited)
    return visited  # visited, path_hexes (with the path hexes), candidates (numeric distance: the visited stops)


def rule_findings(rules: Sequence[RouteRule], counted: Sequence[Node], visited: Sequence[Node],
                  path_hexes: Sequence[str], candidates_broken: set[int] | None = None) -> list[tuple[str, str]]:
    """Every rule the route breaks, as (code, message). `candidates_broken`: the indexes (into
    `rules`) of the candidates-scoped rules broken inside a list train's paying-stop search."""
    out = []
    for i, rule in enumerate(rules):
        if rule.scope == "candidates" and candidates_broken is not None:
            broken = i in candidates_broken or rule_breaks(rule, counted)
        else:
            broken = rule_breaks(rule, _scoped(rule, counted, visited),
                                 path_hexes if rule.scope == "path_hexes" else ())
        if broken:
            out.append((RULE_CODES[rule.rule], f"{rule.error} ({rule.label})"))
    return out


@dataclass
class RouteValue:
    """A priced route: what each visited stop pays (route order), its bonus lines, its subsidy, the
    route rules it breaks (code, message), and which stops counted (node ids)."""

    stop_revenues: list[int]
    bonuses: list[BonusLine] = field(default_factory=list)
    subsidy: int = 0
    findings: list[tuple[str, str]] = field(default_factory=list)
    counted: list[str] = field(default_factory=list)

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


class _Search:
    """What a paying-stop search reads: the route, its bonuses, zeros and candidates-scoped rules."""

    def __init__(self, train: Train, nodes: Sequence[Node], mods: TrainMods, zero: Zero | None,
                 path_hexes: Sequence[str], award: int = 0) -> None:
        self.train, self.nodes, self.mods, self.zero, self.path_hexes = train, nodes, mods, zero, path_hexes
        self.broken: set[int] = set()  # candidates-scoped rules broken by an evaluated subset
        # a choice of paying stops pays when its value is above this: 0 less the route's awarded BestRouteBonus,
        # which FORMAT.md counts in the value ("+ an awarded BestRouteBonus")
        self.floor = -award

    @cached_property
    def own(self) -> list[int]:
        """Each stop's own revenue for the train, which a `stop_revenue` bonus on visited stops reads (counted
        or not)."""
        return [stop_revenue(n, self.train) for n in self.nodes]

    def zeroed(self, n: Node) -> bool:
        """Whether the stop pays nothing of its own on this route (StopPaysOnce: an earlier route counted it)."""
        return self.zero is not None and self.zero(n)

    def pay(self, n: Node, row: DistanceRow | None) -> int:
        """What the stop pays on this route in this row (nothing where it is `zeroed`)."""
        return 0 if self.zeroed(n) else stop_revenue(n, self.train, row)

    def stop_sum(self, counted: Sequence[Entry]) -> int:
        """What counted stops (with their own pay) pay on this route: the zeroed ones nothing."""
        return sum(v for n, v in counted) if self.zero is None else sum(v for n, v in counted if not self.zero(n))

    def paid(self, rows: Sequence[DistanceRow], combo: Sequence[int]) -> list[Entry] | None:
        """The stops of `combo` (indices) with their own pay in the row each fits (a zeroed stop's too: the
        bonuses read it, FORMAT.md StopPaysOnce), or None when they do not fit the rows or none holds the
        company's token (where the train needs one)."""
        stops = [self.nodes[i] for i in combo]
        if self.train.requires_token and not any(has_token_for(self.train, n) for n in stops):
            return None
        fit = _fit_rows(rows, stops)
        return None if fit is None else [(n, stop_revenue(n, self.train, rows[r])) for n, r in zip(stops, fit)]

    def ceiling(self, rows: Sequence[DistanceRow]) -> tuple[list[int], int] | None:
        """At most what each stop pays (in any row that takes it) and what the revenue bonuses add to any
        subset of the stops (`RouteBonuses.cap`); None when a candidates-scoped rule is to be checked on
        every subset the search evaluates."""
        if self.mods.candidate_rules:
            return None
        pays = [[stop_revenue(n, self.train, r) for r in rows if n.kind in r.kinds] or [0] for n in self.nodes]
        most = [0 if self.zeroed(n) else max(p) for n, p in zip(self.nodes, pays)]
        b = self.mods.bonuses
        bonus = b.cap([(n, max(*p, own), min(*p, own)) for n, p, own in zip(self.nodes, pays, self.own)],
                      self.path_hexes) if b is not None and b.has_revenue else 0
        return most, bonus

    def value(self, counted: list[Entry]) -> int:
        """Stop revenue plus the revenue bonuses of these counted stops (each with its own pay); checks the
        candidates rules."""
        for i, rule in enumerate(self.mods.rules):
            if rule.scope == "candidates" and rule_breaks(rule, [n for n, _ in counted]):
                self.broken.add(i)
        b = self.mods.bonuses
        if b is None or not b.has_revenue:
            return self.stop_sum(counted)
        pays = {id(n): v for n, v in counted}
        visited = [(n, pays.get(id(n), own)) for n, own in zip(self.nodes, self.own)]
        return self.stop_sum(counted) + b.total(counted, visited, self.path_hexes)


def _best_list_subset(s: _Search) -> tuple[dict[int, int], int] | None:
    """The paying subset of a list-distance train with bonuses, zeros and rules included: {stop
    index: pay}, value; None when more than MAX_SUBSET_SEARCH subsets would be examined."""
    train, nodes = s.train, s.nodes
    rows = sorted(train.rows, key=lambda r: len(r.kinds))
    keep = searchable_stops(train, nodes, rows)
    if keep is None:
        return {}, 0
    budget = MAX_SUBSET_SEARCH
    top = min(sum(r.pay for r in rows), len(keep))
    ceiling: tuple[list[int], int] | None | bool = False  # read when a size has two subsets or more
    for size in range(top, 0, -1):
        subsets = comb(len(keep), size)
        if 1 < subsets <= budget:
            if ceiling is False:
                ceiling = s.ceiling(rows)  # None: every subset is evaluated, in order
            if ceiling is not None:
                budget -= subsets
                found = _best_of_size(s, rows, keep, size, ceiling)  # type: ignore[arg-type]
                if found is not None:
                    return found
                continue
        best: dict[int, int] | None = None
        best_value = 0
        for combo in combinations(keep, size):
            budget -= 1
            if budget < 0:
                return None
            counted = s.paid(rows, combo)
            if counted is None:
                continue
            value = s.value(counted)
            if best is None or value > best_value:
                best, best_value = {i: v for i, (_, v) in zip(combo, counted)}, value
        if best is not None and best_value > s.floor:
            return best, best_value
    return {}, 0


def _best_of_size(s: _Search, rows: Sequence[DistanceRow], keep: list[int], size: int,
                  ceiling: tuple[list[int], int]) -> tuple[dict[int, int], int] | None:
    """`_best_list_subset`'s answer among the subsets of `size` (the first in `combinations` order of those
    worth the most), or None when none fits or pays: the subsets are tried by what they may earn at most
    (`_Search.ceiling`), best first, until the rest cannot reach the best value found."""
    most, bonus = ceiling
    combos = list(combinations(keep, size))
    bounds = [sum(most[i] for i in combo) + bonus for combo in combos]
    best: tuple[int, int, dict[int, int]] | None = None  # value, place in order, paying stops
    for j in sorted(range(len(combos)), key=lambda j: -bounds[j]):
        if best is not None and bounds[j] < best[0]:
            break
        combo = combos[j]
        counted = s.paid(rows, combo)
        if counted is None:
            continue
        value = s.value(counted)
        if best is None or value > best[0] or (value == best[0] and j < best[1]):
            best = (value, j, {i: v for i, (_, v) in zip(combo, counted)})
    return (best[2], best[0]) if best is not None and best[0] > s.floor else None


def _mandatory_first(s: _Search) -> tuple[dict[int, int], int] | None:
    """CountedStops "mandatory_first" (FORMAT.md): the first paying row's kinds pay first, the other
    stops fill its places left; None when no candidate pays (the route is illegal)."""
    train, nodes = s.train, s.nodes
    first = next((r for r in train.rows if r.pay > 0), None)
    if first is None:
        return None
    mandatory = [i for i, n in enumerate(nodes) if n.kind in first.kinds]
    optional = [i for i, n in enumerate(nodes) if n.kind not in first.kinds]
    exact = len(mandatory) == first.pay
    places = first.pay - len(mandatory)
    if exact:
        picks: list[tuple[int, ...]] = [()]
    elif places < 0:
        picks = []
    first_rows = row_by_kind(train)

    def row_of(n: Node) -> DistanceRow | None:
        return first_rows.get(n.kind)

    if not exact and places >= 0:
        if not s.mods.candidate_rules and len(optional) > places:
            optional = _worth_picking(s, optional, places, row_of)
        picks = list(combinations(optional, places)) if len(optional) >= places else [tuple(optional)]
        if not any(has_token_for(train, nodes[i]) for i in mandatory):
            tokened = {i for i in optional if has_token_for(train, nodes[i])}
            picks = [p for p in picks if not tokened.isdisjoint(p)]

    own_at = {i: stop_revenue(nodes[i], train, row_of(nodes[i])) for i in (*mandatory, *optional)}  # bonuses read
    pay_at = {i: 0 if s.zeroed(nodes[i]) else v for i, v in own_at.items()}  # what each pays on this route
    b = s.mods.bonuses
    # without candidates rules a pick is worth its pays plus what its bonus stops add (read once per set of them),
    # unless a bonus reads the ends of the counted stops, listed or not
    keyed = b is not None and not s.mods.candidate_rules and not b.reads_ends
    bonus_at = {i for i in pay_at if b.reads(nodes[i])} if b is not None and keyed else set()
    extra_of: dict[tuple[int, ...], int] = {}
    best: tuple[dict[int, int], int] | None = None
    for pick in picks:
        order = sorted(mandatory + list(pick))  # the counted stops in route order: the order bonus hits are read in
        if keyed:
            key = tuple(filter(bonus_at.__contains__, order))  # the bonus stops counted, in order
            extra = extra_of.get(key)
            if extra is None:
                some = [(nodes[i], own_at[i]) for i in key]
                extra = extra_of[key] = s.value(some) - s.stop_sum(some)
            value = sum(map(pay_at.__getitem__, order)) + extra
        else:
            value = s.value([(nodes[i], own_at[i]) for i in order])
        if best is None or value > best[1]:
            best = ({i: own_at[i] for i in order}, value)
    if best is None or (not exact and best[1] <= s.floor):
        return None
    return best


def _worth_picking(s: _Search, optional: list[int], places: int,
                   row_of: Callable[[Node], DistanceRow | None]) -> list[int]:
    """The optional stops a best pick can hold: every stop a bonus may care about and, of the others
    (which add only their pay), the `places` best-paying of those with the company's token and the
    `places` best-paying of the rest, the earlier first on ties. Any other stop is beaten by a kept one
    of its sort (a token for a token, so the token rule holds) at no loss, and never first in
    combination order on a tie."""
    b = s.mods.bonuses
    if b is not None and (b.uses_path or b.reads_ends):  # where the stops stand may decide the ends in scope
        return optional
    bonus = {i for i in optional if b is not None and b.reads(s.nodes[i])}
    tokened = [i for i in optional if i not in bonus and has_token_for(s.train, s.nodes[i])]
    plain = [i for i in optional if i not in bonus and not has_token_for(s.train, s.nodes[i])]

    def best(some: list[int]) -> list[int]:
        return sorted(some, key=lambda i: (-s.pay(s.nodes[i], row_of(s.nodes[i])), i))[:places]

    keep = bonus | set(best(tokened)) | set(best(plain))
    return [i for i in optional if i in keep]


def path_hexes_of(legs: Sequence, stops: Sequence[Node] = ()) -> tuple[str, ...]:
    """The route's path hexes: the distinct hexes of its legs' paths in route order (a route with no
    legs: its stops' hexes)."""
    if not legs:
        return tuple(dict.fromkeys(n.hex for n in stops))
    return tuple(dict.fromkeys(chain.from_iterable(leg.hexes for leg in legs)))


def path_hexes_both(legs: Sequence, stops: Sequence[Node]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`path_hexes_of` the route, and of the route walked the other way: the same hexes passed backwards,
    whose first passes differ from the first order reversed where the route passes a hex twice (from one
    city of a hex to the other)."""
    if not legs:
        return path_hexes_of(legs, stops), path_hexes_of(legs, stops[::-1])
    passed = list(chain.from_iterable(leg.hexes for leg in legs))
    return tuple(dict.fromkeys(passed)), tuple(dict.fromkeys(reversed(passed)))


def route_value(board: Board, train: Train, node_ids: Sequence[str], mods: RouteMods | None = None,
                path_hexes: Sequence[str] = (), zero: Zero | None = None, award: int = 0) -> RouteValue:
    """Price one route and check its route rules: per-stop revenues, bonus lines, subsidy, findings
    (`mods`: default the board's; `path_hexes`: the hexes its legs pass, for path-hex bonuses and
    rules; `zero`: stops that pay nothing here because an earlier route counted them; `award`: the
    BestRouteBonus awarded to the route, which a list train's choice of paying stops counts).
    The award's own line is the run's (`settle`), not in the value returned."""
    if mods is None:
        mods = route_mods(getattr(board, "modifiers", ()))
    nodes = [board.nodes[n] for n in node_ids]
    tm = mods.for_train(train.name) if mods is not None else NO_MODS
    bonuses = tm.bonuses
    listed_award = award > 0 and train.unit == "stops_by_type"
    if tm.plain and zero is None and not listed_award:  # vocabulary v1: the fast paths
        return _plain_value(train, nodes, bonuses)
    counted_at: dict[int, int] | None = None
    search = _Search(train, nodes, tm, zero, path_hexes, award if listed_award else 0)
    if train.unit == "stops_by_type":
        if tm.counted_stops is not None:
            found = _mandatory_first(search)
            if found is None:
                return RouteValue([0] * len(nodes), findings=[(NO_PAYING_STOPS, f"no choice of paying stops earns "
                                                                f"anything ({tm.counted_stops.label})")])
            counted_at = found[0]
        elif (bonuses is not None and bonuses.touches(nodes, path_hexes)) or tm.candidate_rules or zero is not None \
                or listed_award:
            quick = _separable(train, nodes, bonuses) \
                if bonuses is not None and not tm.candidate_rules and zero is None and not listed_award else None
            found = (quick, 0) if quick is not None else _best_list_subset(search)
            counted_at = found[0] if found is not None else None
    if counted_at is None:
        by_id = {id(n): v for n, v in paying_stops(train, nodes)}
        counted_at = {i: by_id[id(n)] for i, n in enumerate(nodes) if id(n) in by_id}
    # each counted stop with its own pay, which the bonuses read; a zeroed stop pays nothing itself (FORMAT.md
    # StopPaysOnce: "modifier bonuses are unaffected")
    stops = [0 if zero is not None and zero(n) else counted_at.get(i, 0) for i, n in enumerate(nodes)]
    counted = [(nodes[i], counted_at[i]) for i in sorted(counted_at)]  # route order, whichever rule chose them
    # a stop not counted still has its own revenue for this train, which a `stop_revenue` bonus on visited stops reads
    visited = [(n, counted_at[i] if i in counted_at else search.own[i]) for i, n in enumerate(nodes)]
    lines = bonuses.lines(counted, visited, path_hexes) if bonuses is not None else []
    subsidy = sum(b.amount for b in bonuses.subsidy_lines(counted, visited, path_hexes)) \
        if bonuses is not None and bonuses.has_subsidy else 0
    findings = rule_findings(tm.rules, [n for n, _ in counted], nodes, path_hexes,
                             search.broken if train.unit == "stops_by_type" else None)  # numeric: visited stops
    return RouteValue(stops, lines, subsidy, findings, [n.id for n, _ in counted])


def _separable(train: Train, nodes: Sequence[Node], bonuses: RouteBonuses) -> dict[int, int] | None:
    """The paying stops {index: pay} of a list train whose bonuses depend on each stop alone and whose
    rows share no kind (the best stops of each row by pay plus bonus); None where that does not hold
    or where no stop set of the largest size pays (then the search decides)."""
    bonus = bonuses.per_stop(nodes)
    if bonus is None or len({n.id for n in nodes}) != len(nodes):
        return None
    # a combination the route cannot complete left out: the best stops of each row are the search's choice
    # (`_best_list_subset`) when the search would not give up on the route's length (MAX_SUBSET_SEARCH) and
    # no stop has to be swapped in for the company's token (the two break a tie there apart)
    combination = any(isinstance(m, ComboBonus) for m in bonuses.modifiers)
    if combination and 2 ** len(nodes) > MAX_SUBSET_SEARCH:
        return None
    paid = paying_disjoint(train, nodes, bonus, swap=not combination)
    if not paid:
        return None
    at = {id(n): i for i, n in enumerate(nodes)}
    return {at[id(n)]: v for n, v in paid}


def _plain_value(train: Train, nodes: Sequence[Node], bonuses: RouteBonuses | None) -> RouteValue:
    """Vocabulary v1 pricing: every stop or the generic paying subset, then the route bonuses."""
    if bonuses is not None and train.unit == "stops_by_type" and bonuses.touches(nodes):
        quick = _separable(train, nodes, bonuses)
        if quick is not None:
            counted = [(nodes[i], quick[i]) for i in sorted(quick)]
            return RouteValue([quick.get(i, 0) for i in range(len(nodes))], bonuses.lines(counted),
                              counted=[n.id for n, _ in counted])
        found = _best_list_subset(_Search(train, nodes, TrainMods(bonuses, None, ()), None, ()))
        if found is not None:
            paid = found[0]
            counted = [(nodes[i], paid[i]) for i in sorted(paid)]
            return RouteValue([paid.get(i, 0) for i in range(len(nodes))], bonuses.lines(counted),
                              counted=[n.id for n, _ in counted])
    by_id = {id(n): v for n, v in paying_stops(train, nodes)}
    stops = [by_id.get(id(n), 0) for n in nodes]
    counted = [(n, by_id[id(n)]) for n in nodes if id(n) in by_id]
    if bonuses is None or not bonuses.touches(nodes):
        return RouteValue(stops, counted=[n.id for n, _ in counted])
    return RouteValue(stops, bonuses.lines(counted), counted=[n.id for n, _ in counted])
