"""Candidate 1873 routes: every legal mining route and every legal diesel route of the company."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.model.legs import Leg
from solver.routes.leg_graph import LegGraph, build_leg_graph
from solver.routes.route_shape import WalkRules
from solver.routes.walk import enumerate_routes
from solver.rulesets.r_1873.rules import route_findings
from solver.rulesets.r_1873.view import Harzbahn

NARROW = frozenset({"narrow", "dual"})
ANY_LENGTH = Train(id="any", name="any", unit="none", distance=0)


@dataclass(frozen=True)
class Shape:
    """A legal route: stops, legs, track mask (edge keys only) and the hexes its track uses."""

    nodes: tuple[str, ...]
    legs: tuple[Leg, ...]
    mask: int
    hexes: frozenset[str]


def is_edge_key(key: tuple) -> bool:
    return key[0] != "path" and isinstance(key[1], int)


def leg_graph_1873(board: Board) -> LegGraph:
    """Legs over narrow track only (the state railway is never part of a route), edge keys only."""
    return build_leg_graph(board, NARROW, is_edge_key)


def walk_rules(board: Board, ctx: Harzbahn, diesel: bool) -> WalkRules:
    nodes = board.nodes.values()
    visitable = frozenset(n.id for n in nodes if n.kind != "junction" and (not diesel or n.id in ctx.diesel_connected))
    passable = frozenset(n for n in visitable if board.nodes[n].hex not in ctx.framed
                         and (not board.nodes[n].blocks or board.nodes[n].hex in ctx.concession_hexes))
    ends = (ctx.diesel_terminus if diesel else ctx.terminus) & visitable
    return WalkRules(visitable=visitable, passable=passable, starts=ends, ends=ends, one_per_hex=not diesel)


def route_shapes(board: Board, ctx: Harzbahn, graph: LegGraph, diesel: bool,
                 deadline: float | None = None, cancel: CancelToken | None = None) -> tuple[list[Shape], bool]:
    """Every legal route of one kind (mining or diesel), and whether the list is complete."""
    # the Python walk: one stop per hex and the termini keep few routes over many legs, which it walks in less
    # time than the compiled walk's tables take (0.6 against 1.1 ms, the median of 1873's stress and railway boards)
    raw, complete = enumerate_routes(board, graph, [ANY_LENGTH], deadline=deadline,
                                     rules=walk_rules(board, ctx, diesel), cancel=cancel, native=False)
    out = []
    for k, (nodes, legs, mask, _cross, _cost, _token, _kinds) in enumerate(raw):
        if deadline is not None and k % 256 == 255 and time.monotonic() > deadline:
            return out, False
        if route_findings(board, ctx, diesel, nodes, legs):
            continue
        out.append(Shape(nodes=nodes, legs=legs, mask=mask, hexes=frozenset(h for leg in legs for h in leg.hexes)))
    return out, complete


class KeptRoutes:
    """A company's complete candidate lists on one board (the service check's and the optimiser's solves of a
    position list the same routes), bound to the very hexes, nodes and paths and the 1873 facts they were listed on."""

    __slots__ = ("hexes", "nodes", "paths", "ctx", "mining", "diesel")

    def __init__(self, board: Board, ctx: Harzbahn, mining: list[Shape], diesel: list[Shape]) -> None:
        self.hexes, self.nodes, self.paths = board.hexes, board.nodes, board.paths
        self.ctx, self.mining, self.diesel = ctx, mining, diesel

    def bound_to(self, board: Board, ctx: Harzbahn) -> bool:
        """Whether these lists were made on `board`'s track under equal 1873 facts."""
        return board.holds_track_of(self) and self.ctx == ctx


def company_routes(board: Board, ctx: Harzbahn, deadline: float | None = None,
                   cancel: CancelToken | None = None) -> tuple[list[Shape], list[Shape], bool]:
    """The company's mining and diesel routes (none of a kind it has no train of), and whether both lists are
    complete. Complete lists are kept beside the board (`Board.ruleset_memo`) and given again when asked."""
    kept: Any = getattr(board, "ruleset_memo", None)  # (a board unpickled from before the field: none)
    if isinstance(kept, KeptRoutes) and kept.bound_to(board, ctx):
        return kept.mining, kept.diesel, True
    graph = leg_graph_1873(board)
    mining, done_m = route_shapes(board, ctx, graph, False, deadline, cancel) if ctx.mining_trains else ([], True)
    diesel, done_d = route_shapes(board, ctx, graph, True, deadline, cancel) if ctx.diesel_train else ([], True)
    if done_m and done_d:
        board.ruleset_memo = KeptRoutes(board, ctx, mining, diesel)
    return mining, diesel, done_m and done_d
