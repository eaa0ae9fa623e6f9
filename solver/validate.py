"""Checks that a board is within spec before any rule reads it; errors name the field."""

from __future__ import annotations

from solver import rulesets
from solver.board import DISTANCE_UNITS, NODE_KINDS, TRACK_GAUGES, TRAIN_CLASSES, Board, Hex, Train
from solver.errors import BoardError
from solver.rulesets.base import Ruleset


def validate_board(board: Board) -> None:
    """Raise BoardError on the first out-of-spec field: the generic checks, then the ruleset's own."""
    ruleset = rulesets.get(board.ruleset)
    if not board.hexes:
        raise BoardError("hexes", "the board has no hexes")
    if not board.company:
        raise BoardError("company.id", "no operating company given")
    for hx in board.hexes.values():
        _check_hex(board, hx)
    _check_trains(board, ruleset)
    _check_markers_and_options(board)
    if board.modifiers and not ruleset.applies_modifiers:
        raise BoardError("modifiers", f"ruleset {ruleset.name} does not apply modifiers; rulesets that do: "
                                      f"{', '.join(r.name for r in rulesets.all_rulesets() if r.applies_modifiers)}")
    ruleset.validate(board)


def _check_hex(board: Board, hx: Hex) -> None:
    """Neighbours, nodes and paths of one hex."""
    hid = hx.id
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


def _check_trains(board: Board, ruleset: Ruleset) -> None:
    """Train ids are present and unique; each train's distance, class and multiplier are in spec."""
    seen: set[str] = set()
    for i, train in enumerate(board.trains):
        if not train.id:
            raise BoardError(f"trains[{i}].id", "missing train id")
        if train.id in seen:
            raise BoardError(f"trains[{i}].id", f"duplicate train id {train.id!r}")
        seen.add(train.id)
        _check_train(ruleset, i, train)


def _check_train(ruleset: Ruleset, i: int, train: Train) -> None:
    if train.unit not in DISTANCE_UNITS:
        raise BoardError(f"trains[{i}].distance_unit", f"unknown unit {train.unit!r}")
    if train.distance < 0:
        raise BoardError(f"trains[{i}].distance", "must not be negative")
    if train.unit == "flood" and not ruleset.flood_trains:
        runs = [r.name for r in rulesets.all_rulesets() if r.flood_trains]
        raise BoardError(f"trains[{i}].distance_unit", f"FLOOD trains belong to ruleset {', '.join(runs)}")
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


def _check_markers_and_options(board: Board) -> None:
    """Exchange markers (at most one of the company's own, under its station), option and token nodes."""
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
