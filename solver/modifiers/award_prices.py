"""What winning a BestRouteBonus changes in a route's own price.

FORMAT.md ("Lists and bonuses together"): a list-distance train's paying stops are the largest size
whose best value is positive, where the value counts an awarded BestRouteBonus. Where a negative
bonus leaves a larger size worth nothing or less without the award, the route that wins it may count
more stops than its price without the award says, and earn less or more. The optimiser prices each
option without awards; this module finds the options whose price the award changes, so that the run
rules (`packing_terms.RunTerms`) can add the change to the route that wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from solver.model.board import Board, Train
from solver.modifiers.model import BestRouteBonus
from solver.modifiers.route_value import RouteMods, RouteValue, path_hexes_both, route_mods, route_value
from solver.modifiers.settle import best_route_bonus


class Candidate(Protocol):
    """What this module reads of a candidate route (`routes.pricing.Candidate`)."""

    nodes: tuple[str, ...]
    legs: tuple[Any, ...]  # each with the `hexes` it passes
    revenue: dict[int, list[int]]


@dataclass(frozen=True)
class AwardChange:
    """How an option earns when it wins the award: `change` is added to its value and the award (None:
    no legal run of the route wins it), `back` when it earns that run the other way round, `must_win`
    when the route is legal only as the winner (a candidate worth nothing otherwise: `award_only`)."""

    change: int | None
    back: bool = False
    must_win: bool = False


def option_key(cand: Any, ci: int) -> tuple:
    """An option's key that outlives the candidate list (pruning copies candidates): its stops, its legs
    and its class."""
    return cand.nodes, tuple(map(id, getattr(cand, "legs", ()))), ci


def _worth(v: RouteValue, with_subsidy: bool) -> int | None:
    """A priced route's value as the candidates hold it (stops, bonuses, the subsidy when counted); None
    when it breaks a route rule."""
    if v.findings:
        return None
    return v.total + (v.subsidy if with_subsidy else 0)


def _may_change(train: Train, cand: Candidate, ci: int) -> bool:
    """Whether winning can change what the route counts: a list train that counts fewer stops than it could
    (under CountedStops, whose choice the award does not move, a route that pays too little is legal only
    as the winner); a stop that pays nothing counts as one not counted, which only asks for a full pricing."""
    if train.unit != "stops_by_type":
        return False
    counted = sum(1 for v in cand.revenue[ci][:len(cand.nodes)] if v)
    return counted < min(sum(r.pay for r in train.rows), len(cand.nodes))


def award_changes(board: Board, cands: Sequence[Candidate], classes: Sequence[Train], with_subsidy: bool
                  ) -> dict[tuple, AwardChange]:
    """The options (by `option_key`) whose price winning the board's BestRouteBonus changes, with the change.
    With several awards, each alone and all those an option qualifies for together are tried: any change
    there makes the optimiser refuse the board (`RunTerms.set_award_changes`) rather than misprice it.
    Empty on most boards: it takes a list train, an award and a bonus that can make a larger choice of
    stops worth nothing or less (or a route rule that only a larger choice meets)."""
    awards = [m for m in board.modifiers if isinstance(m, BestRouteBonus)]
    if not awards or not any(t.unit == "stops_by_type" for t in classes):
        return {}
    mods = route_mods(board.modifiers)
    out: dict[tuple, AwardChange] = {}
    for cand in cands:
        for ci in cand.revenue:
            train = classes[ci]
            if not _may_change(train, cand, ci):
                continue
            stops = [board.nodes[n] for n in cand.nodes]
            hexes = tuple(n.hex for n in stops)
            kinds = tuple(n.kind for n in stops)
            bonus = [best_route_bonus(m, hexes, kinds, train.name) for m in awards]
            amounts = {b for b in bonus if b > 0}
            if len(amounts) > 1 or sum(1 for b in bonus if b > 0) > 1:
                amounts.add(sum(b for b in bonus if b > 0))
            for amount in sorted(amounts):
                found = _change(board, train, cand, ci, amount, with_subsidy, mods)
                if found.change != 0 or found.back or found.must_win:  # (as much, but only the other way round
                    out[option_key(cand, ci)] = found  # or only as the winner)
    return out


def _change(board: Board, train: Train, cand: Candidate, ci: int, award: int, with_subsidy: bool,
            mods: RouteMods | None) -> AwardChange:
    """The change winning an award of `award` makes to the option's value, either way round."""
    ahead_hexes, back_hexes = path_hexes_both(cand.legs, [board.nodes[n] for n in cand.nodes])
    both = ((cand.nodes, ahead_hexes, False), (cand.nodes[::-1], back_hexes, True))
    ways = [(_worth(route_value(board, train, nodes, mods, hexes, award=award), with_subsidy), back)
            for nodes, hexes, back in both]
    legal = [(v, back) for v, back in ways if v is not None]
    if not legal:
        return AwardChange(None)
    value, back = max(legal, key=lambda e: (e[0], not e[1]))
    must_win = all(route_value(board, train, nodes, mods, hexes).findings for nodes, hexes, _ in both)
    return AwardChange(value - sum(cand.revenue[ci]), back, must_win)
