"""The evaluator: checks a claimed route set against every rule and prices it.

It never calls CP-SAT and shares no code with the optimiser beyond the rule functions
themselves, so it can judge the optimiser's answers.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.board import Board
from solver.legs import REUSED_TRACK, Leg, leg_from_paths, walk_legs
from solver.modifiers.apply import settle_priced
from solver.modifiers.model import BonusLine
from solver.modifiers.route_value import route_value
from solver.route_rules import Finding, check_route, shared_track, track_group


@dataclass
class ClaimedRoute:
    """A route as a client states it: the train, its stops, and per leg the path ids (or the hexes)."""

    train: str
    nodes: list[str]
    legs: list[list[str]] = field(default_factory=list)
    connections: list[list[str]] = field(default_factory=list)


@dataclass
class PricedRoute:
    train: str
    nodes: list[str]
    legs: list[Leg]
    stop_revenues: list[int]
    revenue: int  # the stops plus every bonus line
    bonuses: list[BonusLine] = field(default_factory=list)  # modifiers' bonuses, one line each

    def as_dict(self) -> dict[str, Any]:
        """The route as JSON-ready data in the snapshot's id scheme."""
        return {"train": self.train, "nodes": self.nodes, "legs": [list(leg.paths) for leg in self.legs],
                "hexes": [list(leg.hexes) for leg in self.legs], "stop_revenues": self.stop_revenues,
                "bonuses": [b.as_dict() for b in self.bonuses], "revenue": self.revenue}


@dataclass
class Evaluation:
    legal: bool
    revenue: int
    routes: list[PricedRoute]
    findings: list[Finding]
    details: dict[str, Any] = field(default_factory=dict)  # ruleset extras (1873: net revenue, tokens)

    @property
    def hard_findings(self) -> list[Finding]:
        return [f for f in self.findings if f.hard]


def _resolve_by_hexes(board: Board, a: str, b: str, hexes: list[str]) -> Leg | str:
    matches = [leg for leg in walk_legs(board, a) if leg.b == b and list(leg.hexes) in (hexes, hexes[::-1])]
    if not matches:
        return f"no track from {a} to {b} over hexes {'-'.join(hexes)}"
    return matches[0]


def resolve_legs(board: Board, claim: ClaimedRoute, index: int) -> tuple[list[Leg], list[Finding]]:
    legs: list[Leg] = []
    findings: list[Finding] = []
    wanted = len(claim.nodes) - 1
    given = claim.legs if claim.legs else claim.connections
    if wanted > 0 and len(given) != wanted:
        findings.append(Finding("LEG_COUNT", f"{len(claim.nodes)} stops need {wanted} legs, got {len(given)}", index))
        return legs, findings
    for i in range(wanted):
        a, b = claim.nodes[i], claim.nodes[i + 1]
        leg = (leg_from_paths(board, a, b, claim.legs[i]) if claim.legs
               else _resolve_by_hexes(board, a, b, claim.connections[i]))
        if isinstance(leg, str):
            code = "SHARED_TRACK" if leg == REUSED_TRACK else "BROKEN_LEG"
            findings.append(Finding(code, f"leg {i + 1} ({a} to {b}): {leg}", index))
        else:
            legs.append(leg)
    return legs, findings


def read_claim(board: Board, claim: ClaimedRoute, index: int, known: Container[str],
               used: set[str]) -> tuple[list[Leg] | None, list[Finding]]:
    """A claim's identity checks (a known train, run once, known stops) and its legs, with the
    findings; legs are None when the claim cannot be judged further."""
    if claim.train not in known:
        return None, [Finding("UNKNOWN_TRAIN", f"train {claim.train!r} is not one of the company's trains", index)]
    findings = []
    if claim.train in used:
        findings.append(Finding("TRAIN_TWICE", f"train {claim.train} runs more than one route", index))
    used.add(claim.train)
    unknown = [n for n in claim.nodes if n not in board.nodes]
    if unknown:
        return None, findings + [Finding("UNKNOWN_NODE", f"unknown node {unknown[0]!r}", index)]
    legs, leg_findings = resolve_legs(board, claim, index)
    return legs, findings + leg_findings


def evaluate(board: Board, claims: Sequence[ClaimedRoute]) -> Evaluation:
    """Judge and price a route set under the board's ruleset."""
    if board.ruleset == "1873":
        from solver.h1873.evaluator import evaluate_1873

        return evaluate_1873(board, claims)
    if board.ruleset == "1839":
        from solver.r1839.evaluator import evaluate_1839

        return evaluate_1839(board, claims)
    if board.ruleset == "1871sc":
        from solver.r1871sc import prepare_1871sc

        return evaluate_standard(prepare_1871sc(board), claims)
    return evaluate_standard(board, claims)


def evaluate_standard(board: Board, claims: Sequence[ClaimedRoute]) -> Evaluation:
    """Judge and price a route set under the generic 18xx rules."""
    findings: list[Finding] = []
    priced: list[PricedRoute] = []
    used_trains: set[str] = set()
    train_ids = {t.id for t in board.trains}
    legs_by_route: list[list[Leg]] = []
    groups: list[str] = []
    for i, claim in enumerate(claims):
        legs, claim_findings = read_claim(board, claim, i, train_ids, used_trains)
        findings.extend(claim_findings)
        if legs is None:
            legs_by_route.append([])
            groups.append("")
            continue
        train = board.train(claim.train)
        groups.append(track_group(board, train))
        findings.extend(check_route(board, train, claim.nodes, legs, i))
        legs_by_route.append(legs)
        value = route_value(board, train, claim.nodes)
        priced.append(PricedRoute(claim.train, list(claim.nodes), legs, value.stop_revenues, value.total,
                                  value.bonuses))
    findings.extend(shared_track(legs_by_route, groups))
    total, details = settle_priced(board, priced, findings)  # modifiers' run rules
    legal = not any(f.hard for f in findings)
    return Evaluation(legal=legal, revenue=total, routes=priced, findings=findings, details=details)


def claims_from_recorded(recorded: dict) -> list[ClaimedRoute]:
    """The routes of a snapshot's `recorded` (or `engine`) block as claims."""
    return [ClaimedRoute(train=r["train"], nodes=list(r.get("nodes", [])), legs=[list(x) for x in r.get("legs", [])],
                         connections=[list(x) for x in r.get("connections", [])])
            for r in recorded.get("routes", [])]
