"""Which route wins a BestRouteBonus whose winning changes the winner's own price (`award_prices`).

Where winning changes nothing, the run simply earns the largest bonus (`packing_terms`). Otherwise the
winner must be the route the award's rule picks: any qualifying route for `last` (the player orders the
run), one of the largest bonuses for `first_max` (ties: the first in run order, which the player picks),
one of the most visited stops for `most_visited_stops` (ties: the greatest train id; the player numbers
the trains of a class as he likes, so a tied route wins when its class's greatest id is above as many ids
of each other class as that class has tied routes). Here are the exact run value of chosen options and
the CP-SAT terms of the same rule.
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
    counts them, its train class, and what winning adds to its value beside the bonus (None: it cannot
    win in a legal run)."""

    bonus: int
    count: int
    klass: int
    change: int | None
    must_win: bool = False  # legal only as the winner


def below(ids: Sequence[Sequence[str]], klass: int, top: str) -> int:
    """How many train ids of class `klass` are below `top` (`ids`: each class's train ids)."""
    return sum(1 for t in ids[klass] if t < top)


def may_take_tie(ids: Sequence[Sequence[str]], klass: int, tied: Sequence[int]) -> bool:
    """Whether a route of class `klass` can hold the greatest id among tied routes of these classes (one
    entry per tied route, its own included): its class's greatest id above as many ids of each other
    class as that class has tied routes."""
    top = max(ids[klass])
    return all(tied.count(other) <= below(ids, other, top) for other in set(tied) if other != klass)


def _pool(award: BestRouteBonus, entries: Sequence[AwardEntry], ids: Sequence[Sequence[str]]) -> list[int]:
    """The qualifying entries the rule may give the award to."""
    qualifying = [i for i, e in enumerate(entries) if e.bonus > 0]
    if not qualifying or award.award == "last":
        return qualifying
    if award.award == "first_max":
        top = max(entries[i].bonus for i in qualifying)
        return [i for i in qualifying if entries[i].bonus == top]
    most = max(entries[i].count for i in qualifying)
    tied = [i for i in qualifying if entries[i].count == most]
    classes = [entries[i].klass for i in tied]
    return [i for i in tied if may_take_tie(ids, entries[i].klass, classes)]


def award_winner(award: BestRouteBonus, entries: Sequence[AwardEntry], ids: Sequence[Sequence[str]]
                 ) -> tuple[int | None, int] | None:
    """The best winner the rule allows among chosen options (None: none qualifies) and what the award adds
    with it (its bonus and change); None when every route the rule allows cannot win legally. `ids`: each
    class's train ids."""
    pool = _pool(award, entries, ids)
    if not pool:
        return None, 0
    allowed = [i for i in pool if entries[i].change is not None]
    must = [i for i, e in enumerate(entries) if e.must_win]
    if must:  # a route legal only as the winner must win
        allowed = [i for i in allowed if i == must[0]] if len(must) == 1 else []
    if not allowed:
        return None
    best = max(allowed, key=lambda i: (entries[i].bonus + (entries[i].change or 0), -i))
    return best, entries[best].bonus + (entries[best].change or 0)


def award_terms(model: cp_model.CpModel, award: BestRouteBonus, xs: dict[Option, Any],
                entry_of: Callable[[Option], AwardEntry], ids: Sequence[Sequence[str]]) -> list[tuple[int, Any]]:
    """CP-SAT terms of `award_winner`: a winner variable per option that may win, one winner exactly when a
    qualifying option runs, and the award's rule on which."""
    entries = {o: e for o in xs if (e := entry_of(o)).bonus > 0}
    if not entries:
        return []
    wins = {o: model.new_bool_var(f"wins_{o[0]}_{o[1]}") for o, e in entries.items() if e.change is not None}
    for o, w in wins.items():
        model.add_implication(w, xs[o])
        if entries[o].must_win:  # legal only as the winner
            model.add_implication(xs[o], w)
    for o, e in entries.items():
        if e.must_win and o not in wins:
            model.add(xs[o] == 0)
    won = model.new_bool_var("award_won")
    model.add(sum(wins.values()) == won)
    for o in entries:
        model.add_implication(xs[o], won)
    if award.award in ("first_max", "most_visited_stops"):
        size = (lambda e: e.bonus) if award.award == "first_max" else (lambda e: e.count)
        winner_size = sum(size(entries[o]) * w for o, w in wins.items())
        for o, e in entries.items():  # the winner is one of the largest
            model.add(winner_size >= size(e)).only_enforce_if(xs[o])
    if award.award == "most_visited_stops":  # ties go to the greatest train id (`may_take_tie`)
        tied: dict[tuple[int, int], list[Any]] = {}  # (visited stops, class) -> its options
        for o, e in entries.items():
            tied.setdefault((e.count, e.klass), []).append(xs[o])
        for o, w in wins.items():
            e = entries[o]
            top = max(ids[e.klass])
            for (count, klass), runs in tied.items():
                room = below(ids, klass, top)
                if count == e.count and klass != e.klass and len(runs) > room:
                    model.add(sum(runs) <= room).only_enforce_if(w)
    return [(entries[o].bonus + (entries[o].change or 0), w) for o, w in wins.items()]
