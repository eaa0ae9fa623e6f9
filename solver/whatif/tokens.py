"""Where the company may place a station token: a city with a free slot and none of its own
stations, reachable from one of its stations over track it may use.

Reachable means along legs (`solver.model.legs`, the same walk as routes: gauges and lanes fit) from a
city the company has a station in, passing only through nodes a route may pass (not blocked by
other companies' stations, not terminal). Reservations and one-token-per-hex rules of single
titles are not modelled.
"""

from __future__ import annotations

from solver.model.board import Board, Node, route_may_pass
from solver.model.errors import BoardError
from solver.routes.leg_graph import LegGraph
from solver.routes.station_reach import reached_from


def free_slot(node: Node) -> int | None:
    """The index of the node's first empty token slot, or None when it has none."""
    for i, token in enumerate(node.tokens):
        if token is None:
            return i
    return len(node.tokens) if len(node.tokens) < node.slots else None


def reachable(board: Board, graph: LegGraph) -> set[str]:
    """Every node the company's stations reach over the track, the stations included (never going on
    through a node a route may only end at)."""
    nodes = board.nodes
    return reached_from([nid for nid, n in nodes.items() if n.tokened_by_company],
                        lambda nid: graph.legs_from.get(nid, ()), lambda nid: route_may_pass(nodes[nid]))


def placements(board: Board, graph: LegGraph) -> list[str]:
    """Every node where the company may place a token now, in the board's node order."""
    reach = reachable(board, graph)
    return [nid for nid, n in board.nodes.items()
            if nid in reach and n.kind == "city" and not n.tokened_by_company and free_slot(n) is not None]


def check_placement(board: Board, graph: LegGraph, node_id: str, where: str) -> None:
    """A BoardError naming `where` unless the company may place a token at `node_id`."""
    node = board.nodes.get(node_id)
    if node is None:
        raise BoardError(where, f"unknown node {node_id!r}")
    if node.kind != "city":
        raise BoardError(where, f"{node_id} is a {node.kind}: a station goes in a city")
    if node.tokened_by_company:
        raise BoardError(where, f"{board.company} already has a station in {node_id}")
    if free_slot(node) is None:
        raise BoardError(where, f"{node_id} is full: no free token slot")
    if node_id not in reachable(board, graph):
        raise BoardError(where, f"{node_id} is not reachable from a station of {board.company}")
