"""Legs walked on boards read one after another with one `HexReuse` are taken again when the walk read
nothing that differs (`solver.model.walk_memo`): the very Leg objects, the same steps. Whatever changed on
the walk's way (a path, a neighbour, the gauges allowed) walks anew, and every walk gives what a fresh walk
on a board read alone gives: the same legs in the same order, the same steps and the same errors."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.input.hex_reuse import HexReuse
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.board import Board
from solver.model.errors import BoardError
from solver.model.legs import Leg, PathIndex, walk_legs
from solver.model.limits import MAX_BOARD_WALK_STEPS
from tests.conftest import CORPUS
from tests.support.boards import BoardBuilder, chain_board, line


def _stops(board: Board) -> list[str]:
    return [nid for nid, n in board.nodes.items() if n.kind != "junction"]


def _walk_all(board: Board, allowed: frozenset[str] | None = None) -> tuple[dict[str, list[Leg]], int]:
    """The legs from every stop, with one index (as the leg graph walks), and the board's steps."""
    index = PathIndex(board)
    legs = {nid: walk_legs(board, nid, allowed, index) for nid in _stops(board)}
    return legs, index.steps


def _fresh(snap: dict[str, Any], allowed: frozenset[str] | None = None) -> tuple[dict[str, list[Leg]], int]:
    """The same walked on the board read alone (no memo: a service call)."""
    board = board_from_snapshot(copy.deepcopy(snap))
    assert board.walks is None and PathIndex(board).memo is None
    return _walk_all(board, allowed)


def _same_objects(a: list[Leg], b: list[Leg]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _chain() -> dict[str, Any]:
    b, _cities = chain_board([10, 20, 30, 40])
    b.train("2-0", 2)
    return b.snapshot()


def test_unchanged_board_takes_every_walk_again() -> None:
    snap = _chain()
    reuse = HexReuse()
    first, steps1 = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse))
    second, steps2 = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse))
    assert all(_same_objects(first[nid], second[nid]) for nid in first)
    assert sum(map(len, second.values())) > 0
    assert (second, steps2) == (first, steps1) == _fresh(snap)


def test_a_token_placed_keeps_the_walks() -> None:
    """A city's hex read anew for its token (another Hex object, the same track) keeps the walks through it."""
    snap = _chain()
    reuse = HexReuse()
    board1 = board_from_snapshot(copy.deepcopy(snap), reuse)
    first, _ = _walk_all(board1)
    city = next(h for h in snap["hexes"] if h["id"] == "H1")["nodes"][0]
    city["tokens"] = [{"corp": "OTHER"}]
    board2 = board_from_snapshot(copy.deepcopy(snap), reuse)
    assert board2.hexes["H1"] is not board1.hexes["H1"]
    second, steps = _walk_all(board2)
    assert all(_same_objects(first[nid], second[nid]) for nid in first)
    assert (second, steps) == _fresh(snap)


def test_a_path_changed_on_the_way_walks_anew() -> None:
    snap = _chain()
    reuse = HexReuse()
    first, _ = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse))
    h2 = next(h for h in snap["hexes"] if h["id"] == "H2")
    h2["paths"] = [p for p in h2["paths"] if p["b"] != "H2.city0"]  # no track from H1 into H2's city
    second, steps = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse))
    assert (second, steps) == _fresh(snap)
    assert second["H0.city0"] == first["H0.city0"]  # its walk stops at H1's city: it never read H2
    assert _same_objects(first["H0.city0"], second["H0.city0"])
    assert second["H1.city0"] != first["H1.city0"] and not _same_objects(first["H1.city0"], second["H1.city0"])
    assert [leg.b for leg in second["H1.city0"]] == ["H0.city0"]


