"""Checks that a board is within spec before any rule reads it; errors name the field."""

from __future__ import annotations

from solver.board import DISTANCE_UNITS, NODE_KINDS, TRACK_GAUGES, TRAIN_CLASSES, Board
from solver.errors import BoardError
from solver.rulesets import RULESETS

KNOWN_RULESETS = tuple(RULESETS)


def validate_board(board: Board) -> None:
    """Raise BoardError on the first out-of-spec field."""
    if board.ruleset not in KNOWN_RULESETS:
        raise BoardError("ruleset", f"unknown ruleset {board.ruleset!r}; known: {', '.join(KNOWN_RULESETS)}")
    if not board.hexes:
        raise BoardError("hexes", "the board has no hexes")
    if not board.company:
        raise BoardError("company.id", "no operating company given")
    for hid, hx in board.hexes.items():
        for edge, other in hx.neighbors.items():
            if not 0 <= edge <= 5:
                raise BoardError(f"hexes[{hid}].neighbors[{edge}]", "edge must be 0..5")
            if other not in board.hexes:
                raise BoardError(f"hexes[{hid}].neighbors[{edge}]", f"unknown hex {other!r}")
        for nid in hx.nodes:
            node = board.nodes[nid]
            if node.kind not in NODE_KINDS:
                raise BoardError(f"hexes[{hid}].nodes[{nid}].kind", f"unknown node kind {node.kind!r}")
            if node.visit_cost < 0:
                raise BoardError(f"hexes[{hid}].nodes[{nid}].visit_cost", "must not be negative")
            if node.klass not in TRAIN_CLASSES or node.token_class not in TRAIN_CLASSES:
                raise BoardError(f"hexes[{hid}].nodes[{nid}].class", "a class is freight, passenger or empty")
        for pid in hx.paths:
            path = board.paths[pid]
            if path.track not in TRACK_GAUGES:
                raise BoardError(f"hexes[{hid}].paths[{pid}].track", f"unknown gauge {path.track!r}")
            for name, end in (("a", path.a), ("b", path.b)):
                where = f"hexes[{hid}].paths[{pid}].{name}"
                if end.is_edge:
                    if not 0 <= end.edge <= 5:  # type: ignore[operator]
                        raise BoardError(where, f"edge {end.edge} out of range 0..5")
                elif end.node not in board.nodes or board.nodes[end.node].hex != hid:
                    raise BoardError(where, f"unknown node {end.node!r} in hex {hid}")
            for lane in path.lanes:
                if lane[0] < 1 or not 0 <= lane[1] < lane[0]:
                    raise BoardError(f"hexes[{hid}].paths[{pid}].lanes", f"bad lane {list(lane)}")
    seen: set[str] = set()
    for i, train in enumerate(board.trains):
        if not train.id:
            raise BoardError(f"trains[{i}].id", "missing train id")
        if train.id in seen:
            raise BoardError(f"trains[{i}].id", f"duplicate train id {train.id!r}")
        seen.add(train.id)
        if train.unit not in DISTANCE_UNITS:
            raise BoardError(f"trains[{i}].distance_unit", f"unknown unit {train.unit!r}")
        if train.distance < 0:
            raise BoardError(f"trains[{i}].distance", "must not be negative")
        if train.unit == "flood" and board.ruleset != "1839":
            raise BoardError(f"trains[{i}].distance_unit", "FLOOD trains belong to ruleset 1839")
        if train.klass not in TRAIN_CLASSES:
            raise BoardError(f"trains[{i}].class", f"unknown train class {train.klass!r}")
        if train.unit == "express" and train.distance < 1:
            raise BoardError(f"trains[{i}].distance", "an express train pays at least one stop")
        if train.unit == "stops_by_type" and not train.rows:
            raise BoardError(f"trains[{i}].distance", "stops_by_type needs at least one row")
        for j, row in enumerate(train.rows):
            if row.pay < 0 or row.visit < 0:
                raise BoardError(f"trains[{i}].distance[{j}]", "pay and visit must not be negative")
        if train.multiplier < 0:
            raise BoardError(f"trains[{i}].multiplier", "must not be negative")
    if board.ruleset == "1873":
        from solver.h1873.context import harzbahn

        harzbahn(board)
    if board.ruleset == "1871sc":
        from solver.r1871sc import check_1871sc

        check_1871sc(board)
    own_markers = [n for n in board.nodes.values() if n.exchange_owner and n.exchange_owner == board.company]
    if len(own_markers) > 1:
        raise BoardError(f"hexes[{own_markers[1].hex}].nodes[{own_markers[1].id}].exchange_owner",
                         f"a company has at most one exchange marker on the board; {board.company} has "
                         f"{len(own_markers)}")
    for n in own_markers:
        if not n.tokened_by_company:
            raise BoardError(f"hexes[{n.hex}].nodes[{n.id}].exchange_owner",
                             "an exchange marker lies under one of the company's own stations")
    if board.options.get("port_token") and board.options["port_token"] not in board.nodes:
        raise BoardError("options.port_token", f"unknown node {board.options['port_token']!r}")
    for i, (_hex, nid) in enumerate(board.company_tokens):
        if nid and nid not in board.nodes:
            raise BoardError(f"company.tokens[{i}].node", f"unknown node {nid!r}")
