"""Applying a scenario to a board: a changed copy, the original untouched.

The copy shares every unchanged part (hexes, nodes, paths, trains are replaced, never mutated),
so a scenario costs a few dictionary copies. The changed board is validated like any input.
Every problem is a BoardError naming the scenario's field (`scenarios[2].tokens[0]`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from solver.input.snapshot import read_hexes
from solver.input.validate import validate_board
from solver.model.board import Board, Token
from solver.model.errors import BoardError
from solver.routes.leg_graph import LegGraph
from solver.whatif.model import Scenario
from solver.whatif.tokens import check_placement, free_slot
from solver.whatif.train_specs import train_for


def apply_scenario(board: Board, scenario: Scenario, where: str, graph_of: Callable[[Board], LegGraph]) -> Board:
    """The board changed by `scenario`: trains, then modifiers, then track, then tokens (a token may
    go on a tile the scenario lays). `graph_of` gives a board's leg graph (for token reachability)."""
    out = replace(board)
    if scenario.remove_trains or scenario.add_trains:
        out.trains = _trains(board, scenario, where)
    if scenario.remove_modifiers or scenario.add_modifiers:
        out.modifiers = _modifiers(board, scenario, where)
    if scenario.hexes:
        _lay_track(out, scenario, where)
    if scenario.tokens:
        place_tokens(out, scenario, where, graph_of)
    try:
        validate_board(out)
    except BoardError as exc:
        raise BoardError(f"{where}.board.{exc.field}", exc.message) from None
    return out


def _trains(board: Board, scenario: Scenario, where: str) -> list:
    trains = list(board.trains)
    for j, train_id in enumerate(scenario.remove_trains):
        index = next((k for k, t in enumerate(trains) if t.id == train_id), None)
        if index is None:
            raise BoardError(f"{where}.remove_trains[{j}]",
                             f"no train {train_id!r} on the board; its trains: {', '.join(t.id for t in trains)}")
        del trains[index]
    taken: set[str] = set()
    for j, spec in enumerate(scenario.add_trains):
        # an advisor's offer (`trains[3]`) is named as given; a scenario's train by its place in it
        at = where if where.startswith("trains[") else f"{where}.add_trains[{j}]"
        trains.append(train_for(board, spec, at, taken))
    return trains


def _modifiers(board: Board, scenario: Scenario, where: str) -> tuple:
    kept = list(board.modifiers)
    for j, source in enumerate(scenario.remove_modifiers):
        if not any(m.source == source for m in kept):
            sources = sorted({m.source for m in board.modifiers})
            raise BoardError(f"{where}.remove_modifiers[{j}]",
                             f"no modifier from {source!r}; the board's: {', '.join(sources) or 'none'}")
        kept = [m for m in kept if m.source != source]
    return (*kept, *scenario.add_modifiers)


def _lay_track(out: Board, scenario: Scenario, where: str) -> None:
    """Replace each given hex's tile: its nodes and paths (neighbours kept unless given)."""
    at = f"{where}.hexes"
    hexes, nodes, paths = read_hexes(list(scenario.hexes), at)
    out.hexes, out.nodes, out.paths = dict(out.hexes), dict(out.nodes), dict(out.paths)
    for hid, hx in hexes.items():
        old = out.hexes.get(hid)
        if old is None:
            raise BoardError(f"{at}[{hid}].id", f"no hex {hid!r} on the board")
        for nid in old.nodes:
            del out.nodes[nid]
        for pid in old.paths:
            del out.paths[pid]
        if not hx.neighbors:
            hx.neighbors = dict(old.neighbors)
        out.hexes[hid] = hx
    for nid, node in nodes.items():
        if nid in out.nodes:
            raise BoardError(f"{at}[{node.hex}].nodes[{nid}].id", "a node of another hex has this id")
        out.nodes[nid] = node
    for pid, path in paths.items():
        if pid in out.paths:
            raise BoardError(f"{at}[{path.hex}].paths[{pid}].id", "a path of another hex has this id")
        out.paths[pid] = path
    out.company_tokens = [(h, n) for h, n in out.company_tokens if n in out.nodes or h not in hexes]
    out.company_tokens += [(n.hex, n.id) for n in nodes.values()
                           if n.tokened_by_company and (n.hex, n.id) not in out.company_tokens]


def place_tokens(out: Board, scenario: Scenario, where: str, graph_of: Callable[[Board], LegGraph]) -> None:
    out.nodes = dict(out.nodes)
    out.company_tokens = list(out.company_tokens)
    for j, node_id in enumerate(scenario.tokens):
        check_placement(out, graph_of(out), node_id, f"{where}.tokens[{j}]")
        node = out.nodes[node_id]
        slot = free_slot(node)
        assert slot is not None  # check_placement saw one
        tokens = list(node.tokens) + [None] * max(0, slot + 1 - len(node.tokens))
        tokens[slot] = Token(corp=out.company)
        out.nodes[node_id] = replace(node, tokens=tokens, tokened_by_company=True)
        out.company_tokens.append((node.hex, node_id))
