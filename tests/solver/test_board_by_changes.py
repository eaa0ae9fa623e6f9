"""A board read with a `HexReuse` from a `hexes` list of `HexReuse.loads` is read by the places whose raw hex
changed since the last board (`snapshot._by_changes`: the last board's dicts copied and patched, or its
nodes and paths rebuilt place by place), and checked by those hexes only when the last board was valid.
None of it may show: every board read so, in any sequence, is the board (or the error, field and message)
that a fresh reading gives, with its hexes, nodes and paths in the same order, and it shares no dict with a
board read before."""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.input import snapshot
from solver.input.hex_reuse import HexReuse
from solver.input.snapshot import board_from_snapshot
from solver.model.errors import BoardError
from solver.model.jsonread import loads
from tests.conftest import CORPUS

GAMES = [sorted((CORPUS / title).glob("*.jsonl.gz"))[0]
         for title in ("1830", "1846", "1817", "18Chesapeake", "1873", "1889", "18MS")]
BASE = json.loads(gzip.open(GAMES[0], "rt").readline())


def _whole(board: Any) -> tuple:
    """A board with the order of its dicts (a dataclass's == compares dicts regardless of their order)."""
    return (board, list(board.hexes.items()), list(board.nodes.items()), list(board.paths.items()),
            list(board.company_tokens))


def _fresh(text: str) -> tuple:
    try:
        return ("board", _whole(board_from_snapshot(loads(text, "snapshot"))))
    except BoardError as exc:
        return ("error", exc.field, exc.message)


def _reusing(text: str, reuse: HexReuse) -> tuple:
    try:
        return ("board", _whole(board_from_snapshot(reuse.loads(text, "snapshot"), reuse)))
    except BoardError as exc:
        return ("error", exc.field, exc.message)


@contextmanager
def counting_changes() -> Iterator[dict[str, int]]:
    """How many boards `_by_changes` read (not None) and how many it left to the hex by hex reading."""
    counts = {"by_changes": 0, "hex_by_hex": 0}
    real = snapshot._by_changes

    def counted(*args: Any) -> Any:
        out = real(*args)
        counts["by_changes" if out is not None else "hex_by_hex"] += 1
        return out

    snapshot._by_changes = counted
    try:
        yield counts
    finally:
        snapshot._by_changes = real


def test_consecutive_corpus_positions_read_as_fresh() -> None:
    """Every position of seven real games, read in turn with one HexReuse, is the board read fresh (same
    hexes, nodes, paths and tokens in the same order); most of them are read by their changes."""
    with counting_changes() as counts:
        for game in GAMES:
            reuse = HexReuse()
            for text in gzip.open(game, "rt"):
                assert _reusing(text, reuse) == _fresh(text)
    assert counts["by_changes"] > 200
    assert counts["by_changes"] > 10 * counts["hex_by_hex"]


def _text(raw: dict[str, Any]) -> str:
    return json.dumps(raw)


def _city_hex(raw: dict[str, Any], skip: int = 0) -> dict[str, Any]:
    return [h for h in raw["hexes"] if h.get("nodes") and h.get("paths") and h.get("neighbors")][skip]


