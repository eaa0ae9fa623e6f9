"""The modifiers' run rules inside the optimiser: exact run values, bounds and CP-SAT terms.

A packing option is a (candidate, train class) pair; its value is the sum of the candidate's
revenue list for that class (stops plus route bonuses). On top of the options' sum:

- BestRouteBonus: the run earns max(bonus) over its qualifying routes (FORMAT.md). CP-SAT: one
  indicator per distinct bonus value b, true only if some option with bonus b is chosen, at most
  one indicator per modifier, objective + b. The evaluator's award rule gives the same amount.
- DropLowestRoute (min_routes k): drop indicators d <= x on the options, sum(d) = y, and y is true
  exactly when k or more options are chosen; objective - sum(v * d). The maximiser drops the
  lowest chosen route, which is the rule. (The shortcut "best run of at most k - 1 routes" is not
  used: it is wrong together with a RequiredRoute, whose route may be the lowest.)
- RequiredRoute: a non-empty run holds a qualifying option: sum(all x) <= N * sum(qualifying x).

The optimiser does not combine BestRouteBonus with DropLowestRoute (which route the award goes to
then changes which route is lowest); such a board is refused with a BoardError.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Protocol

from ortools.sat.python import cp_model

from solver.board import Board
from solver.errors import BoardError
from solver.modifiers.model import BestRouteBonus, ComboBonus, RequiredRoute, StopBonus
from solver.modifiers.run_terms import best_route_bonus, drop_threshold, meets_required

Option = tuple[int, int]  # (candidate index, class index)


class Cand(Protocol):
    nodes: tuple[str, ...]
    revenue: dict[int, list[int]]


class RunTerms:
    """The run rules of one board for the optimiser."""

    def __init__(self, board: Board) -> None:
        mods = board.modifiers
        self.hex_of = {nid: n.hex for nid, n in board.nodes.items()}
        self.best = [m for m in mods if isinstance(m, BestRouteBonus)]
        self.required = [m for m in mods if isinstance(m, RequiredRoute)]
        drop = drop_threshold(mods)
        self.drop_at = drop[0] if drop else None
        if self.best and self.drop_at is not None:
            raise BoardError("modifiers", "the optimiser does not combine BestRouteBonus with DropLowestRoute")

    def hexes(self, cand: Cand) -> tuple[str, ...]:
        return tuple(self.hex_of[n] for n in cand.nodes)

    def awards(self, cand: Cand) -> list[int]:
        """The option's bonus under each BestRouteBonus (0: it does not qualify)."""
        hexes = self.hexes(cand)
        return [best_route_bonus(m, hexes) for m in self.best]

    def qualifies(self, cand: Cand) -> bool:
        """Whether the route is the run of some RequiredRoute (pruning keeps such routes)."""
        hexes = self.hexes(cand)
        return any(meets_required(m, hexes) for m in self.required)

    @property
    def route_cap(self) -> int | None:
        """Most routes a greedy run should take: with a drop from k routes, k - 1."""
        return None if self.drop_at is None else self.drop_at - 1

    def value(self, cands: Sequence[Cand], chosen: Sequence[Option]) -> int | None:
        """The exact run value of chosen options, or None when the run breaks a RequiredRoute."""
        values = [sum(cands[r].revenue[ci]) for r, ci in chosen]
        total = sum(values)
        if chosen:
            for m in self.required:
                if not any(meets_required(m, self.hexes(cands[r])) for r, _ in chosen):
                    return None
        for k in range(len(self.best)):
            total += max((self.awards(cands[r])[k] for r, _ in chosen), default=0)
        if self.drop_at is not None and chosen and len(chosen) >= self.drop_at:
            total -= min(values)
        return total

    def upper_extra(self, cands: Sequence[Cand]) -> int:
        """What the run rules can add to a conflict-free sum of options: the largest bonus each."""
        out = 0
        for k in range(len(self.best)):
            out += max((self.awards(c)[k] for c in cands if c.revenue), default=0)
        return out

    def add_to_model(self, model: cp_model.CpModel, xs: dict[Option, Any],
                     cands: Sequence[Cand]) -> list[tuple[int, Any]]:
        """Constraints and objective terms `(coefficient, variable)` of the run rules."""
        terms: list[tuple[int, Any]] = []
        for k in range(len(self.best)):
            by_value: dict[int, list[Any]] = defaultdict(list)
            for (r, _ci), x in xs.items():
                b = self.awards(cands[r])[k]
                if b > 0:
                    by_value[b].append(x)
            picks = []
            for b, lits in sorted(by_value.items()):
                w = model.NewBoolVar(f"best{k}_{b}")
                model.AddBoolOr(lits).OnlyEnforceIf(w)
                picks.append(w)
                terms.append((b, w))
            if len(picks) > 1:
                model.AddAtMostOne(picks)
        everything = list(xs.values())
        n_max = len(everything)
        for m in self.required:
            good = [x for (r, _), x in xs.items() if meets_required(m, self.hexes(cands[r]))]
            model.Add(sum(everything) <= n_max * sum(good))
        if self.drop_at is not None and everything:
            y = model.NewBoolVar("drop")
            model.Add(sum(everything) >= self.drop_at).OnlyEnforceIf(y)
            model.Add(sum(everything) <= self.drop_at - 1).OnlyEnforceIf(y.Not())
            drops = []
            for (r, ci), x in xs.items():
                d = model.NewBoolVar(f"d{r}_{ci}")
                model.AddImplication(d, x)
                drops.append(d)
                terms.append((-sum(cands[r].revenue[ci]), d))
            model.Add(sum(drops) == y)
        return terms

    def seeds(self, order: Sequence[tuple[int, int, int]], cands: Sequence[Cand], how_many: int) -> list:
        """Greedy start options that satisfy the RequiredRoutes (the best few qualifying ones)."""
        if not self.required:
            return []
        return [o for o in order if self.qualifies(cands[o[1]])][:how_many]


def run_terms(board: Board) -> RunTerms | None:
    """The run rules of the board for the optimiser, or None when it has none."""
    if any(isinstance(m, (BestRouteBonus, RequiredRoute)) for m in board.modifiers) or \
            drop_threshold(board.modifiers) is not None:
        return RunTerms(board)
    return None


def modifier_bound(board: Board) -> int:
    """A generous bound on everything the modifiers can add to a run (for incomplete searches)."""
    trains = len(board.trains)
    top_stop = max((max([n.revenue, *n.revenue_by_train.values()]) for n in board.nodes.values()), default=0)
    out = 0
    for m in board.modifiers:
        if isinstance(m, StopBonus):
            per = sum(top_stop if v == "stop_revenue" else int(v) for _, v in m.hexes)
            out += per * (len(board.nodes) if m.count == "per_stop" else 1) * trains
        elif isinstance(m, ComboBonus):
            out += (sum(max(v for _, v in s) for s in m.sets) if m.amount == "sum" else int(m.amount)) * trains
        elif isinstance(m, BestRouteBonus):
            out += max(m.amount, m.per_visited_stop * len(board.nodes))
    return out
