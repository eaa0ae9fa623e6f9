"""The generic 18xx route rules, each check naming the rule a route breaks.

`check_route` covers one route (stops, token, repeats, terminals, distance); `shared_track`
covers the company's whole route set. The evaluator reports every finding; the optimiser's
candidate generator keeps only routes for which `check_route` finds nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.board import Board, Train
from solver.legs import Leg
from solver.train_rules import within_distance


@dataclass(frozen=True)
class Finding:
    """One broken rule: a machine-readable code, a sentence, and the route it concerns (-1: the set)."""

    code: str
    message: str
    route: int = -1
    hard: bool = True


def check_route(board: Board, train: Train, nodes: Sequence[str], legs: Sequence[Leg], index: int = -1) -> list[Finding]:
    """Every generic rule one route breaks; empty when the route is legal on its own."""
    out: list[Finding] = []

    def bad(code: str, msg: str) -> None:
        out.append(Finding(code, msg, index))

    stops = [board.nodes[n] for n in nodes]
    if len(stops) < 2 and not (train.local and len(stops) == 1 and stops[0].tokened_by_company):
        bad("TOO_FEW_STOPS", f"a route of {train.id} needs at least two stops"
            + (" (a local train: one tokened city)" if train.local else ""))
    if train.requires_token and not any(s.tokened_by_company for s in stops):
        bad("NO_TOKEN", f"the route of {train.id} visits no city with the company's token")
    seen: set[str] = set()
    for s in stops:
        if s.id in seen:
            bad("NODE_TWICE", f"the route visits {s.id} twice")
        seen.add(s.id)
    groups: set[str] = set()
    for s in stops:
        for g in s.groups:
            if g in groups:
                bad("GROUP_TWICE", f"the route visits revenue group {g} twice (at {s.id})")
            groups.add(g)
    for s in stops:
        if s.route == "never":
            bad("NODE_NOT_A_STOP", f"{s.id} may not be a stop")
    for s in stops[1:-1]:
        if s.blocks:
            bad("PASSES_BLOCKED", f"the route passes through {s.id}, which blocks the company")
        elif s.terminal:
            bad("PASSES_TERMINAL", f"the route passes through {s.id}, which may only end a route")
    for i, leg in enumerate(legs):
        if not leg.may_stand(i, len(legs)):
            bad("TERMINAL_PATH_INSIDE", f"leg {i + 1} uses a terminal path inside the route")
    crossings = sum(leg.crossings for leg in legs)
    if not within_distance(train, stops, crossings):
        bad("TOO_LONG", f"the route is longer than train {train.name} may run")
    return out


def shared_track(legs_by_route: Sequence[Sequence[Leg]]) -> list[Finding]:
    """Findings for track used twice over all routes of the set (including within one route)."""
    owner: dict[tuple, int] = {}
    out: list[Finding] = []
    for r, legs in enumerate(legs_by_route):
        for leg in legs:
            for key in sorted(leg.keys, key=repr):
                if key in owner:
                    other = owner[key]
                    where = "itself" if other == r else f"route {other + 1}"
                    out.append(Finding("SHARED_TRACK", f"route {r + 1} reuses track {_key_text(key)} of {where}", r))
                else:
                    owner[key] = r
    return out


def _key_text(key: tuple) -> str:
    if key[0] == "path":
        return f"path {key[1]}"
    hex_id, where, lane = key
    return f"{hex_id} {'edge ' + str(where) if isinstance(where, int) else where} lane {lane}"
