"""The leg graph: the legs from every stop a route may use (`model.legs.walk_legs`), with each track key
numbered as one bit, so that two routes share track exactly when their masks meet.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from solver.model.board import Board
from solver.model.legs import Leg, PathIndex, walk_legs
from solver.routes.station_reach import Reach, stops_within


@dataclass
class LegGraph:
    """Legs from every stop node, with each track key numbered as one bit."""

    legs_from: dict[str, list[Leg]]
    masks: dict[int, int]  # id(leg) -> bit mask of its track keys
    key_bits: dict[tuple, int] = field(default_factory=dict)
    bits: dict[int, tuple[int, ...]] = field(default_factory=dict)  # id(leg) -> its key bits

    def mask(self, leg: Leg) -> int:
        return self.masks[id(leg)]

    def route_bits(self, legs: Sequence[Leg]) -> list[int]:
        """The key bits a route over these legs occupies."""
        return [b for leg in legs for b in self.bits[id(leg)]]


def build_leg_graph(board: Board, allowed_tracks: frozenset[str] | None = None,
                    key_filter: Callable[[tuple], bool] | None = None, reach: Reach | None = None) -> LegGraph:
    """Walk the legs from every stop node once and number their track keys (those that
    `key_filter` keeps, when given: a ruleset may share track by fewer keys). With `reach`, only the
    stops some route of the company's trains may reach from a stop with its token, and the legs
    between them (`token_reach`)."""
    index = PathIndex(board)
    if reach is None:
        legs_from = {nid: walk_legs(board, nid, allowed_tracks, index)
                     for nid, node in board.nodes.items() if node.kind != "junction"}
    else:
        legs_from = _legs_in_reach(board, reach, allowed_tracks, index)
    key_bits: dict[tuple, int] = {}
    masks: dict[int, int] = {}
    bits: dict[int, tuple[int, ...]] = {}
    for legs in legs_from.values():
        for leg in legs:
            m = 0
            own = []
            for k in leg.keys:
                if key_filter is not None and not key_filter(k):
                    continue
                bit = key_bits.setdefault(k, len(key_bits))
                m |= 1 << bit
                own.append(bit)
            masks[id(leg)] = m
            bits[id(leg)] = tuple(own)
    return LegGraph(legs_from=legs_from, masks=masks, key_bits=key_bits, bits=bits)


def _legs_in_reach(board: Board, reach: Reach, allowed_tracks: frozenset[str] | None,
                 index: PathIndex) -> dict[str, list[Leg]]:
    """The legs from the stops some train class may reach from a tokened stop (`stops_within`), to such
    stops, in the board's node order; each stop's legs walked once."""
    walked: dict[str, list[Leg]] = {}

    def legs_of(nid: str) -> list[Leg]:
        found = walked.get(nid)
        if found is None:
            found = walked[nid] = walk_legs(board, nid, allowed_tracks, index)
        return found

    inside = stops_within(board, reach, legs_of)
    return {nid: [leg for leg in walked[nid] if leg.b in inside] for nid in board.nodes if nid in inside}


def mask_bits(mask: int) -> list[int]:
    """The set bits of a track mask, lowest first (one step per set bit)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def reversed_legs(graph: LegGraph, legs: Sequence[Leg]) -> tuple[Leg, ...]:
    """The legs of a route walked the other way, known to the graph (same track bits)."""
    out = []
    for leg in reversed(legs):
        back = replace(leg, a=leg.b, b=leg.a, paths=leg.paths[::-1], hexes=leg.hexes[::-1],
                       terminal_first=leg.terminal_last, terminal_last=leg.terminal_first)
        graph.masks[id(back)] = graph.masks[id(leg)]
        graph.bits[id(back)] = graph.bits[id(leg)]
        out.append(back)
    return tuple(out)
