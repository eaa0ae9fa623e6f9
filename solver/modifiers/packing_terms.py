"""The modifiers' run rules inside the optimiser: exact run values, bounds and CP-SAT terms.

A packing option is a (candidate, train class) pair; its value is the sum of the candidate's
revenue list for that class (stops plus route bonuses, and the subsidy when the objective counts
it). On top of the options' sum:

- BestRouteBonus: the run earns max(bonus) over its qualifying routes (FORMAT.md; for an award
  that always goes to the largest bonus). CP-SAT: one indicator per distinct bonus value b, true
  only if some option with bonus b is chosen, at most one indicator per modifier, objective + b.
  The evaluator's award rule gives the same amount. (When awards are the only run rules, the
  branch and bound of `solver.packing.award_pack` prices them first, as routes' award twins.)
  Two awards "last" whose bonus varies between routes cannot always both take their largest bonus:
  whichever route runs later takes both when both routes qualify for both. CP-SAT then picks a
  winner per award among the chosen options, one winner when each qualifies for the other award;
  the answer's run order comes from `settle.order_for_awards`. More than two are refused.
  Where winning changes a list train's own price (its paying stops count the award: `award_prices`),
  the award goes to the route its rule picks, with the change (`award_winner`); such a board may hold
  one BestRouteBonus only.
- DropLowestRoute (min_routes k): drop indicators d <= x on the options, sum(d) = y, and y is true
  exactly when k or more options are chosen; objective - sum(v * d). The maximiser drops the
  lowest chosen route, which is the rule. (The shortcut "best run of at most k - 1 routes" is not
  used: it is wrong together with a RequiredRoute, whose route may be the lowest.)
- RequiredRoute: a non-empty run holds a qualifying option: sum(all x) <= N * sum(qualifying x).
- RouteSetRule: at most `count` chosen options of admitted trains stop in its hexes.
- StopPaysOnce: a stop (with `groups`: a set of nodes that share a group) pays once over the run.
  The options' own stop revenues are taken out of the objective and each such pay unit earns its
  value once, through an indicator y <= sum of the options that count it. This is exact when every
  node of a unit pays the same to every train and every stop of a route counts; other boards are
  refused with a BoardError (the order of the routes would then decide what a stop pays).

The optimiser does not combine BestRouteBonus with DropLowestRoute (which route the award goes to
then changes which route is lowest); such a board is refused with a BoardError, as is a
BestRouteBonus whose award need not go to the largest bonus (`most_visited_stops` with
`per_distinct`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from ortools.sat.python import cp_model

from solver.model.board import Board, Train
from solver.model.cpsat_terms import best_value_once
from solver.model.errors import BoardError
from solver.modifiers.award_prices import AwardChange, option_key
from solver.modifiers.award_winner import AwardEntry, award_terms, award_winner
from solver.modifiers.model import BestRouteBonus, ComboBonus, RequiredRoute, RouteSetRule, StopBonus, StopPaysOnce
from solver.modifiers.settle import (
    award_is_max,
    award_stop_count,
    best_last_winners,
    best_route_bonus,
    bonus_varies,
    drop_threshold,
    meets_required,
    visits_set_hexes,
)
from solver.modifiers.sharing import stop_pays_once
from solver.rules.train_rules import stop_revenue

Option = tuple[int, int]  # (candidate index, class index)
EVERY_STOP_COUNTS = ("stops", "hexes", "none")
MAX_VARYING_LAST = 2  # awards "last" whose bonus varies; more would need an order search in CP-SAT


class Cand(Protocol):
    nodes: tuple[str, ...]
    revenue: dict[int, list[int]]
    subsidy: dict[int, int]


def own_stop_pay(cand: Cand, ci: int) -> int:
    """What an option's own stops pay (its revenue list's first entries, one per stop), which StopPaysOnce
    takes out of the run's value to count each pay unit once instead."""
    return sum(cand.revenue[ci][:len(cand.nodes)])


def units_paid(units: dict[str, tuple[str, int]], nodes: Iterable[str]) -> dict[str, int]:
    """The pay units (`pay_units`) that these stops count, each once, with what it pays."""
    return dict(units[n] for n in nodes)


