"""A leg graph built on boards read one after another with one `HexReuse` (legs walked on a board before are
taken again: `solver.model.walk_memo`) is the graph built on each board read alone: the same stops, the same
legs in the same order, each track key numbered with the same bit, the same masks and bits per leg."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from solver.input.hex_reuse import HexReuse
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.errors import BoardError
from solver.packing.pack import train_classes
from solver.routes.leg_graph import LegGraph, build_leg_graph
from solver.routes.station_reach import token_reach
from tests.conftest import CORPUS

GAMES = sorted(CORPUS.glob("*/*.jsonl.gz"))


def _graph(raw: dict[str, Any], reuse: HexReuse | None) -> LegGraph | None:
    """The leg graph `enumerate_phase` builds (the stops within the company's reach), None for a board in error."""
    try:
        board = board_from_snapshot(copy.deepcopy(raw), reuse)
        return build_leg_graph(board, reach=token_reach(board, train_classes(board.trains)[0]))
    except BoardError:
        return None


def _plain(graph: LegGraph) -> tuple:
    """All a graph holds, with each leg's mask and bits by its place in the graph (not its object id)."""
    legs = [(nid, leg) for nid, found in graph.legs_from.items() for leg in found]
    return ([(nid, leg) for nid, leg in legs], list(graph.key_bits.items()),
            [graph.masks[id(leg)] for _nid, leg in legs], [graph.bits[id(leg)] for _nid, leg in legs])


@pytest.mark.parametrize("game", range(0, len(GAMES), max(1, len(GAMES) // 8)))
def test_leg_graphs_over_a_game_equal_fresh_ones(game: int) -> None:
    """Over a corpus game's positions in order (the first 40), each graph with one HexReuse equals the graph of
    the board read alone, key numbering included; and most graphs share legs with the graph before."""
    raws = [p.raw for p in read_positions(GAMES[game]) if p.raw is not None][:40]
    reuse = HexReuse()
    shared = 0
    last: list = []  # the legs of the graph before (held: their ids stay theirs)
    for raw in raws:
        graph, fresh = _graph(raw, reuse), _graph(raw, None)
        assert (graph is None) == (fresh is None)
        if graph is None or fresh is None:
            continue
        assert _plain(graph) == _plain(fresh)
        here = [leg for found in graph.legs_from.values() for leg in found]
        shared += bool({id(leg) for leg in here} & {id(leg) for leg in last})
        last = here
    assert shared > 0 or len(raws) < 3
