"""The 1873 optimiser: a CP-SAT model over the company's candidate mining and diesel routes.

Variables: x[r, s] (mining route r run by super-train s) and y[r] (diesel route r). Revenue is
modelled per company: the best visited city per hex, factories once, each open mine paid by
the largest train reaching it, diesel money once per hex. The networks (the routes of one train
meet at unblocked stops): up front, no train running two routes or more has a route that meets
none of its others; then lazily, a solution whose train network falls apart gets, for each of its
networks, a cut (those routes and any more need a route of that train meeting them), and the
model is solved again. Objective RULEBOOK maximises the routes serviced first, then
revenue; REVENUE_ONLY revenue alone. The answer is priced again by the 1873 evaluator.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ortools.sat.python import cp_model

from solver.model.board import Board
from solver.model.results import Objective
from solver.routes.leg_graph import mask_bits
from solver.rulesets.r_1873.candidates import Shape
from solver.rulesets.r_1873.view import Harzbahn

MAX_ROUNDS = 200


class Model1873:
    """The CP-SAT model of one position; `solve` may be called again after cuts are added."""

    def __init__(self, board: Board, ctx: Harzbahn, mining: list[Shape], diesel: list[Shape], objective: Objective):
        self.board, self.ctx, self.mining, self.diesel = board, ctx, mining, diesel
        self.model = cp_model.CpModel()
        m = self.model
        self.supers = ctx.mining_trains
        self.x: dict[tuple[int, int], cp_model.IntVar] = {}
        for r in range(len(mining)):
            here = []
            for si in range(len(self.supers)):
                self.x[(r, si)] = v = m.new_bool_var(f"x{r}_{si}")
                here.append(v)
            if len(here) > 1:
                m.add_at_most_one(here)
        for si, st in enumerate(self.supers):
            m.add(sum(self.x[(r, si)] for r in range(len(mining))) <= len(st.subtrains))
        self.has_diesel = ctx.diesel_train is not None
        self.y = [m.new_bool_var(f"y{r}") for r in range(len(diesel))] if self.has_diesel else []
        if self.y:  # each diesel route runs under one train id of the pool: no more routes than ids
            m.add(sum(self.y) <= len(ctx.diesel_pool or ctx.diesel_train.subtrains))  # type: ignore[union-attr]
        self._no_lone_route()
        self._no_shared_track()
        self.infeasible_reason = self._concession()
        self.revenue_expr = self._revenue()
        self.route_count = sum(self.x.values()) + sum(self.y)
        self.upper = self._revenue_upper_bound()
        self.big = self.upper + 1 if objective == Objective.RULEBOOK else 0
        m.maximize(self.big * self.route_count + self.revenue_expr)

    def _no_lone_route(self) -> None:
        """The network condition CP-SAT sees up front: when a train runs two routes or more, each of
        them meets another of its routes at an unblocked stop (a connected network has no lone route).
        The cuts of `add_network_cut` then only separate networks of two routes or more."""
        self._meets = {kind: _meetings([frozenset(n for n in sh.nodes if not self.board.nodes[n].blocks)
                                        for sh in shapes])
                       for kind, shapes in (("mining", self.mining), ("diesel", self.diesel))}
        self._lits = {si: [self.x[(r, si)] for r in range(len(self.mining))] for si in range(len(self.supers))}
        self._lits[-1] = self.y
        self._more: dict[tuple[int, int], cp_model.IntVar] = {}
        for si in [*range(len(self.supers)), *([-1] if self.y else [])]:
            for r in range(len(self.shapes(si))):
                self.add_network_cut(si, {r})

    def _route_limit(self, si: int) -> int:
        """How many routes train si (-1: the diesels) may run."""
        if si >= 0:
            return len(self.supers[si].subtrains)
        return len(self.ctx.diesel_pool or self.ctx.diesel_train.subtrains)  # type: ignore[union-attr]

    def more_than(self, si: int, k: int) -> cp_model.IntVar:
        """A literal that may be true only when train si runs more than k routes (and must be then)."""
        lit = self._more.get((si, k))
        if lit is None:
            runs = sum(self._lits[si])
            lit = self._more[(si, k)] = self.model.new_bool_var(f"more{si}_{k}")
            self.model.add(runs <= k + (self._route_limit(si) - k) * lit)
        return lit

    def _no_shared_track(self) -> None:
        """Mining routes share no track with each other, diesel routes none with each other: for each
        track bit, at most one of the literals of the routes on it (`packing.pack.forbid_shared_track`,
        its constraints in its order, grouped by route: a route's literals share its bits)."""
        self._forbid_shared_track(self.mining, [[self.x[(r, si)] for si in range(len(self.supers))]
                                                for r in range(len(self.mining))])
        if self.has_diesel:
            self._forbid_shared_track(self.diesel, [[v] for v in self.y])

    def _forbid_shared_track(self, shapes: list[Shape], lits: list[list[cp_model.IntVar]]) -> None:
        """At most one of the literals `lits[r]` of the routes r on each track bit, once per set of routes."""
        on_bit: dict[int, list[int]] = defaultdict(list)
        for r, shape in enumerate(shapes):
            for bit in mask_bits(shape.mask):
                on_bit[bit].append(r)
        width = len(lits[0]) if lits else 0  # literals per route
        seen: set[tuple[int, ...]] = set()
        for routes in on_bit.values():
            key = tuple(routes)
            if len(routes) * width < 2 or key in seen:
                continue
            seen.add(key)
            self.model.add_at_most_one([v for r in routes for v in lits[r]])

    def _concession(self) -> str | None:
        ctx = self.ctx
        if ctx.is_qlb:
            return None
        if self.supers:
            for c in ctx.concession_routes:
                runs = [self.x[(r, si)] for r, sh in enumerate(self.mining) if sh.hexes == c
                        for si in range(len(self.supers))]
                if not runs:
                    return f"no legal standard-train route runs the concession route {'-'.join(sorted(c))}"
                self.model.add_bool_or(runs)
            if not ctx.concession_routes:
                self.model.add_bool_or(list(self.x.values()) or [self.model.new_constant(0)])
        if self.has_diesel:
            for c in ctx.concession_routes:
                runs = [self.y[r] for r, sh in enumerate(self.diesel) if sh.hexes == c]
                if not runs:
                    return f"no legal diesel route runs the concession route {'-'.join(sorted(c))}"
                self.model.add_bool_or(runs)
            if not ctx.concession_routes:
                self.model.add_bool_or(self.y or [self.model.new_constant(0)])
        return None

    def _any(self, name: str, lits: list) -> cp_model.IntVar:
        """A literal that may be true only when one of `lits` is (the objective makes it so when it pays)."""
        v = self.model.new_bool_var(name)
        self.model.add_bool_or(lits).only_enforce_if(v)
        return v

    def _revenue(self) -> cp_model.LinearExpr:
        """The company's revenue as a sum of terms: cities, factories, mines and diesel hexes."""
        visits: dict[str, list] = defaultdict(list)  # node -> mining literals visiting it
        for (r, _si), v in self.x.items():
            for n in self.mining[r].nodes:
                visits[n].append(v)
        self.terms: list[tuple[int, cp_model.IntVar]] = []
        hex_ok = self._city_terms(visits)
        self._factory_terms(hex_ok)
        self._mine_terms()
        if self.has_diesel:
            self._diesel_terms()
        return sum(c * v for c, v in self.terms)

    def _city_terms(self, visits: dict[str, list]) -> dict[str, list]:
        """Each visited unblocked city pays once, the better city of a two-city hex; returns the
        literals reaching each hex at an unblocked stop."""
        nodes, ctx = self.board.nodes, self.ctx
        per_hex_city: dict[str, list] = defaultdict(list)
        hex_ok: dict[str, list] = defaultdict(list)
        for n, lits in visits.items():
            node = nodes[n]
            if node.blocks:
                continue
            hex_ok[node.hex].extend(lits)
            if node.kind == "city":
                w = self._any(f"w{n}", lits)
                per_hex_city[node.hex].append(w)
                self.terms.append((node.revenue if node.tokened_by_company else ctx.stop_revenue, w))
        for ws in per_hex_city.values():
            if len(ws) > 1:
                self.model.add_at_most_one(ws)
        return hex_ok

    def _factory_terms(self, hex_ok: dict[str, list]) -> None:
        """A factory reached at an unblocked stop pays once."""
        for h, rev in self.ctx.factory_revenue.items():
            if hex_ok.get(h):
                self.terms.append((rev, self._any(f"f{h}", hex_ok[h])))

    def _mine_terms(self) -> None:
        """A mine pays its multiplier times the largest train reaching it (a larger train stopped
        at a blocked mine city takes the payment away)."""
        nodes, m = self.board.nodes, self.model
        hex_super_ok: dict[tuple[str, int], list] = defaultdict(list)
        hex_super_blocked: dict[tuple[str, int], list] = defaultdict(list)
        for (r, si), v in self.x.items():
            for n in self.mining[r].nodes:
                (hex_super_blocked if nodes[n].blocks else hex_super_ok)[(nodes[n].hex, si)].append(v)
        for h, mult in self.ctx.mine_multiplier.items():
            picks = []
            for si, st in enumerate(self.supers):
                ok = hex_super_ok.get((h, si))
                if not ok:
                    continue
                e = self._any(f"e{h}_{si}", ok)
                for sj, other in enumerate(self.supers):
                    if other.distance > st.distance:
                        for lit in hex_super_blocked.get((h, sj), []):
                            m.add_implication(e, lit.negated())
                picks.append(e)
                self.terms.append((mult * st.distance, e))
            if len(picks) > 1:
                m.add_at_most_one(picks)

    def _diesel_terms(self) -> None:
        """Diesel money: once per hex with an unblocked city, twice where one route reaches two."""
        nodes = self.board.nodes
        first: dict[str, list] = defaultdict(list)
        double: dict[str, list] = defaultdict(list)
        for r, shape in enumerate(self.diesel):
            cities_by_hex: dict[str, int] = defaultdict(int)
            for n in shape.nodes:
                if nodes[n].kind == "city" and not nodes[n].blocks:
                    cities_by_hex[nodes[n].hex] += 1
            for h, k in cities_by_hex.items():
                first[h].append(self.y[r])
                if k > 1:
                    double[h].append(self.y[r])
        for h, lits in first.items():
            self.terms.append((self.ctx.diesel_stop_revenue, self._any(f"d{h}", lits)))
            if double.get(h):
                self.terms.append((self.ctx.diesel_stop_revenue, self._any(f"dd{h}", double[h])))

    def _revenue_upper_bound(self) -> int:
        """Every revenue term at once: no run can earn more."""
        return sum(c for c, _ in self.terms)

    def lit(self, r: int, si: int) -> cp_model.IntVar:
        """The literal of route r for mining train index si, or diesel route r when si < 0."""
        return self.y[r] if si < 0 else self.x[(r, si)]

    def shapes(self, si: int) -> list[Shape]:
        return self.diesel if si < 0 else self.mining

    def add_network_cut(self, si: int, component: set[int]) -> None:
        """Train si running every route of `component` and any route more needs a route of its own
        outside the component that meets it at an unblocked stop (its network is connected)."""
        if len(component) >= self._route_limit(si):
            return  # the train runs no route beside a whole component
        meets, lits = self._meets["diesel" if si < 0 else "mining"], self._lits[si]
        if len(component) == 1:
            near: Sequence[int] = meets[next(iter(component))]
        else:
            near = sorted(set().union(*(meets[r] for r in component)) - component)
        bridges = [lits[q] for q in near]
        apart = [lits[r].negated() for r in component]
        self.model.add_bool_or(apart + bridges + [self.more_than(si, len(component)).negated()])

    def cap_revenue(self, chosen: list[tuple[int, int]], value: int) -> None:
        """This exact selection earns at most `value` (its best route order); other selections are
        untouched: the cap is lifted as soon as any route differs."""
        picked = set(chosen)
        differs = [self.lit(r, si).negated() for r, si in chosen]
        differs += [v for (r, si), v in self.x.items() if (r, si) not in picked]
        differs += [v for r, v in enumerate(self.y) if (r, -1) not in picked]
        self.model.add(self.revenue_expr <= value + (self.upper + 1) * sum(differs))


def _meetings(stops: list[frozenset[str]]) -> list[tuple[int, ...]]:
    """For each route (its unblocked stops), the other routes meeting it at one of them, in index order."""
    at: dict[str, list[int]] = defaultdict(list)
    for r, here in enumerate(stops):
        for n in here:
            at[n].append(r)
    meets: list[set[int]] = [set() for _ in stops]
    for routes in at.values():
        for r in routes:
            meets[r].update(routes)
    return [tuple(sorted(near - {r})) for r, near in enumerate(meets)]


def every_stop_bound(board: Board, ctx: Harzbahn) -> int:
    """Every term of the 1873 model at its most, as if every route were listed (`Model1873._revenue`): each hex's best
    unblocked city once, every factory, every mine at its multiplier times the longest mining train, and the
    diesels' money twice per hex with an unblocked city. No run earns more: the bound of a list cut short."""
    city: dict[str, int] = defaultdict(int)
    for node in board.nodes.values():
        if node.kind == "city" and not node.blocks:
            pay = node.revenue if node.tokened_by_company else ctx.stop_revenue
            city[node.hex] = max(city[node.hex], pay, 0)
    longest = max((st.distance for st in ctx.mining_trains), default=0)
    diesels = 2 * max(ctx.diesel_stop_revenue, 0) * len(city) if ctx.diesel_train is not None else 0
    return (sum(city.values()) + sum(max(v, 0) for v in ctx.factory_revenue.values())
            + sum(max(mult * longest, 0) for mult in ctx.mine_multiplier.values()) + diesels)