def _edits() -> list[tuple[str, Any]]:
    """Named edits of a snapshot (each changes the raw in place)."""
    def token(raw):
        node = _city_hex(raw)["nodes"][0]
        node["tokens"] = [{"corp": "ZZ"}]
        node["slots"] = max(1, node.get("slots", 0))

    def flip(raw):
        node = _city_hex(raw, 1)["nodes"][0]
        node["tokened_by_company"] = not node.get("tokened_by_company", False)

    def new_path(raw):
        hx = _city_hex(raw, 2)
        hx["paths"].append({"id": hx["id"] + ".pnew", "a": 0, "b": hx["nodes"][0]["id"]})

    def drop_path(raw):
        _city_hex(raw, 3)["paths"].pop(0)

    def new_node(raw):
        hx = _city_hex(raw, 4)
        hx["nodes"].insert(0, {"id": hx["id"] + ".nnew", "kind": "town", "revenue": 10})

    def add_hex(raw):
        raw["hexes"].append({"id": "ZZ99", "neighbors": {"0": raw["hexes"][0]["id"]}})

    def remove_hex(raw):
        raw["hexes"].pop(len(raw["hexes"]) // 2)  # its neighbours then name a hex the board lacks

    def swap(raw):
        hexes = raw["hexes"]
        hexes[1], hexes[-2] = hexes[-2], hexes[1]

    def rename_hex(raw):
        hx = _city_hex(raw, 5)
        hx["id"] = hx["id"] + "x"

    def same_node_id(raw):
        _city_hex(raw, 6)["nodes"][0]["id"] = _city_hex(raw, 0)["nodes"][0]["id"]

    def same_path_id(raw):
        _city_hex(raw, 0)["paths"][0]["id"] = _city_hex(raw, 7)["paths"][0]["id"]

    def bad_track(raw):
        _city_hex(raw, 1)["paths"][0]["track"] = "nope"

    def bad_revenue(raw):
        _city_hex(raw, 2)["nodes"][0]["revenue"] = True

    def bad_neighbor(raw):
        _city_hex(raw, 3)["neighbors"]["0"] = "NOWHERE"

    def foreign_end(raw):  # a path ending at a node of another hex
        _city_hex(raw, 4)["paths"][0]["b"] = _city_hex(raw, 5)["nodes"][0]["id"]

    def no_company(raw):
        raw["company"] = {**raw.get("company", {}), "id": ""}

    def null_paths(raw):
        _city_hex(raw, 6)["paths"] = None

    def path_edge_true(raw):  # equal in Python to edge 1, refused as an edge
        hx = _city_hex(raw, 7)
        hx["paths"] = copy.deepcopy(hx["paths"])
        hx["paths"][0]["a"] = True

    return [(f.__name__, f) for f in (token, flip, new_path, drop_path, new_node, add_hex, remove_hex, swap,
                                      rename_hex, same_node_id, same_path_id, bad_track, bad_revenue,
                                      bad_neighbor, foreign_end, no_company, null_paths, path_edge_true)]


EDITS = _edits()


def _edited(names: list[str]) -> dict[str, Any]:
    raw = copy.deepcopy(BASE)
    for name in names:
        dict(EDITS)[name](raw)
    return raw


def test_each_edit_between_valid_boards_reads_as_fresh() -> None:
    """A valid board, the board with one edit, the valid board again, then the edit again: each reads as
    fresh, errors with the same field and message."""
    outcomes = set()
    base = _text(BASE)
    for name, _edit in EDITS:
        reuse = HexReuse()
        edited = _text(_edited([name]))
        for text in (base, edited, base, edited, edited):
            got = _reusing(text, reuse)
            assert got == _fresh(text), name
            outcomes.add(got[0])
    assert outcomes == {"board", "error"}


def test_an_invalid_hex_after_valid_boards_names_the_same_field() -> None:
    """After valid boards read by their changes, a hex with a bad field gives the fresh reading's error."""
    reuse = HexReuse()
    for text in (_text(BASE), _text(_edited(["token"])), _text(_edited(["token", "flip"]))):
        assert _reusing(text, reuse)[0] == "board"
    hx = _city_hex(BASE, 1)
    for name, field in (("bad_track", f"hexes[{hx['id']}].paths[{hx['paths'][0]['id']}].track"),
                        ("same_node_id", None), ("bad_neighbor", None), ("foreign_end", None)):
        text = _text(_edited(["token", "flip", name]))
        got = _reusing(text, reuse)
        assert got[0] == "error" and got == _fresh(text), name
        if field is not None:
            assert got[1] == field
        assert _reusing(_text(_edited(["token"])), reuse) == _fresh(_text(_edited(["token"])))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from([name for name, _ in EDITS]), max_size=3), min_size=2, max_size=6))
def test_sequences_of_edited_boards_read_as_fresh(steps: list[list[str]]) -> None:
    """Any sequence of boards, each the base board with a few edits (hexes changed, added, removed,
    reordered, renamed, ids taken twice, fields spoilt), read in turn with one HexReuse, reads as fresh."""
    reuse = HexReuse()
    for names in steps:
        text = _text(_edited(names))
        assert _reusing(text, reuse) == _fresh(text), names


