"""A compact CP-SAT model for long and unlimited trains: each train runs a path in the leg graph,
expressed as a circuit through a depot node, instead of choosing among enumerated routes.

Its size grows with the board (stops x legs x trains), not with the number of routes, so it stays
small where enumeration explodes (10-, 12-stop and diesel trains on late-game boards). It covers
trains whose distance counts plain stops, hexes or nothing and whose stops pay a fixed amount per
train (`eligible`); the rules are the same ones the route walk obeys (`walk.WalkRules`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.model.legs import Leg
from solver.model.results import Status
from solver.packing.cpsat import run_cpsat
from solver.packing.outcome import Packing
from solver.routes.leg_graph import LegGraph
from solver.routes.pricing import Candidate
from solver.routes.route_shape import WalkRules
from solver.routes.walk import standard_walk_rules
from solver.rules.train_rules import stop_revenue

PLAIN_UNITS = ("stops", "hexes", "none")


def eligible(classes: Sequence[Train], groups: Sequence[str]) -> bool:
    """Whether every train class fits the compact model: plain distance, no class, not local,
    one track group."""
    return bool(classes) and len(set(groups)) == 1 and all(
        t.unit in PLAIN_UNITS and not t.klass and not t.local and not t.rows and not t.by_hex for t in classes)


@dataclass
class _TrainVars:
    ci: int
    run: cp_model.IntVar
    vis: dict[str, cp_model.IntVar]
    start: dict[str, cp_model.IntVar]
    end: dict[str, cp_model.IntVar]
    legs: list[tuple[Leg, cp_model.IntVar]]
    value: cp_model.LinearExpr


class CompactModel:
    """The circuit model of one company's trains on one board."""

    def __init__(self, board: Board, graph: LegGraph, classes: Sequence[Train], counts: Sequence[int],
                 rules: WalkRules | None = None) -> None:
        self.board, self.graph, self.classes = board, graph, classes
        self.rules = rules or standard_walk_rules(board)
        self.model = cp_model.CpModel()
        self.stops = [n for n in graph.legs_from if n in self.rules.visitable]
        self.legs = [leg for n in self.stops for leg in graph.legs_from[n]
                     if leg.b in self.rules.visitable and not leg.terminal_inner]
        self.trains: list[_TrainVars] = []
        by_bit: dict[int, list[cp_model.IntVar]] = defaultdict(list)
        for ci, count in enumerate(counts):
            previous = None
            for k in range(count):
                tv = self._train(ci, classes[ci], f"t{ci}_{k}")
                for leg, y in tv.legs:
                    for bit in graph.bits[id(leg)]:
                        by_bit[bit].append(y)
                if previous is not None:  # identical trains: no symmetric solutions
                    self.model.add(previous.value >= tv.value)
                previous = tv
                self.trains.append(tv)
        for lits in by_bit.values():
            if len(lits) > 1:
                self.model.add_at_most_one(lits)
        self.model.maximize(sum(tv.value for tv in self.trains))

    def _train(self, ci: int, train: Train, name: str) -> _TrainVars:
        m, nodes, rules = self.model, self.board.nodes, self.rules
        index = {n: i + 1 for i, n in enumerate(self.stops)}
        run = m.new_bool_var(f"{name}_run")
        vis = {n: m.new_bool_var(f"{name}_v{n}") for n in self.stops}
        start = {n: m.new_bool_var(f"{name}_s{n}") for n in self.stops if n in rules.starts}
        end = {n: m.new_bool_var(f"{name}_e{n}") for n in self.stops if n in rules.ends}
        arcs: list[tuple[int, int, cp_model.IntVar]] = [(0, 0, ~run)]
        for n in self.stops:
            arcs.append((index[n], index[n], ~vis[n]))
            if n in start:
                arcs.append((0, index[n], start[n]))
            if n in end:
                arcs.append((index[n], 0, end[n]))
            m.add_implication(vis[n], run)
        parallel: dict[tuple[str, str], list[cp_model.IntVar]] = defaultdict(list)
        legs: list[tuple[Leg, cp_model.IntVar]] = []
        for leg in self.legs:
            y = m.new_bool_var(f"{name}_l{len(legs)}")
            legs.append((leg, y))
            parallel[(leg.a, leg.b)].append(y)
            if leg.has_terminal:  # a terminal path only at the route's ends
                if len(leg.paths) == 1 and leg.terminal_first:
                    m.add_bool_or([~y, start.get(leg.a, m.new_constant(0)), end.get(leg.b, m.new_constant(0))])
                else:
                    if leg.terminal_first:
                        m.add_implication(y, start[leg.a]) if leg.a in start else m.add(y == 0)
                    if leg.terminal_last:
                        m.add_implication(y, end[leg.b]) if leg.b in end else m.add(y == 0)
        for (a, b), ys in parallel.items():
            if len(ys) == 1:
                arcs.append((index[a], index[b], ys[0]))
            else:
                x = m.new_bool_var(f"{name}_x{a}_{b}")
                m.add(sum(ys) == x)
                arcs.append((index[a], index[b], x))
        m.add_circuit(arcs)
        m.add(sum(vis.values()) >= 2 * run)
        for n in self.stops:
            if n not in rules.passable:  # blocking and terminal stops only end a route
                m.add(start.get(n, 0) + end.get(n, 0) >= vis[n])
        groups: dict[str, list[cp_model.IntVar]] = defaultdict(list)
        for n in self.stops:
            for g in nodes[n].groups:
                groups[g].append(vis[n])
        for lits in groups.values():
            if len(lits) > 1:
                m.add_at_most_one(lits)
        if train.requires_token:
            m.add(sum(vis[n] for n in self.stops if nodes[n].tokened_by_company) >= run)
        if train.unit == "stops":
            m.add(sum(nodes[n].visit_cost * vis[n] for n in self.stops) <= train.distance)
        elif train.unit == "hexes":
            m.add(sum(leg.crossings * y for leg, y in legs) <= train.distance)
        value = sum(stop_revenue(nodes[n], train) * vis[n] for n in self.stops)
        return _TrainVars(ci=ci, run=run, vis=vis, start=start, end=end, legs=legs, value=value)

    def hint(self, routes: Sequence[tuple[int, Sequence[str], Sequence[Leg]]]) -> None:
        """Hint a known legal packing: (class, nodes, legs) per route."""
        free = list(self.trains)
        for ci, nodes_, legs in routes:
            tv = next((t for t in free if t.ci == ci), None)
            if tv is None:
                continue
            free.remove(tv)
            used = {id(leg) for leg in legs}
            self.model.add_hint(tv.run, 1)
            for n, v in tv.vis.items():
                self.model.add_hint(v, 1 if n in nodes_ else 0)
            for leg, y in tv.legs:
                self.model.add_hint(y, 1 if id(leg) in used else 0)

    def solve(self, deadline: float, workers: int, stop: CancelToken | None = None) -> Packing:
        """Solve until optimal, until `deadline` (time.monotonic) or until `stop` is set: the chosen routes
        as candidates of their own (`cands`) with (route, class) pairs into them, and a bound."""
        solver, code = run_cpsat(self.model, deadline, workers, stop)
        stats = {"compact_trains": float(len(self.trains)), "compact_legs": float(len(self.legs)),
                 "cpsat_wall_ms": solver.wall_time * 1000.0}
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Packing(Status.UNKNOWN, [], None, stats, cands=[])
        routes: list[Candidate] = []
        chosen: list[tuple[int, int]] = []
        for tv in self.trains:
            if not solver.boolean_value(tv.run):
                continue
            nodes_, legs = self._path(solver, tv)
            train = self.classes[tv.ci]
            revs = [stop_revenue(self.board.nodes[n], train) for n in nodes_]
            mask = 0
            for leg in legs:
                mask |= self.graph.mask(leg)
            chosen.append((len(routes), tv.ci))
            routes.append(Candidate(nodes=nodes_, legs=legs, mask=mask, revenue={tv.ci: revs}))
        status = Status.OPTIMAL if code == cp_model.OPTIMAL else Status.FEASIBLE
        return Packing(status, chosen, int(solver.best_objective_bound + 1e-6), stats, cands=routes)

    @staticmethod
    def _path(solver: cp_model.CpSolver, tv: _TrainVars) -> tuple[tuple[str, ...], tuple[Leg, ...]]:
        here = next(n for n, s in tv.start.items() if solver.boolean_value(s))
        nodes_, legs = [here], []
        out: dict[str, Leg] = {leg.a: leg for leg, y in tv.legs if solver.boolean_value(y)}
        while here in out:
            leg = out[here]
            legs.append(leg)
            here = leg.b
            nodes_.append(here)
        return tuple(nodes_), tuple(legs)
