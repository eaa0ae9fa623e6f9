"""1871 Steel Cities (ruleset `1871sc`): freight and passenger trains on the generic rules.

- Every node and every company station carries a class: freight (square) or passenger (round).
  A train serves the stops of its class; it passes the other class's stops, which neither count
  nor pay for it. A route needs a company station of its train's class (`train_rules`).
- H (hex freight): distance in hexes. P (passenger): an ordinary train.
- F (fast freight): an express train by hex (its best n hexes pay), double for dahs (freight
  towns) and for hexes with the company's stations.
- E (express passenger): an express train by hex, double for hexes with the company's stations,
  but not for dits (passenger towns).
- A minor company runs one class only. Freight and passenger trains share no track unless the
  request option `classes_share_track` says they may (routes of one class still never do).
"""

from __future__ import annotations

from dataclasses import replace

from solver.model.board import Board, Node, Train
from solver.model.errors import BoardError
from solver.rules.train_rules import serves


def doubles(train: Train, node: Node, token_hexes: set[str]) -> bool:
    """Whether an F or E train earns double at this stop."""
    if train.unit != "express" or not train.klass:
        return False
    if train.klass == "freight":
        return node.kind == "town" or node.hex in token_hexes
    return node.hex in token_hexes and node.kind != "town"


def check_1871sc(board: Board) -> None:
    """BoardError for a train without a class, or a minor company with trains of both classes."""
    for i, t in enumerate(board.trains):
        if t.klass not in ("freight", "passenger"):
            raise BoardError(f"trains[{i}].class", "an 1871 Steel Cities train is freight or passenger")
    if board.company_type == "minor" and len({t.klass for t in board.trains}) > 1:
        raise BoardError("trains", "a minor company runs one class of train only")


def prepare_1871sc(board: Board) -> Board:
    """The board with F and E doubling written into `revenue_by_train`."""
    check_1871sc(board)
    token_hexes = {n.hex for n in board.nodes.values() if n.tokened_by_company}
    fast = [t for t in board.trains if t.unit == "express"]
    nodes = {}
    for nid, node in board.nodes.items():
        extra = {t.name: node.revenue * 2 for t in fast if serves(t, node) and doubles(t, node, token_hexes)}
        nodes[nid] = replace(node, revenue_by_train={**node.revenue_by_train, **extra}) if extra else node
    return replace(board, nodes=nodes)
