"""Candidate values with the per-route modifiers, for the optimiser's candidate generator.

A bonus can depend on the route's direction (the first hit of a `once` bonus, a combo's first
match), and the candidate walk keeps one direction per route: `price` prices both and says
which direction pays more. A candidate's revenue list is its stop revenues (route order)
followed by one entry per bonus line (and, when the objective counts it, one for the subsidy), so
its sum stays the route's value. A route that breaks a route rule (`RouteRule`, `CountedStops`)
in both directions is no candidate (`ILLEGAL`).

Pricing the reverse is skipped where no modifier can tell the directions apart (`order_free` per
bonus, `_route_order_free` for one route) and the train pays the same stops either way; for trains
on which every stop pays it only re-reads the bonuses: the stops pay the same either way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.model.board import Board, Node, Train
from solver.model.legs import Leg
from solver.model.limits import MAX_SUBSET_SEARCH
from solver.modifiers.model import (
    MINUS_STOP_REVENUE,
    STOP_REVENUE,
    SUM,
    BestRouteBonus,
    ComboBonus,
    DropLowestRoute,
    RequiredRoute,
    StopBonus,
)
from solver.modifiers.route_value import (
    RouteMods,
    RouteValue,
    TrainMods,
    combo_most,
    most_added,
    path_hexes_both,
    route_mods,
    route_value,
    rule_findings,
)
from solver.modifiers.settle import best_route_bonus
from solver.rules.train_rules import list_pays_every_stop

EVERY_STOP_PAYS = ("stops", "hexes", "none")  # units whose routes pay every visited stop (no subset chosen)
OWN = (STOP_REVENUE, MINUS_STOP_REVENUE)  # values that are the stop's own revenue
ILLEGAL = "ILLEGAL"  # `price`: the route breaks a route rule whichever way it is run


def _same_either_way(values: Sequence[object], stops_per_key: Sequence[int]) -> bool:
    """Whether taking the first of several hits among these keys pays the same from either end:
    one value for all of them (never the stop's own revenue), or at most one stop to hit at all."""
    return sum(stops_per_key) <= 1 or (len(set(values)) == 1 and not any(v in OWN for v in values))


def order_free(m: StopBonus | ComboBonus, stops_in_hex: Counter[str]) -> bool:
    """Whether `m` pays the same on a route walked either way, when every stop of the route counts
    (`stops_in_hex`: the board's stops per hex). Conservative: False where unsure."""
    if isinstance(m, ComboBonus):
        if m.amount != SUM:
            return True  # only whether every set is hit
        return all(_same_either_way([v for _, v in s], [stops_in_hex[h] for h, _ in s]) for s in m.sets)
    if m.scope == "path_hexes":  # each path hex once: only `once` reads an order
        return m.count != "once" or len({v for _, v in m.hexes}) <= 1
    if m.count == "per_stop":
        return True  # every hit (or both ends) pays
    per_key = [1] * len(m.nodes) if m.by_node else [stops_in_hex[h] for h, _ in m.hexes]
    if m.count == "per_hex":  # the first hit per hex: differs only for a stop's own revenue on a hex of several stops
        if m.by_node:  # nodes of one hex may hold different values
            return _same_either_way([v for _, v in m.nodes], [2])
        return all(v not in OWN or n <= 1 for (_, v), n in zip(m.hexes, per_key))
    return _same_either_way([v for _, v in m.table], per_key)  # once


def least_pay(board: Board) -> int:
    """The least a stop of the board may pay (0 unless some stop's revenue is negative): a row or train
    multiplier scales a negative revenue at most by the largest multiplier of the company's trains."""
    lows = [min([n.revenue, *n.revenue_by_train.values()]) for n in board.nodes.values()]
    low = min(lows, default=0)
    if low >= 0:
        return 0
    scale = max((t.multiplier * max((r.multiplier for r in t.rows), default=1) for t in board.trains), default=1)
    return low * max(1, scale)


def pays_every_stop(train: Train, board: Board) -> bool:
    """Whether every stop of a route of this train pays (in its row, for a list train; while the route
    earns anything): what the candidate builder's per-stop tables and the pricer's `paid` rely on."""
    return train.unit in EVERY_STOP_PAYS or list_pays_every_stop(train, board.nodes.values())


def _symmetric_list(train: Train, n_stops: int) -> bool:
    """Whether a list train's best paying subset is worth the same either way: no kind fits two rows
    (each stop has its one row, whatever the order), and the route is short enough that the subset
    search never runs out of its budget (2^stops subsets at most)."""
    if train.unit != "stops_by_type" or 2 ** n_stops > MAX_SUBSET_SEARCH:
        return False
    kinds = [k for r in train.rows for k in r.kinds]
    return len(kinds) == len(set(kinds))


def _every_stop_value(tm: TrainMods, stops: Sequence[Node], paid: Sequence[int], hexes: Sequence[str]) -> RouteValue:
    """`route_value` for a train on which every stop pays what `paid` says (no paying subset to choose):
    the bonus and subsidy lines and the route rules on the stops as they are."""
    entries = list(zip(stops, paid))
    b = tm.bonuses
    lines = b.lines(entries, entries, hexes) if b is not None and b.has_revenue else []
    subsidy = sum(x.amount for x in b.subsidy_lines(entries, entries, hexes)) if b is not None and b.has_subsidy else 0
    findings = rule_findings(tm.rules, stops, stops, hexes) if tm.rules else []
    return RouteValue(list(paid), lines, subsidy, findings, [n.id for n in stops])


def _counted_matters(tm: TrainMods) -> bool:
    """Whether which stops count (not only what they earn) matters: a route rule on the counted stops,
    or a subsidy read from them. Then a list train's equal-valued subsets of either direction differ."""
    return any(r.scope == "counted" for r in tm.rules) or (tm.bonuses is not None and tm.bonuses.has_subsidy)


StopsTest = Callable[[Sequence[str]], bool]  # a test of a route's stops (node ids, in route order)


@dataclass
class _Direction:
    """What the pricer knows of one train name's modifiers: are they order-free on the board, and the
    tables of the bonuses that may depend on the order (read per route by `_route_order_free`)."""

    mods: TrainMods
    order_free: bool
    tables: list[tuple[dict[str, object], bool]]  # (table, whether it reads the path hexes)
    path_keys: frozenset[str] = frozenset()  # the path hexes a bonus or a rule may read (the others change nothing)
    # the stops a bonus reads (None when a bonus reads path hexes): a route none of whose stops is one gets
    # no bonus (`misses_bonuses`)
    bonus_stops: frozenset[str] | None = frozenset()
    # `bonus_stops` when the modifiers are vocabulary v1 bonuses only (`TrainMods.plain`; None for any other
    # modifiers): a route that misses every bonus is then priced as usual (`price` gives None)
    read_stops: frozenset[str] | None = None
    # every bonus reads only a route's first and last counted stop (StopBonus `endpoint`): on a train paying
    # every stop, a route ending at none of `bonus_stops` misses them, whatever it passes
    ends_only: bool = False


class CandidatePricer:
    """Prices candidate routes of one board with its per-route modifiers."""

    def __init__(self, board: Board, mods: RouteMods | None, with_subsidy: bool = True) -> None:
        self.board = board
        # what the route walk must enforce (one stop per hex, hexes no route may stop in) ...
        self.walk_limits = mods.walk_limits() if mods is not None else (False, frozenset())
        self.mods = mods.walked() if mods is not None else None  # ... and the rest, asked per route
        self.with_subsidy = with_subsidy
        # a route that pays nothing may still take a best-route bonus, be the required run or the dropped one
        self.keep_zero = any(isinstance(m, (BestRouteBonus, RequiredRoute, DropLowestRoute)) for m in board.modifiers)
        self._stops_in_hex = Counter(n.hex for n in board.nodes.values())  # junctions too: never fewer
        self.least = least_pay(board)  # what minus a stop's revenue adds at most is minus this
        self._by_name: dict[str, _Direction] = {}
        self._every: dict[Train, bool] = {}
        # route prices by (train, stops in order, what they pay, path hexes where a modifier reads them):
        # parallel track gives many routes of the same stops, priced alike
        self._priced: dict[tuple, tuple[list[int], bool, int] | str | None] = {}
        self._trains: dict[int, Train] = {}  # the trains priced, by id (the memo's key; held so ids stay theirs)
        self._leg_keys: dict[tuple[int, int], tuple[Leg, tuple[str, ...]]] = {}  # (leg, keys) -> its hexes read
        # the same per route, ahead and back
        self._route_hexes: dict[tuple[int, int], tuple[Sequence[Leg], tuple[str, ...], tuple[str, ...]]] = {}
        self._miss_tests: dict[tuple[str, str, bool], StopsTest | None] = {}  # `miss_test`
        self._missed: dict[int, tuple[frozenset[str], bool]] = {id(_any_stops): (frozenset(), False)}  # `missed_by`
        self.awards = [m for m in board.modifiers if isinstance(m, BestRouteBonus)]

    def award_only(self, train: Train, nodes: Sequence[str], legs: Sequence[Leg] = ()) -> bool:
        """Whether a route that breaks a route rule either way is legal as the winner of the board's awards:
        a list train's paying stops count an award it wins (FORMAT.md), so it may then count the stops a
        rule asks for, or pay at all under CountedStops (`award_prices` prices it as the winner only)."""
        d = self.train_mods(train.name)
        if not self.awards or train.unit != "stops_by_type" or d is None:
            return False
        stops = [self.board.nodes[n] for n in nodes]
        hexes, kinds = [n.hex for n in stops], [n.kind for n in stops]
        award = sum(max(0, best_route_bonus(m, hexes, kinds, train.name)) for m in self.awards)
        if award <= 0:
            return False
        ahead, back = self.path_hexes_both(d, legs, nodes) if d.mods.uses_path else ((), ())
        return any(not route_value(self.board, train, way, self.mods, path, award=award).findings
                   for way, path in ((nodes, ahead), (nodes[::-1], back)))

    def train_mods(self, name: str) -> _Direction | None:
        """The modifiers of one train name, with what the pricer derives from them (None: none apply)."""
        if self.mods is None:
            return None
        found = self._by_name.get(name)
        if found is None:
            tm = self.mods.for_train(name)
            bonuses = tm.bonuses.modifiers if tm.bonuses is not None else ()
            tables: list[tuple[dict[str, object], bool]] = []
            for m in bonuses:
                if not order_free(m, self._stops_in_hex):
                    tables.extend([(dict(m.table), m.scope == "path_hexes")] if isinstance(m, StopBonus)
                                  else [(dict(t), False) for t in m.sets])
            path_keys = frozenset(tm.bonuses.hexes if tm.bonuses is not None else ()) | frozenset(
                h for r in tm.rules if r.scope == "path_hexes" for h in r.hexes or ())
            bonus_stops = frozenset() if tm.bonuses is None else None if tm.bonuses.uses_path else \
                frozenset(nid for nid, n in self.board.nodes.items() if tm.bonuses.reads(n))
            ends_only = bool(bonuses) and all(isinstance(m, StopBonus) and m.endpoint and m.scope != "path_hexes"
                                              for m in bonuses)
            found = self._by_name[name] = _Direction(tm, not tables, tables, path_keys, bonus_stops,
                                                     bonus_stops if tm.plain else None, ends_only)
        return found

    def misses_bonuses(self, d: _Direction, train: Train, nodes: Sequence[str], pays_every: bool) -> bool:
        """Whether no route bonus of `d` can hit a route of these stops (`miss_test`)."""
        test = self.miss_test(d, train, pays_every)
        return test is not None and test(nodes)

    def miss_test(self, d: _Direction, train: Train, pays_every: bool) -> StopsTest | None:
        """The test that no route bonus of `d` can hit a route of some stops: none of its stops is one a bonus
        reads, or, on a train paying every stop (`pays_every`, and of a unit paid per stop) whose bonuses read
        a route's ends only (StopBonus `endpoint`), neither of its two ends. None when a bonus reads path
        hexes (any route may take it). Made once per train name, unit and `pays_every`."""
        key = (train.name, train.unit, pays_every)  # a train name's `d` is one (`train_mods`)
        found = self._miss_tests.get(key, _UNPRICED)
        if found is _UNPRICED:
            read = d.bonus_stops
            if read is None:
                found = None
            elif d.ends_only and pays_every and train.unit in EVERY_STOP_PAYS:
                found = lambda nodes: nodes[0] not in read and nodes[-1] not in read  # noqa: E731
                self._missed[id(found)] = (read, True)
            else:
                found = read.isdisjoint
                self._missed[id(found)] = (read, False)
            self._miss_tests[key] = found
        return found  # type: ignore[return-value]

    def missed_by(self, test: StopsTest) -> tuple[frozenset[str], bool] | None:
        """What a test `as_usual` gave reads: the stops a route must miss, and whether at its two ends only
        (for a caller that runs the test over arrays); None for a test it did not give."""
        return self._missed.get(id(test))

    def as_usual(self, train: Train, pays_every: bool) -> StopsTest | None:
        """The test of a route's stops that `price` gives None for it (priced as usual: no modifier applies to
        this train, or vocabulary v1 bonuses only, none of which the route can hit), so that a caller pricing
        many routes asks it first; None when `price` must always be asked."""
        d = self.train_mods(train.name)
        if d is None:
            return _any_stops
        return self.miss_test(d, train, pays_every) if d.read_stops is not None else None

    def bonus_cap(self, name: str, top_stop: int, n_stops: int) -> int:
        """At most what the route bonuses (and the subsidy, when counted) add to one route of `n_stops`
        stops of a train of this name, where no stop pays more than `top_stop`."""
        d = self.train_mods(name)
        if d is None or d.mods.bonuses is None:
            return 0
        cap = 0
        for m in d.mods.bonuses.modifiers:
            if isinstance(m, StopBonus):
                if m.target == "subsidy" and not self.with_subsidy:
                    continue
                values = [most_added(v, top_stop, self.least) for _, v in m.table]
                positive = sorted((v for v in values if v > 0), reverse=True)
                if m.count == "once":
                    cap += max(positive, default=0)
                elif m.scope == "path_hexes":  # each path hex once, however many stops
                    cap += sum(positive)
                elif m.count == "per_hex":
                    cap += sum(positive[:n_stops])
                else:  # per_stop: each stop in scope once (both ends at most, for an endpoint bonus)
                    per_node = self._per_node_values(m, values)
                    cap += sum(per_node[:2 if m.endpoint else n_stops])
            else:
                cap += combo_most(m)
        return cap

    def combo_sets(self, name: str) -> list[tuple[int, list[frozenset[str]]]]:
        """Per combination of a train of this name, what `bonus_cap` counts for it and, per set, the nodes
        on its hexes: a route whose stops miss one of those sets earns nothing from it."""
        d = self.train_mods(name)
        combos = [m for m in d.mods.bonuses.modifiers if isinstance(m, ComboBonus)] \
            if d is not None and d.mods.bonuses is not None else []
        return [(combo_most(m), [frozenset(nid for nid, n in self.board.nodes.items() if n.hex in dict(t))
                                 for t in m.sets]) for m in combos]

    def bonus_weights(self, name: str, stop_ub: dict[str, int]) -> tuple[dict[str, int], dict[str, int], int]:
        """Where the route bonuses (and the subsidy, when counted) of a train of this name add at most:
        per node (a bonus on its stop, `stop_ub` bounding what the stop pays), per hex a route passes
        (a path-hex bonus) and a constant. A route earns at most its stops' pay, its nodes' and passed hexes'
        parts and the constant: each hit counted at least once. A combination weighs on the nodes of its set
        on fewest nodes (a route earning it stops at one of them), or, without sets, in the constant."""
        d = self.train_mods(name)
        node: dict[str, int] = {}
        hexes: dict[str, int] = {}
        const = 0
        for most, sets in self.combo_sets(name):
            if not sets:
                const += most
            for nid in min(sets, key=len, default=()):
                node[nid] = node.get(nid, 0) + most
        for m in d.mods.bonuses.modifiers if d is not None and d.mods.bonuses is not None else ():
            if isinstance(m, ComboBonus):
                continue
            if m.target != "subsidy" or self.with_subsidy:
                table = dict(m.table)
                if m.scope == "path_hexes":
                    for h, v in table.items():
                        hexes[h] = hexes.get(h, 0) + most_added(v, 0, self.least)
                    continue
                for nid, n in self.board.nodes.items():
                    v = table.get(nid if m.by_node else n.hex)
                    if v is not None:
                        node[nid] = node.get(nid, 0) + most_added(v, stop_ub.get(nid, 0), self.least)
        return node, hexes, const

    def _per_node_values(self, m: StopBonus, values: list[int]) -> list[int]:
        """The positive values a `per_stop` bonus may pay, one per node it can hit (a route stops at a
        node once): a hex's value once per stop in that hex, largest first."""
        if m.by_node:
            return sorted((v for v in values if v > 0), reverse=True)
        return sorted((v for (h, _), v in zip(m.table, values) if v > 0
                       for _ in range(self._stops_in_hex[h])), reverse=True)

    def route_cap(self, name: str, stops: Sequence[Node], stop_ub: dict[str, int], legs: Sequence[Leg]) -> int:
        """At most what the route bonuses (and the subsidy, when counted) add to this route of a train of
        this name, `stop_ub` bounding what each stop pays: only the bonuses its own stops (or path
        hexes) can hit count, and a combination only when the stops reach every set."""
        d = self.train_mods(name)
        if d is None or d.mods.bonuses is None:
            return 0
        bonuses = d.mods.bonuses
        path = self.path_hexes(d, legs, [n.id for n in stops]) if bonuses.uses_path else ()
        return bonuses.cap([(n, stop_ub[n.id], self.least) for n in stops], path, self.with_subsidy)

    def path_hexes(self, d: _Direction, legs: Sequence[Leg], nodes: Sequence[str]) -> tuple[str, ...]:
        """The route's path hexes that a bonus or a rule of `d` may read, in route order (reading no
        other hex, they price the route as all its path hexes do); read once per route and per leg."""
        return self.path_hexes_both(d, legs, nodes)[0]

    def path_hexes_both(self, d: _Direction, legs: Sequence[Leg], nodes: Sequence[str]
                        ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """`path_hexes` of the route, and of the route walked the other way: the same hexes passed backwards,
        whose first passes differ from the first order reversed where the route passes a hex twice (from one
        city of a hex to the other)."""
        keys = d.path_keys
        if not legs:
            both = path_hexes_both(legs, [self.board.nodes[n] for n in nodes])
            return tuple(h for h in both[0] if h in keys), tuple(h for h in both[1] if h in keys)
        found = self._route_hexes.get((id(legs), id(keys)))
        if found is not None:
            return found[1], found[2]
        out: list[str] = []
        for leg in legs:
            known = self._leg_keys.get((id(leg), id(keys)))
            if known is None:  # the leg is held with its hexes, so that its id stays its own
                known = self._leg_keys[(id(leg), id(keys))] = (leg, tuple(h for h in leg.hexes if h in keys))
            out.extend(known[1])
        ahead, back = tuple(dict.fromkeys(out)), tuple(dict.fromkeys(reversed(out)))
        self._route_hexes[(id(legs), id(keys))] = (legs, ahead, back)  # the legs held, as above
        return ahead, back

    def _route_order_free(self, d: _Direction, stops: Sequence[Node], path_hexes: Sequence[str] = ()) -> bool:
        """Whether no bonus table meets two stops (or, for a path-hex bonus, two path hexes) of this route
        that pay differently (or their own revenue): then every subset of its stops earns the same
        bonuses walked either way."""
        for table, on_path in d.tables:
            if on_path:
                values = [table[h] for h in path_hexes if h in table]
            else:
                values = [table[n.hex] if n.hex in table else table[n.id] for n in stops
                          if n.hex in table or n.id in table]
            if len(values) >= 2 and (any(v in OWN for v in values) or len(set(values)) > 1):
                return False
        return True

    def _values(self, v: RouteValue) -> tuple[list[int], int]:
        """The candidate's value list and the subsidy it holds (0 when the objective does not count it)."""
        out = v.stop_revenues + [b.amount for b in v.bonuses]
        return (out + [v.subsidy], v.subsidy) if self.with_subsidy and v.subsidy else (out, 0)

    def price(self, train: Train, nodes: Sequence[str], paid: list[int] | None = None,
              legs: Sequence[Leg] = ()) -> tuple[list[int], bool, int] | str | None:
        """The route's values (stops, then bonuses, then the subsidy) in its better direction, whether
        that is the reverse, and the subsidy among the values (a dropped route keeps it);
        ILLEGAL when it breaks a route rule either way; None when no
        modifier can apply (price it as usual). `paid`: what each stop pays this train, when the
        caller has it and every stop pays (saves pricing the stops again); `legs`: the route's legs,
        which matter only through the hexes they pass (and only to a modifier that reads them)."""
        usual = self.as_usual(train, paid is not None)
        if usual is not None and usual(nodes):
            return None  # no modifier, or v1 bonuses none of which the route hits (`_price_plain`)
        return self.price_asked(train, nodes, paid, legs)

    def price_asked(self, train: Train, nodes: Sequence[str], paid: list[int] | None = None,
                    legs: Sequence[Leg] = ()) -> tuple[list[int], bool, int] | str | None:
        """`price` of a route whose test `as_usual(train, paid is not None)` gave the caller asked already and
        found false (or that gave none)."""
        d = self.train_mods(train.name)
        assert d is not None  # `as_usual` answers for a train no modifier applies to
        hexes, back_hexes = self.path_hexes_both(d, legs, nodes) if d.mods.uses_path else ((), ())
        if paid is not None and train.unit in EVERY_STOP_PAYS and d.mods.counted_stops is None:
            who = id(d.mods)  # priced from `paid` and the modifiers alone: trains paid alike share the price
        else:
            who = id(self._trains.setdefault(id(train), train))
        key = (who, tuple(nodes), None if paid is None else tuple(paid), hexes, back_hexes)
        found = self._priced.get(key, _UNPRICED)
        if found is _UNPRICED:
            found = self._priced[key] = self._price(d, train, nodes, [self.board.nodes[n] for n in nodes], paid,
                                                    hexes, back_hexes)
        return (list(found[0]), found[1], found[2]) if isinstance(found, tuple) else found

    def pays_every_stop(self, train: Train) -> bool:
        """Whether every stop of this train's routes pays, so that the caller's `paid` is the route's
        pay (see `pays_every_stop`)."""
        found = self._every.get(train)
        if found is None:
            found = self._every[train] = pays_every_stop(train, self.board)
        return found

    def _every_value(self, tm: TrainMods, train: Train, stops: Sequence[Node], paid: Sequence[int],
                     hexes: Sequence[str]) -> RouteValue | None:
        """`_every_stop_value`, or None for a list train whose whole route earns nothing (then its
        paying-stop search looks at smaller subsets: the caller prices it in full)."""
        v = _every_stop_value(tm, stops, paid, hexes)
        return None if train.unit not in EVERY_STOP_PAYS and v.total <= 0 else v

    def _price(self, d: _Direction, train: Train, nodes: Sequence[str], stops: list[Node], paid: list[int] | None,
               hexes: Sequence[str], back_hexes: Sequence[str]) -> tuple[list[int], bool, int] | str:
        """`price` of a route not priced before (`hexes`, `back_hexes`: its path hexes either way, where a
        modifier reads them)."""
        tm = d.mods
        if tm.plain:
            return self._price_plain(d, train, nodes, stops, paid)
        every = paid is not None and self.pays_every_stop(train) and tm.counted_stops is None
        ahead = self._every_value(tm, train, stops, paid, hexes) if every and paid is not None else None
        if ahead is None:
            every = False
            ahead = route_value(self.board, train, nodes, self.mods, hexes)
        free = (d.order_free or self._route_order_free(d, stops, hexes)) and not tm.candidate_rules
        if free and (every or train.unit in EVERY_STOP_PAYS or (not _counted_matters(tm) and (
                tm.counted_stops is not None or _symmetric_list(train, len(stops))))):
            # every stop (or a subset worth the same) pays either way, and so do the bonuses and rules
            return ILLEGAL if ahead.findings else (*self._values(ahead)[:1], False, self._values(ahead)[1])
        back = self._every_value(tm, train, stops[::-1], paid[::-1], back_hexes) if every and paid is not None \
            else None
        if back is None:
            back = route_value(self.board, train, nodes[::-1], self.mods, back_hexes)
        legal = [(v, rev) for v, rev in ((ahead, False), (back, True)) if not v.findings]
        if not legal:
            return ILLEGAL
        best = max(legal, key=lambda e: (sum(self._values(e[0])[0]), not e[1]))  # ties: ahead
        values, subsidy = self._values(best[0])
        return values, best[1], subsidy

    def _price_plain(self, d: _Direction, train: Train, nodes: Sequence[str], stops: list[Node],
                     paid: list[int] | None) -> tuple[list[int], bool, int] | None:
        """Vocabulary v1 bonuses only: the fast path. A route that stops where no bonus reads is priced as
        usual (None); `price` answers those before the memo (`read_stops`), this check is the rule it keeps."""
        bonuses = d.mods.bonuses
        if bonuses is None or not bonuses.touches(stops):
            return None
        every = paid is not None and self.pays_every_stop(train)
        listed = train.unit not in EVERY_STOP_PAYS  # a list train paying every stop: while the route earns
        ahead = RouteValue(paid, bonuses.lines(list(zip(stops, paid)))) if every and paid is not None else None
        if ahead is None or (listed and ahead.total <= 0):
            every = False
            ahead = route_value(self.board, train, nodes, self.mods)
        ahead_values = ahead.stop_revenues + [b.amount for b in ahead.bonuses]
        free = d.order_free or self._route_order_free(d, stops)
        if every:
            if free:
                return ahead_values, False, 0
            # every stop pays the same either way: only the bonuses are read again on the reversed stops
            back_stops = ahead.stop_revenues[::-1]
            back_lines = bonuses.lines(list(zip(stops[::-1], back_stops)))
            back_total = sum(back_stops) + sum(b.amount for b in back_lines)
            if listed and back_total <= 0:  # the reverse's paying subset is searched
                back = route_value(self.board, train, nodes[::-1], self.mods)
                back_values, back_total = back.stop_revenues + [b.amount for b in back.bonuses], back.total
            else:
                back_values = back_stops + [b.amount for b in back_lines]
            if back_total > ahead.total:
                return back_values, True, 0
            return ahead_values, False, 0
        if free and _symmetric_list(train, len(stops)):
            return ahead_values, False, 0
        back = route_value(self.board, train, nodes[::-1], self.mods)
        if back.total > ahead.total:
            return back.stop_revenues + [b.amount for b in back.bonuses], True, 0
        return ahead_values, False, 0


_UNPRICED = object()  # a route the pricer has not seen


def _any_stops(nodes: Sequence[str]) -> bool:
    """`as_usual` for a train no modifier applies to: every route is priced as usual."""
    return True


def candidate_pricer(board: Board, with_subsidy: bool = True) -> CandidatePricer | None:
    """The pricer of a board with modifiers, None without any (`with_subsidy`: the objective counts
    the subsidy)."""
    if not board.modifiers:
        return None
    return CandidatePricer(board, route_mods(board.modifiers), with_subsidy)
