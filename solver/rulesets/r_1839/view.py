"""The 1839 board view: other companies' exchange markers do not block, and the private powers
that raise location values (request options) are applied to the nodes."""

from __future__ import annotations

from dataclasses import replace

from solver.model.board import Board


def prepare_1839(board: Board) -> Board:
    """The board as this company sees it: other companies' exchange markers do not block, and
    the private powers that raise location values are applied."""
    opts = board.options
    nodes = {}
    for nid, node in board.nodes.items():
        changes: dict = {}
        if node.exchange_owner and node.exchange_owner != board.company and node.kind != "offboard":
            changes.update(blocks=False, terminal=False)
        bonus = 0
        if opts.get("towns_plus_10") and node.kind == "town":
            bonus += 10
        if opts.get("port_token") == nid:
            bonus += 20 if opts.get("port_token_own") else 10
        if bonus:
            changes.update(revenue=node.revenue + bonus,
                           revenue_by_train={k: v + bonus for k, v in node.revenue_by_train.items()})
        nodes[nid] = replace(node, **changes) if changes else node
    return replace(board, nodes=nodes)
