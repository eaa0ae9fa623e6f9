"""The 1839 CP-SAT model: at most one route per train, no shared track, and an objective that
counts each revenue location once per company (the best value a chosen route earns there, or the
FLOOD reach), every train at the company's exchange marker, and the location bonus. The objective is
what the chosen routes earn in every solution, not only the optimal one: a solution the deadline
stops is checked by the evaluator against it (`recheck`)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.model.board import Board
from solver.model.cpsat_terms import best_value_once
from solver.model.legs import Leg
from solver.packing.pack import forbid_shared_track
from solver.rulesets.r_1839.rules import flood_trains, flood_value, is_location, location_bonus

Visit = tuple[cp_model.IntVar, int]  # (route literal, what the route earns at the location)


@dataclass(frozen=True)
class Candidate1839:
    """A legal route shape and, per train class that may run it, what it earns at each stop."""

    nodes: tuple[str, ...]
    legs: tuple[Leg, ...]
    bits: tuple[int, ...]
    pays: dict[int, list[int]]


class Model1839:
    """The packing model of one 1839 position; `chosen` reads a solution."""

    def __init__(self, board: Board, cands: list[Candidate1839], counts: list[int], reach: set[str]) -> None:
        self.board, self.cands = board, cands
        self.model = cp_model.CpModel()
        self.x = {(r, ci): self.model.new_bool_var(f"x{r}_{ci}") for r, c in enumerate(cands) for ci in c.pays}
        self._one_route_per_train(counts)
        forbid_shared_track(self.model, (("", cands[r].bits, v) for (r, _ci), v in self.x.items()))
        self.terms: list[tuple[int, cp_model.IntVar]] = []
        self.constant = 0
        self._location_terms(reach)
        self.upper = sum(c for c, _ in self.terms if c > 0) + self.constant  # every term that adds, set
        self.model.maximize(sum(c * v for c, v in self.terms) + self.constant)

    def _one_route_per_train(self, counts: list[int]) -> None:
        for r, c in enumerate(self.cands):
            if len(c.pays) > 1:
                self.model.add_at_most_one(self.x[(r, ci)] for ci in c.pays)
        for ci, count in enumerate(counts):
            self.model.add(sum(v for (_r, cj), v in self.x.items() if cj == ci) <= count)

    def _location_terms(self, reach: set[str]) -> None:
        """Each location pays once per company, at the best value; the own exchange marker once per train."""
        board = self.board
        visits: dict[str, list[Visit]] = defaultdict(list)
        for (r, ci), v in self.x.items():
            for nid, pay in zip(self.cands[r].nodes, self.cands[r].pays[ci]):
                visits[nid].append((v, pay))
        floods = flood_trains(board)
        bonus = location_bonus(board)
        for nid in set(visits) | reach:
            node = board.nodes[nid]
            if not is_location(node):
                continue
            base = flood_value(node, floods, reach)
            here = visits.get(nid, [])
            if node.exchange_owner == board.company:
                self.terms += [(pay, v) for v, pay in here if pay]
                self.constant += base * len(floods)
            else:
                self.constant += base
                self._best_value_once(nid, here, base)
            if bonus:
                self._location_bonus(nid, here, nid in reach, bonus)

    def _best_value_once(self, nid: str, here: list[Visit], base: int) -> None:
        """The best pay above `base` any chosen route earns at a location: one literal per distinct pay."""
        by_pay: dict[int, list[cp_model.IntVar]] = defaultdict(list)
        for v, pay in here:
            if pay > base:
                by_pay[pay].append(v)
        self.terms += best_value_once(self.model, by_pay.items(), f"w{nid}", base, exact=True)

    def _location_bonus(self, nid: str, here: list[Visit], flooded: bool, bonus: int) -> None:
        """+bonus once for a location any train (or the FLOOD reach) reaches."""
        if flooded:
            self.constant += bonus
        elif here:  # set exactly when a chosen route reaches it (a solution cut short is worth what it earns)
            seen = self.model.new_bool_var(f"s{nid}")
            self.model.add_max_equality(seen, [v for v, _ in here])
            self.terms.append((bonus, seen))

    def chosen(self, solver: cp_model.CpSolver) -> list[tuple[int, int]]:
        """The (candidate, class) pairs of a solution."""
        return sorted((r, ci) for (r, ci), v in self.x.items() if solver.value(v))
