"""The best run of a company with two trains: a lower bound the greedy packing can miss.

The greedy packing takes the best route first, and on a board where the best routes of both trains
meet at one place it pairs that route with a poor one. With two trains the best run is the best pair
of routes that share no track: for each route of the first train, best first, the best route of the
second that shares no track with it is one look-up in a bit set per track key (the second train's
routes, best first, that use the key). The search ends once a route of the first train, with the
best route of the second, cannot beat the pair found. Partners are looked for among the second
train's best routes only, and the first train's routes are looked at up to a limit: the pair found
is a run (a lower bound) either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from solver.model.legs import Leg
from solver.packing.outcome import Choice
from solver.routes.bit_table import users_per_bit
from solver.routes.leg_graph import mask_bits
from solver.routes.pricing import Candidate

MAX_FIRST = 4096  # routes of the first train looked at, at most (the pair found so far is still a run)
MAX_SECOND = 4096  # the best routes of the second train a partner is looked for among


LegBits = Callable[[Leg], Sequence[int]]


def best_pair(cands: list[Candidate], counts: list[int], groups: list[str], beat: int = 0,
              leg_bits: LegBits | None = None) -> list[Choice] | None:
    """The best run of two trains (two classes of one train each, or one class of two), as (candidate,
    class) choices; None when the company does not run exactly two trains on one track group. With
    `beat` (a run known to earn that much), a pair that cannot earn more is not looked for: the answer
    is then the best run only when that run earns more than `beat`. `leg_bits`: a leg's track bits (the
    routes' legs hold their track: the partners a leg excludes are worked out once per leg, and routes
    share legs; without it, or for a route without legs, its bits are read from its mask and kept in
    `Candidate.bits`); the partners' track is read from their masks at once (`bit_table.users_per_bit`)."""
    classes = [ci for ci, n in enumerate(counts) if n]
    if sum(counts) != 2 or len({groups[ci] for ci in classes}) != 1:
        return None
    first_ci, second_ci = classes[0], classes[-1]
    firsts = _by_value(cands, first_ci)
    seconds = firsts if second_ci == first_ci else _by_value(cands, second_ci)
    singles = [(some[0][0], some[0][1], ci) for some, ci in ((firsts, first_ci), (seconds, second_ci)) if some]
    if not singles:
        return []
    best_value, r, ci = max(singles, key=lambda e: e[0])  # one route alone is a run too
    best = [(r, ci)]
    if not firsts or not seconds:
        return best
    # only routes that, with the other train's best, could beat `beat` (and the best single route)
    seconds = [e for e in seconds[:MAX_SECOND] if e[0] + firsts[0][0] > beat]
    same = first_ci == second_ci  # two trains of one class: each pair is looked at from its better route
    if same:
        firsts = seconds
    if not seconds:
        return best
    users = users_per_bit([cands[r].mask for _v, r in seconds])  # track key -> the seconds using it
    place = {r: j for j, (_v, r) in enumerate(seconds)}
    everyone = (1 << len(seconds)) - 1
    by_leg: dict[int, int] = {}  # id(leg) -> the seconds sharing track with it
    for i, (value, r) in enumerate(firsts[:MAX_FIRST]):
        partner = seconds[0][0] if not same else seconds[i + 1][0] if i + 1 < len(seconds) else 0
        if value + partner <= max(best_value, beat):
            break
        taken = 1 << place[r] if r in place else 0  # a route runs once
        legs = cands[r].legs
        if legs and leg_bits is not None:
            for leg in legs:
                excluded = by_leg.get(id(leg))
                if excluded is None:
                    excluded = by_leg[id(leg)] = _users_of(leg_bits(leg), users)
                taken |= excluded
        else:
            taken |= _users_of(_bits(cands[r]), users)
        free = everyone & ~taken & (~((2 << i) - 1) if same else everyone)  # one class: the partners after it
        if free:
            j = (free & -free).bit_length() - 1
            if value + seconds[j][0] > best_value:
                best_value, best = value + seconds[j][0], [(r, first_ci), (seconds[j][1], second_ci)]
    return best


def _bits(cand: Candidate) -> tuple[int, ...]:
    """The candidate's track bits read from its mask, worked out once (the lazy build asks for a pair after
    every round)."""
    if not cand.bits and cand.mask:
        cand.bits = tuple(mask_bits(cand.mask))
    return cand.bits


def _users_of(bits: Iterable[int], users: dict[int, int]) -> int:
    """The routes (a bit set) holding any of these track bits."""
    out = 0
    for bit in bits:
        out |= users.get(bit, 0)
    return out


def _by_value(cands: list[Candidate], ci: int) -> list[tuple[int, int]]:
    """(value, candidate) of the class's routes that earn something, best first (ties: candidate order)."""
    out = [(c.totals[ci], r) for r, c in enumerate(cands) if ci in c.totals and c.totals[ci] > 0]
    out.sort(key=lambda e: -e[0])
    return out