def test_a_board_read_later_shares_no_dict_with_an_earlier_one() -> None:
    """Each board has its own hexes, nodes and paths dicts: changing one board's (as a what-if may on a
    copy) changes no board read after it, nor what the next board is read from."""
    reuse = HexReuse()
    texts = [line for line, _ in zip(gzip.open(GAMES[1], "rt"), range(12))]
    boards = []
    with counting_changes() as counts:
        for text in texts:
            board = board_from_snapshot(reuse.loads(text, "snapshot"), reuse)
            for earlier in boards:
                for name in ("hexes", "nodes", "paths"):
                    assert getattr(board, name) is not getattr(earlier, name)
            kept = reuse.last
            assert kept is not None
            assert all(getattr(board, name) is not d for name in ("hexes", "nodes", "paths")
                       for d in (kept.hex_dict, kept.node_dict, kept.path_dict))
            boards.append(board)
            board.hexes.pop(next(iter(board.hexes)))  # spoilt after reading: no later board may see it
            board.nodes.clear()
            board.paths["spoilt"] = board.paths.pop(next(iter(board.paths)))
    assert counts["by_changes"] >= 10
    again = HexReuse()
    for text in texts:
        assert _reusing(text, again) == _fresh(text)
    reuse2 = HexReuse()
    for text in texts:
        board = board_from_snapshot(reuse2.loads(text, "snapshot"), reuse2)
        board.hexes.clear()
        board.nodes.clear()
        board.paths.clear()
    assert _reusing(texts[-1], reuse2) == _fresh(texts[-1])


def test_a_snapshot_not_from_loads_is_read_hex_by_hex() -> None:
    """Boards given as dicts (not the `hexes` list `loads` gave last) are not read by their changes: their
    raw hexes may have been changed in place since."""
    reuse = HexReuse()
    raw = copy.deepcopy(BASE)
    board_from_snapshot(reuse.loads(_text(raw), "snapshot"), reuse)
    with counting_changes() as counts:
        given = reuse.loads(_text(raw), "snapshot")
        spoilt = copy.copy(given)
        spoilt["hexes"] = list(given["hexes"])  # the same items, another list
        assert _whole(board_from_snapshot(spoilt, reuse)) == _fresh(_text(raw))[1]
    assert counts == {"by_changes": 0, "hex_by_hex": 0}


def test_a_changed_hex_takes_its_paths_again_only_from_the_very_same_raw_paths() -> None:
    """A changed hex takes its last reading's paths when its `paths` list reads to the same bytes, and reads
    them anew otherwise: an edge `true` where it was `1` (equal in Python) is refused, and a null list where
    there was none is refused, as a fresh reading refuses them."""
    reuse = HexReuse()
    raw = copy.deepcopy(BASE)
    hx = _city_hex(raw, 2)
    hx["paths"][0]["a"] = 1
    first = board_from_snapshot(reuse.loads(_text(raw), "snapshot"), reuse)
    hx["nodes"][0]["revenue"] = hx["nodes"][0].get("revenue", 0) + 10  # the hex changed, its paths not
    second = board_from_snapshot(reuse.loads(_text(raw), "snapshot"), reuse)
    assert second.hexes[hx["id"]] is not first.hexes[hx["id"]]
    assert all(second.paths[p] is first.paths[p] for p in first.hexes[hx["id"]].paths)
    hx["nodes"][0]["revenue"] += 10
    hx["paths"][0]["a"] = True
    text = _text(raw)
    assert _reusing(text, reuse) == _fresh(text)
    assert _fresh(text)[:2] == ("error", f"hexes[{hx['id']}].paths[{hx['paths'][0]['id']}].a")
    raw = copy.deepcopy(BASE)
    hx = _city_hex(raw, 2)
    del hx["paths"]
    assert _reusing(_text(raw), reuse) == _fresh(_text(raw))
    hx["paths"] = None
    hx["nodes"][0]["revenue"] = hx["nodes"][0].get("revenue", 0) + 10
    text = _text(raw)
    assert _reusing(text, reuse) == _fresh(text) == ("error", f"hexes[{hx['id']}].paths", "must not be null")
