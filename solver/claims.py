"""Claimed routes in and out: reading a client's claim into legs (with the identity findings every
ruleset's evaluator starts from), and turning an optimiser's chosen routes into claims with train ids."""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Any

from solver.board import Board
from solver.legs import REUSED_TRACK, Leg, leg_from_paths, walk_legs
from solver.results import ClaimedRoute, Finding


def _resolve_by_hexes(board: Board, a: str, b: str, hexes: list[str]) -> Leg | str:
    matches = [leg for leg in walk_legs(board, a) if leg.b == b and list(leg.hexes) in (hexes, hexes[::-1])]
    if not matches:
        return f"no track from {a} to {b} over hexes {'-'.join(hexes)}"
    return matches[0]


def resolve_legs(board: Board, claim: ClaimedRoute, index: int) -> tuple[list[Leg], list[Finding]]:
    """The legs of a claim, from its path ids (or its hexes), with a finding per leg that does not walk."""
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


def claims_from_recorded(recorded: dict[str, Any]) -> list[ClaimedRoute]:
    """The routes of a snapshot's `recorded` (or `engine`) block as claims."""
    return [ClaimedRoute(train=r["train"], nodes=list(r.get("nodes", [])), legs=[list(x) for x in r.get("legs", [])],
                         connections=[list(x) for x in r.get("connections", [])])
            for r in recorded.get("routes", [])]


def claim_of(train_id: str, nodes: Sequence[str], legs: Sequence[Leg]) -> ClaimedRoute:
    """A claim for one chosen route shape run by one train."""
    return ClaimedRoute(train=train_id, nodes=list(nodes), legs=[list(leg.paths) for leg in legs])


class TrainIds:
    """Hands out the train ids of each class (or pool) in turn, for the routes an optimiser chose."""

    def __init__(self, pools: Sequence[Sequence[str]]) -> None:
        self.pools = pools
        self.taken = [0] * len(pools)

    def next(self, pool: int) -> str:
        """The next unused id of `pool`."""
        train_id = self.pools[pool][self.taken[pool]]
        self.taken[pool] += 1
        return train_id