def pay_units(board: Board, rule: StopPaysOnce, classes: Sequence[Train]) -> dict[str, tuple[str, int]]:
    """Node id -> (its pay unit, what it pays) under StopPaysOnce, or a BoardError where the run order
    would decide what a stop pays (list trains, values that differ by train or within a unit) or a stop
    pays less than nothing."""
    if any(t.unit not in EVERY_STOP_COUNTS for t in classes):
        raise BoardError("modifiers", "the optimiser prices StopPaysOnce only for trains on which every stop pays "
                                      "(a list train's paying stops would depend on the run order)")
    stops = [n for n in board.nodes.values() if n.kind != "junction"]
    values = {}
    for n in stops:
        paid = {stop_revenue(n, t) for t in classes}
        if len(paid) > 1:
            raise BoardError("modifiers", f"StopPaysOnce: {n.id} pays differently to different trains; the run order "
                                          "would decide what it pays, which the optimiser does not search")
        values[n.id] = paid.pop() if paid else 0
        if values[n.id] < 0:  # what a route adds to a run would then exceed what it earns alone: no bound holds
            raise BoardError("modifiers", f"StopPaysOnce: {n.id} pays less than nothing; the optimiser prices "
                                          "StopPaysOnce only where every stop pays nothing or more")
    unit = {n.id: n.id for n in stops}
    if rule.groups:
        by_group: dict[str, list[str]] = defaultdict(list)
        for n in stops:
            for g in n.groups:
                by_group[g].append(n.id)
        for members in by_group.values():  # a group's nodes pay once together
            root = unit[members[0]]
            for m in members:
                old = unit[m]
                for k, v in unit.items():
                    if v == old:
                        unit[k] = root
        for root in set(unit.values()):
            members = [k for k, v in unit.items() if v == root]
            if len(members) > 1:
                groups = [set(board.nodes[m].groups) for m in members]
                if any(not (a & b) for i, a in enumerate(groups) for b in groups[i + 1:]) or \
                        len({values[m] for m in members}) > 1:
                    raise BoardError("modifiers", f"StopPaysOnce with groups: the nodes {', '.join(sorted(members))} "
                                                  "do not all share one group at one value; the run order would "
                                                  "decide what they pay, which the optimiser does not search")
    return {nid: (unit[nid], values[nid]) for nid in unit}