def test_a_change_on_a_board_not_walked_walks_anew() -> None:
    """A walk kept two boards back, not asked on the board between, whose hexes changed there: the next board
    has the change too (nothing changed since the board between), and the walk is walked anew."""
    snap = _chain()
    reuse = HexReuse()
    first, _ = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse))
    h2 = next(h for h in snap["hexes"] if h["id"] == "H2")
    h2["paths"] = [p for p in h2["paths"] if p["b"] != "H2.city0"]
    board_from_snapshot(copy.deepcopy(snap), reuse)  # read, never walked
    third, steps = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse))
    assert (third, steps) == _fresh(snap)
    assert [leg.b for leg in third["H1.city0"]] == ["H0.city0"] != [leg.b for leg in first["H1.city0"]]
    assert _same_objects(first["H0.city0"], third["H0.city0"])  # it never read H2


def test_a_change_undone_keeps_nothing_stale() -> None:
    """Track changed on one board and back on the next: every walk agrees with a fresh one on each board."""
    snap = _chain()
    changed = copy.deepcopy(snap)
    h2 = next(h for h in changed["hexes"] if h["id"] == "H2")
    h2["paths"] = [p for p in h2["paths"] if p["b"] != "H2.city0"]
    reuse = HexReuse()
    for one in (snap, changed, snap, snap, changed, changed, snap):
        assert _walk_all(board_from_snapshot(copy.deepcopy(one), reuse)) == _fresh(one)


def test_a_neighbour_added_walks_anew() -> None:
    """Track from the city to the board's edge on one board, to a new hex next door on the next."""
    b = BoardBuilder()
    line(b, ["H0", "H1"])
    c0, c1 = b.city("H0", 10, token=True), b.city("H1", 20)
    b.path("H0", c0, 4)
    b.path("H1", 1, c1)
    b.path("H1", c1, 4)  # to the board's edge
    b.train("2-0", 2)
    snap1 = b.snapshot()
    b.link("H1", 4, "H2")
    b.path("H2", 1, b.city("H2", 30))
    snap2 = b.snapshot()
    reuse = HexReuse()
    first, _ = _walk_all(board_from_snapshot(copy.deepcopy(snap1), reuse))
    second, steps = _walk_all(board_from_snapshot(copy.deepcopy(snap2), reuse))
    assert [leg.b for leg in first["H1.city0"]] == ["H0.city0"]
    assert sorted(leg.b for leg in second["H1.city0"]) == ["H0.city0", "H2.city0"]
    assert second["H0.city0"] == first["H0.city0"]  # walked anew (it read H1, whose neighbours changed): the same
    assert (second, steps) == _fresh(snap2)


def test_other_gauges_walk_anew() -> None:
    snap = _chain()
    reuse = HexReuse()
    broad, _ = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse))
    narrow, steps = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse), frozenset({"narrow"}))
    assert any(broad.values()) and not any(narrow.values())
    assert (narrow, steps) == _fresh(snap, frozenset({"narrow"}))
    again, _ = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse), frozenset({"broad", "dual"}))
    assert again == broad and not any(_same_objects(broad[n], again[n]) for n in broad if broad[n])


def test_a_board_with_other_nodes_walks_anew() -> None:
    """A ruleset's view of the board (other nodes, `replace`) does not take walks kept for the board as read."""
    snap = _chain()
    reuse = HexReuse()
    board = board_from_snapshot(copy.deepcopy(snap), reuse)
    first, _ = _walk_all(board)
    view = replace(board, nodes={nid: replace(n, kind="junction" if nid == "H1.city0" else n.kind)
                                 for nid, n in board.nodes.items()})
    assert view.walks is board.walks and PathIndex(view).memo is None
    legs = walk_legs(view, "H0.city0")
    assert [leg.b for leg in legs] == ["H2.city0"]  # through H1, now a junction
    assert walk_legs(board, "H0.city0") == first["H0.city0"]


