"""Claimed routes in and out: reading a client's claim into legs (with the identity findings every
ruleset's evaluator starts from), and turning an optimiser's chosen routes into claims with train ids."""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Any

from solver.model.board import Board
from solver.model.errors import BoardError
from solver.model.legs import REUSED_TRACK, Leg, leg_from_paths, walk_legs
from solver.model.results import ClaimedRoute, Finding


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


def _strings(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BoardError(where, "must be a list of strings")
    return list(value)


def claim_from_json(raw: Any, where: str) -> ClaimedRoute:
    """One claimed route `{train, nodes, legs | connections}` in snapshot ids; BoardError names the field."""
    if not isinstance(raw, dict):
        raise BoardError(where, "a route is an object with train, nodes and legs")
    train = raw.get("train")
    if not isinstance(train, str) or not train:
        raise BoardError(f"{where}.train", "missing or not a train id")
    nodes = _strings(raw.get("nodes"), f"{where}.nodes")
    if not nodes:
        raise BoardError(f"{where}.nodes", "a route needs its stops")
    legs, connections = raw.get("legs", []), raw.get("connections", [])
    if not isinstance(legs, list):
        raise BoardError(f"{where}.legs", "must be a list of path-id lists")
    if not isinstance(connections, list):
        raise BoardError(f"{where}.connections", "must be a list of hex-id lists")
    return ClaimedRoute(train=train, nodes=nodes,
                        legs=[_strings(leg, f"{where}.legs[{i}]") for i, leg in enumerate(legs)],
                        connections=[_strings(c, f"{where}.connections[{i}]") for i, c in enumerate(connections)])


def claims_from_json(routes: Any, where: str = "routes") -> list[ClaimedRoute]:
    """A list of claimed routes; BoardError names the first bad field (`routes[1].legs[0]`)."""
    if not isinstance(routes, list):
        raise BoardError(where, "must be a list of routes")
    return [claim_from_json(r, f"{where}[{i}]") for i, r in enumerate(routes)]


def claims_from_recorded(recorded: Any) -> list[ClaimedRoute]:
    """The routes of a snapshot's `recorded` (or `engine`) block as claims; BoardError names a bad field
    (`recorded: null`, a position nobody ran, has no routes to judge)."""
    if recorded is None:
        raise BoardError("recorded", "null: nobody ran this position, so there are no routes to judge")
    if not isinstance(recorded, dict):
        raise BoardError("recorded", "must be an object with routes")
    return claims_from_json(recorded.get("routes", []), "recorded.routes")


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