class RunTerms:
    """The run rules of one board for the optimiser (`classes`: one train per class index)."""

    def __init__(self, board: Board, classes: Sequence[Train]) -> None:
        mods = board.modifiers
        self.hex_of = {nid: n.hex for nid, n in board.nodes.items()}
        self.kind_of = {nid: n.kind for nid, n in board.nodes.items()}
        self.names = [t.name for t in classes]
        self.best = [m for m in mods if isinstance(m, BestRouteBonus)]
        self.required = [m for m in mods if isinstance(m, RequiredRoute)]
        self.set_rules = [m for m in mods if isinstance(m, RouteSetRule)]
        once = stop_pays_once(mods)
        self.units = pay_units(board, once, classes) if once is not None else None
        drop = drop_threshold(mods)
        self.drop_at = drop[0] if drop else None
        if self.best and self.drop_at is not None:
            raise BoardError("modifiers", "the optimiser does not combine BestRouteBonus with DropLowestRoute")
        for m in self.best:
            if not award_is_max(m):
                raise BoardError("modifiers", f"the optimiser does not price a BestRouteBonus ({m.label}) whose award "
                                              "may go to a route with a smaller bonus (most_visited_stops with "
                                              "per_distinct)")
        self.varying = [k for k, m in enumerate(self.best) if bonus_varies(m)]
        # awards whose winners the run order decides together (one alone always goes to its largest bonus)
        self.ordered = self.varying if len(self.varying) > 1 else []
        if len(self.varying) > MAX_VARYING_LAST:
            raise BoardError("modifiers", f"the optimiser prices at most {MAX_VARYING_LAST} BestRouteBonus with award "
                                          "\"last\" whose bonus differs between routes (the run order decides which "
                                          "route takes each)")
        if self.units is not None and self.drop_at is not None:
            raise BoardError("modifiers", "the optimiser does not combine StopPaysOnce with DropLowestRoute")
        self.changes: dict[tuple, AwardChange] = {}  # options whose price winning the award changes (`option_key`)
        self.ids: list[list[str]] = []  # per class, its train ids (a tie on visited stops goes to the greatest)

    def set_award_changes(self, changes: dict[tuple, AwardChange], ids: Sequence[Sequence[str]]) -> None:
        """The options whose price winning the award changes (`award_prices.award_changes`, keyed by
        `option_key`): the run's value and model then give the award as its rule does (`award_winner`)."""
        if changes and len(self.best) != 1:
            raise BoardError("modifiers", "the optimiser prices a route whose paying stops change when it wins a "
                                          "BestRouteBonus only on a board with one BestRouteBonus")
        self.changes, self.ids = changes, [sorted(c) for c in ids]

    def entry(self, cand: Cand, ci: int) -> AwardEntry:
        """The option under the one award of a board with award changes."""
        m = self.best[0]
        hexes = self.hexes(cand)
        kinds = tuple(self.kind_of[n] for n in cand.nodes)
        found = self.changes.get(option_key(cand, ci))
        return AwardEntry(best_route_bonus(m, hexes, kinds, self.names[ci]), award_stop_count(m, hexes, kinds),
                          ci, 0 if found is None else found.change, found is not None and found.must_win)

    def winner(self, cands: Sequence[Cand], chosen: Sequence[Option]) -> tuple[int | None, int] | None:
        """On a board with award changes: the chosen option that wins (its place in `chosen`) and what the
        award adds; None when no legal run gives it (`award_winner`)."""
        return award_winner(self.best[0], [self.entry(cands[r], ci) for r, ci in chosen], self.ids)

    def hexes(self, cand: Cand) -> tuple[str, ...]:
        return tuple(self.hex_of[n] for n in cand.nodes)

    def awards(self, cand: Cand, ci: int) -> list[int]:
        """The option's bonus under each BestRouteBonus (0: it does not qualify)."""
        hexes = self.hexes(cand)
        kinds = tuple(self.kind_of[n] for n in cand.nodes)
        return [best_route_bonus(m, hexes, kinds, self.names[ci]) for m in self.best]

    def qualifies(self, cand: Cand) -> bool:
        """Whether the route is the run of some RequiredRoute for some class (pruning keeps such routes)."""
        hexes = self.hexes(cand)
        return any(meets_required(m, hexes, self.names[ci]) for m in self.required for ci in cand.revenue)

    @property
    def route_cap(self) -> int | None:
        """Most routes a greedy run should take: with a drop from k routes, k - 1."""
        return None if self.drop_at is None else self.drop_at - 1

    def value(self, cands: Sequence[Cand], chosen: Sequence[Option]) -> int | None:
        """The exact run value of chosen options, or None when the run breaks a RequiredRoute or a
        RouteSetRule."""
        values = [sum(cands[r].revenue[ci]) for r, ci in chosen]
        total = sum(values)
        revenues = [v - cands[r].subsidy.get(ci, 0) for v, (r, ci) in zip(values, chosen)]  # a drop keeps subsidies
        if chosen:
            for m in self.required:
                if not any(meets_required(m, self.hexes(cands[r]), self.names[ci]) for r, ci in chosen):
                    return None
        for m in self.set_rules:
            if sum(1 for r, ci in chosen if visits_set_hexes(m, self.hexes(cands[r]), self.names[ci])) > m.count:
                return None
        bonus = [self.awards(cands[r], ci) for r, ci in chosen]
        if self.changes:
            won = self.winner(cands, chosen)
            if won is None:
                return None
            total += won[1]
        for k in range(len(self.best)):
            if k not in self.ordered and not self.changes:
                total += max((b[k] for b in bonus), default=0)
        if self.ordered:  # the run order decides which route takes each
            total += best_last_winners([[b[k] for b in bonus] for k in self.ordered])[0]
        if self.units is not None:  # each pay unit once
            total -= sum(own_stop_pay(cands[r], ci) for r, ci in chosen)
            total += sum(units_paid(self.units, [n for r, _ in chosen for n in cands[r].nodes]).values())
        if self.drop_at is not None and chosen and len(chosen) >= self.drop_at:
            total -= min(revenues)
        return total

    def upper_extra(self, cands: Sequence[Cand]) -> int:
        """What the run rules can add to a conflict-free sum of options: the largest bonus each."""
        if self.changes:  # the award and what winning may add
            return max((e.bonus + max(e.change or 0, 0) for c in cands for ci in c.revenue
                        if (e := self.entry(c, ci)).bonus > 0), default=0)
        out = 0
        for k in range(len(self.best)):
            out += max((self.awards(c, ci)[k] for c in cands for ci in c.revenue), default=0)
        return out

    def add_to_model(self, model: cp_model.CpModel, xs: dict[Option, Any],
                     cands: Sequence[Cand]) -> list[tuple[int, Any]]:
        """Constraints and objective terms `(coefficient, variable)` of the run rules."""
        terms: list[tuple[int, Any]] = []
        if self.ordered:
            terms += self._two_last_awards(model, xs, cands)
        if self.changes:
            terms += award_terms(model, self.best[0], xs, lambda o: self.entry(cands[o[0]], o[1]), self.ids)
        for k in range(len(self.best)):
            if k in self.ordered or self.changes:
                continue
            by_value: dict[int, list[Any]] = defaultdict(list)
            for (r, ci), x in xs.items():
                b = self.awards(cands[r], ci)[k]
                if b > 0:
                    by_value[b].append(x)
            terms += best_value_once(model, sorted(by_value.items()), f"best{k}")
        everything = list(xs.values())
        n_max = len(everything)
        for m in self.required:
            good = [x for (r, ci), x in xs.items() if meets_required(m, self.hexes(cands[r]), self.names[ci])]
            model.add(sum(everything) <= n_max * sum(good))
        for m in self.set_rules:
            visiting = [x for (r, ci), x in xs.items() if visits_set_hexes(m, self.hexes(cands[r]), self.names[ci])]
            if len(visiting) > m.count:
                model.add(sum(visiting) <= m.count)
        if self.units is not None:
            counting: dict[str, list[Any]] = defaultdict(list)
            for (r, ci), x in xs.items():
                terms.append((-own_stop_pay(cands[r], ci), x))
                for n in cands[r].nodes:
                    counting[self.units[n][0]].append(x)
            value_of = {u: v for u, v in self.units.values()}
            for u, lits in counting.items():
                if value_of[u] > 0:
                    y = model.new_bool_var(f"unit_{u}")
                    model.add_bool_or(lits).only_enforce_if(y)
                    terms.append((value_of[u], y))
        if self.drop_at is not None and everything:
            y = model.new_bool_var("drop")
            model.add(sum(everything) >= self.drop_at).only_enforce_if(y)
            model.add(sum(everything) <= self.drop_at - 1).only_enforce_if(~y)
            drops = []
            for (r, ci), x in xs.items():
                d = model.new_bool_var(f"d{r}_{ci}")
                model.add_implication(d, x)
                drops.append(d)
                terms.append((-(sum(cands[r].revenue[ci]) - cands[r].subsidy.get(ci, 0)), d))
            model.add(sum(drops) == y)
        return terms

    def _two_last_awards(self, model: cp_model.CpModel, xs: dict[Option, Any],
                         cands: Sequence[Cand]) -> list[tuple[int, Any]]:
        """Two awards "last" whose bonus varies (`ordered`): a winner per award among the chosen options,
        and never two winners that both qualify for both awards (whichever ran later would take both)."""
        terms: list[tuple[int, Any]] = []
        wins: list[dict[Option, Any]] = [{}, {}]
        bonus = {o: self.awards(cands[o[0]], o[1]) for o in xs}
        for side, award in enumerate(self.ordered):
            for o, x in xs.items():
                if bonus[o][award] > 0:
                    z = wins[side][o] = model.new_bool_var(f"win{award}_{o[0]}_{o[1]}")
                    model.add_implication(z, x)
                    terms.append((bonus[o][award], z))
            model.add_at_most_one(wins[side].values())
        both = [o for o in xs if all(bonus[o][award] > 0 for award in self.ordered)]
        if len(both) > 1:
            second_in_both = model.new_bool_var("second_award_to_one_in_both")
            model.add(sum(wins[1][o] for o in both) == second_in_both)
            for o in both:  # the first award to o, which qualifies for both: the second to o or outside `both`
                model.add(wins[0][o] + second_in_both - wins[1][o] <= 1)
        return terms

    def seeds(self, order: Sequence[tuple[int, int, int]], cands: Sequence[Cand], how_many: int) -> list:
        """Greedy start options that satisfy the RequiredRoutes (the best few qualifying ones)."""
        if not self.required:
            return []
        return [o for o in order if self.qualifies(cands[o[1]])][:how_many]