def test_the_board_limit_of_steps_holds_for_a_walk_taken_again() -> None:
    """A walk taken again adds its steps to the board's, and past the board's limit fails as a fresh walk does."""
    snap = _chain()
    reuse = HexReuse()
    board = board_from_snapshot(copy.deepcopy(snap), reuse)
    index = PathIndex(board)
    walk_legs(board, "H1.city0", None, index)
    steps = index.steps
    assert steps > 0
    board2 = board_from_snapshot(copy.deepcopy(snap), reuse)
    index = PathIndex(board2)
    index.steps = MAX_BOARD_WALK_STEPS - steps
    walk_legs(board2, "H1.city0", None, index)  # just within the limit
    assert index.steps == MAX_BOARD_WALK_STEPS
    errors = []
    for b in (board_from_snapshot(copy.deepcopy(snap), reuse), board_from_snapshot(copy.deepcopy(snap))):
        index = PathIndex(b)
        index.steps = MAX_BOARD_WALK_STEPS - steps + 1
        with pytest.raises(BoardError) as exc:
            walk_legs(b, "H1.city0", None, index)
        errors.append((exc.value.field, exc.value.message, index.steps))
    assert errors[0] == errors[1]


GAMES = sorted(CORPUS.glob("*/*.jsonl.gz"))


def _positions(path: Path) -> list[dict[str, Any]]:
    return [p.raw for p in read_positions(path) if p.raw is not None]


@settings(max_examples=8, deadline=None)
@given(st.integers(0, len(GAMES) - 1), st.integers(1, 3), st.integers(0, 2**32 - 1))
def test_walks_taken_again_agree_with_fresh_walks_over_a_game(game: int, stride: int, seed: int) -> None:
    """Over consecutive positions of a corpus game (every `stride`-th, from a random one), each board read with
    one HexReuse gives the legs, in order, and the steps a board read alone gives, and takes walks again."""
    raws = _positions(GAMES[game])
    rng = random.Random(seed)
    start = rng.randrange(max(1, len(raws) - 12 * stride))
    reuse = HexReuse()
    taken = repeats = 0  # walks taken again; boards with legs walked with the gauges of the board walked before
    kept: dict[tuple[str, str], list[Leg]] = {}
    last: object = ()  # the gauges of the board walked before (none yet)
    for raw in raws[start:start + 12 * stride:stride]:
        try:
            board = board_from_snapshot(copy.deepcopy(raw), reuse)
        except BoardError:
            continue
        allowed = rng.choice([None, None, frozenset({"broad", "dual"}), frozenset({"narrow", "dual"})])
        again, last = allowed == last, allowed
        index = PathIndex(board)
        fresh_board = board_from_snapshot(copy.deepcopy(raw))
        fresh_index = PathIndex(fresh_board)
        assert index.memo is not None and fresh_index.memo is None
        for nid in _stops(board):
            legs = walk_legs(board, nid, allowed, index)
            assert legs == walk_legs(fresh_board, nid, allowed, fresh_index)
            before = kept.get((nid, str(allowed)))
            taken += before is not None and _same_objects(before, legs) and bool(legs)
            repeats += again and bool(legs)
            kept[(nid, str(allowed))] = legs
        assert index.steps == fresh_index.steps
    assert taken > 0 or repeats == 0  # (other gauges on every next board, or no legs: nothing to take again)


def test_walks_are_taken_again_over_a_real_game() -> None:
    """Most walks of a game's next position are taken again (what the memo is for)."""
    raws = _positions(next(p for p in GAMES if p.parent.name == "1830"))[:20]
    reuse = HexReuse()
    last: dict[str, list[Leg]] = {}
    same = total = 0
    for raw in raws:
        legs, _ = _walk_all(board_from_snapshot(copy.deepcopy(raw), reuse))
        same += sum(1 for nid, found in legs.items() if found and nid in last and _same_objects(last[nid], found))
        total += sum(1 for found in legs.values() if found)
        last = legs
    assert same > total // 2


def test_the_memo_stays_bounded() -> None:
    """Past its limit of walks or of legs held, the memo drops all it holds and goes on."""
    snap = _chain()
    reuse = HexReuse()
    reuse.walks.LIMIT = 2
    board = board_from_snapshot(copy.deepcopy(snap), reuse)
    legs, _ = _walk_all(board)
    assert len(legs) == 4 and len(reuse.walks) <= 2
    reuse.walks.LIMIT, reuse.walks.LEG_LIMIT = 100, 1
    legs2, _ = _walk_all(board_from_snapshot(copy.deepcopy(snap), reuse))
    assert legs2 == legs and len(reuse.walks) == 1
