"""Which route wins a BestRouteBonus whose winning changes the winner's own price (`award_prices`).

Where winning changes nothing, the run simply earns the largest bonus (`packing_terms`). Otherwise the
winner must be the route the award's rule picks: any qualifying route for `last` (the player orders the
run), one of the largest bonuses for `first_max` (ties: the first in run order, which the player picks),
one of the most visited stops for `most_visited_stops` (ties: the greatest train id, so a route of the
class whose greatest id is greatest, and within the class the player's pick). Here are the exact run
value of chosen options and the CP-SAT terms of the same rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver.modifiers.model import BestRouteBonus

Option = tuple[int, int]  # (candidate index, class index)


@dataclass(frozen=True)
class AwardEntry:
    """One option under the award: its bonus (0: it does not qualify), its visited stops as the award
    counts them, its class's greatest train id, and what winning adds to its value beside the bonus
    (None: it cannot win in a legal run)."""

    bonus: int
    count: int
    rank: str
    change: int | None


def _pool(award: BestRouteBonus, entries: Sequence[AwardEntry]) -> list[int]:
    """The qualifying entries the rule may give the award to."""
    qualifying = [i for i, e in enumerate(entries) if e.bonus > 0]
    if not qualifying or award.award == "last":
        return qualifying
    if award.award == "first_max":
        top = max(entries[i].bonus for i in qualifying)
        return [i for i in qualifying if entries[i].bonus == top]
    most = max(entries[i].count for i in qualifying)
    tied = [i for i in qualifying if entries[i].count == most]
    rank = max(entries[i].rank for i in tied)
    return [i for i in tied if entries[i].rank == rank]


def award_winner(award: BestRouteBonus, entries: Sequence[AwardEntry]) -> tuple[int | None, int] | None:
    """The best winner the rule allows among chosen options (None: none qualifies) and what the award adds
    with it (its bonus and change); None when every route the rule allows cannot win legally."""
    pool = _pool(award, entries)
    if not pool:
        return None, 0
    allowed = [i for i in pool if entries[i].change is not None]
    if not allowed:
        return None
    best = max(allowed, key=lambda i: (entries[i].bonus + (entries[i].change or 0), -i))
    return best, entries[best].bonus + (entries[best].change or 0)


def award_terms(model: cp_model.CpModel, award: BestRouteBonus, xs: dict[Option, Any],
                entry_of: Callable[[Option], AwardEntry]) -> list[tuple[int, Any]]:
    """CP-SAT terms of `award_winner`: a winner variable per option that may win, one winner exactly when a
    qualifying option runs, and the award's rule on which."""
    entries = {o: e for o in xs if (e := entry_of(o)).bonus > 0}
    if not entries:
        return []
    wins = {o: model.new_bool_var(f"wins_{o[0]}_{o[1]}") for o, e in entries.items() if e.change is not None}
    for o, w in wins.items():
        model.add_implication(w, xs[o])
    won = model.new_bool_var("award_won")
    model.add(sum(wins.values()) == won)
    for o in entries:
        model.add_implication(xs[o], won)
    if award.award in ("first_max", "most_visited_stops"):
        size = (lambda e: e.bonus) if award.award == "first_max" else (lambda e: e.count)
        winner_size = sum(size(entries[o]) * w for o, w in wins.items())
        for o, e in entries.items():  # the winner is one of the largest
            model.add(winner_size >= size(e)).only_enforce_if(xs[o])
    if award.award == "most_visited_stops":  # ties go to the class with the greatest train id
        running: dict[tuple[int, str], Any] = {}
        for o, e in entries.items():
            y = running.get((e.count, e.rank))
            if y is None:
                y = running[(e.count, e.rank)] = model.new_bool_var(f"runs_{e.count}_{len(running)}")
            model.add_implication(xs[o], y)
        for o, w in wins.items():
            e = entries[o]
            for (count, rank), y in running.items():
                if count == e.count and rank > e.rank:
                    model.add_implication(w, ~y)
    return [(entries[o].bonus + (entries[o].change or 0), w) for o, w in wins.items()]