def run_terms(board: Board, classes: Sequence[Train]) -> RunTerms | None:
    """The run rules of the board for the optimiser, or None when it has none."""
    if any(isinstance(m, (BestRouteBonus, RequiredRoute, RouteSetRule, StopPaysOnce)) for m in board.modifiers) or \
            drop_threshold(board.modifiers) is not None:
        return RunTerms(board, classes)
    return None


def modifier_bound(board: Board) -> int:
    """A generous bound on everything the modifiers can add to a run (for incomplete searches)."""
    trains = len(board.trains)
    top_stop = max((max([n.revenue, *n.revenue_by_train.values()]) for n in board.nodes.values()), default=0)
    out = 0
    for m in board.modifiers:
        if isinstance(m, StopBonus):
            per = sum(max(0, top_stop if v == "stop_revenue" else 0 if v == "-stop_revenue" else int(v))
                      for _, v in m.table)
            out += per * (len(board.nodes) if m.count == "per_stop" else 1) * trains
        elif isinstance(m, ComboBonus):
            out += max(0, sum(max(v for _, v in s) for s in m.sets) if m.amount == "sum" else int(m.amount)) * trains
        elif isinstance(m, BestRouteBonus):
            out += max(m.amount, m.per_visited_stop * len(board.nodes), m.per_distinct * len(m.distinct_hex_values))
    return out
