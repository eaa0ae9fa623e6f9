"""The snapshot reader and the board checks take the common, well-formed hex, node and path without
naming their fields (`snapshot._plain_hex`, `_plain_node`, `_plain_path`, `validate._plain_node_ok`),
and fall back to the field-by-field reading, which names the field at fault, for anything else. The
fast ways must change nothing: on real boards and on boards with one field spoilt, reading with them
gives the same board, or the same error (field and message), as the field-by-field reading alone."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.input import snapshot, validate
from solver.input.hex_reuse import HexReuse
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.errors import BoardError
from tests.conftest import CORPUS

RAWS = [p.raw for title in ("1830", "1846", "1817", "18Chesapeake", "1873")
        for f in sorted((CORPUS / title).glob("*.jsonl.gz"))[:1] for p in list(read_positions(f))[::15]]
SPOILT = [None, True, 0, -1, 7, 1.5, "", "x" * 300, "]", [], {}, [1], {"a": 1}, "5", "town", "dual", 10**9,
          [None], [{"corp": "x" * 300}], ["g", "g"], {"2": 10}]
HEX_FIELDS = ["id", "neighbors", "tile", "color", "location", "framed", "nodes", "paths", "h1873"]
PATH_FIELDS = ["id", "a", "b", "track", "lanes", "terminal", "ignore", "ignore_gauge_walk"]
NODE_FIELDS = ["id", "kind", "revenue", "visit_cost", "route", "slots", "tokens", "blocks", "terminal",
               "tokened_by_company", "near_edge", "sig", "class", "token_class", "country", "exchange_owner",
               "groups", "revenue_by_train"]


@contextmanager
def checked_only() -> Iterator[None]:
    """Every hex, node and path read and checked field by field."""
    with mock.patch.object(snapshot, "_plain_hex", lambda raw: None), \
            mock.patch.object(snapshot, "_plain_node", lambda raw, hex_id: None), \
            mock.patch.object(snapshot, "_plain_path", lambda raw, hex_id: None), \
            mock.patch.object(validate, "_plain_node_ok", lambda node, nid: False):
        yield


def _read(raw: dict[str, Any]) -> tuple:
    try:
        return ("board", board_from_snapshot(raw))
    except BoardError as exc:
        return ("error", exc.field, exc.message)


def test_real_boards_read_the_same_both_ways() -> None:
    assert len(RAWS) >= 20
    fast = [_read(raw) for raw in RAWS]
    assert all(kind == "board" for kind, *_ in fast)
    with checked_only():
        assert [_read(raw) for raw in RAWS] == fast


DELETE = object()  # the field left out


def _spoil(raw: dict[str, Any], part: str, name: str, value: object) -> dict[str, Any]:
    """The board with one field of its first hex with nodes and paths (the hex, a neighbour entry, its
    first path or its first node) set to `value` or left out."""
    raw = copy.deepcopy(raw)
    hx = next(h for h in raw["hexes"] if h.get("nodes") and h.get("paths") and h.get("neighbors"))
    target = {"hex": hx, "neighbors": hx["neighbors"], "path": hx["paths"][0], "node": hx["nodes"][0]}[part]
    if value is DELETE:
        target.pop(name, None)
    else:
        target[name] = value
    return raw


CASES = [(part, name, value) for part, names in (("hex", HEX_FIELDS), ("path", PATH_FIELDS), ("node", NODE_FIELDS),
                                                 ("neighbors", ["0", "1", "2", "3", "4", "5", "6", "00"]))
         for name in names for value in [*SPOILT, DELETE]]


def test_every_field_spoilt_or_left_out_reads_the_same_both_ways() -> None:
    """Each field of a hex, a path, a node and a neighbour entry, set to each spoilt value or left out, on
    three real boards: the same board or the same error either way (and some of each)."""
    outcomes = set()
    for raw in (RAWS[0], RAWS[len(RAWS) // 2], RAWS[-1]):
        spoilt = [_spoil(raw, *case) for case in CASES]
        fast = [_read(r) for r in spoilt]
        with checked_only():
            assert [_read(r) for r in spoilt] == fast
        outcomes.update(kind for kind, *_ in fast)
    assert outcomes == {"board", "error"}


@st.composite
def spoilt_boards(draw: st.DrawFn) -> dict[str, Any]:
    """A real board with one field of a hex, of one of its paths or of one of its nodes spoilt, or one
    hex listed twice."""
    raw = copy.deepcopy(draw(st.sampled_from(RAWS)))
    hx = draw(st.sampled_from(raw["hexes"]))
    where = draw(st.sampled_from(["hex", "neighbor", "path", "node", "twice"]))
    value = draw(st.sampled_from(SPOILT))
    if where == "neighbor" and hx.get("neighbors"):
        edge = draw(st.sampled_from(sorted(hx["neighbors"])))
        if draw(st.booleans()):
            hx["neighbors"][edge] = value
        else:
            hx["neighbors"][draw(st.sampled_from(["6", "-1", "00", "a"]))] = hx["neighbors"].pop(edge)
    elif where == "path" and hx.get("paths"):
        draw(st.sampled_from(hx["paths"]))[draw(st.sampled_from(PATH_FIELDS))] = value
    elif where == "node" and hx.get("nodes"):
        draw(st.sampled_from(hx["nodes"]))[draw(st.sampled_from(NODE_FIELDS))] = value
    elif where == "twice":
        raw["hexes"].append(copy.deepcopy(hx))
    else:
        hx[draw(st.sampled_from(HEX_FIELDS))] = value
    return raw


@settings(max_examples=300, deadline=None)
@given(spoilt_boards())
def test_spoilt_boards_read_the_same_both_ways(raw: dict[str, Any]) -> None:
    fast = _read(raw)
    with checked_only():
        assert _read(raw) == fast


def _read_reusing(raw: dict[str, Any], reuse: HexReuse) -> tuple:
    try:
        return ("board", board_from_snapshot(raw, reuse))
    except BoardError as exc:
        return ("error", exc.field, exc.message)


@st.composite
def without_a_hex(draw: st.DrawFn) -> dict[str, Any]:
    """A real board with one hex left out (its neighbours then name a hex the board does not have)."""
    raw = copy.deepcopy(draw(st.sampled_from(RAWS)))
    raw["hexes"].pop(draw(st.integers(0, len(raw["hexes"]) - 1)))
    return raw


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(RAWS), spoilt_boards(), without_a_hex()), min_size=2, max_size=6))
def test_boards_read_in_turn_reusing_hexes_read_the_same(raws: list[dict[str, Any]]) -> None:
    """Boards read one after another with one `HexReuse` (real positions, and boards with a field spoilt, a
    hex listed twice or a hex left out between them) give the same board, or the same error, as each read
    alone: a hex taken again has its neighbours checked on each board."""
    reuse = HexReuse()
    for raw in raws:
        assert _read_reusing(raw, reuse) == _read(raw)


def test_an_unchanged_hex_is_taken_again_and_a_changed_one_read_anew() -> None:
    """The next position's board shares the hexes, nodes and paths that did not change, and reads a hex
    anew when anything in it changed (a token laid: the node's tokens)."""
    first = RAWS[0]
    second = copy.deepcopy(first)
    hx = next(h for h in second["hexes"] if any(n.get("kind") == "city" for n in h.get("nodes", [])))
    city = next(n for n in hx["nodes"] if n.get("kind") == "city")
    city["tokens"] = [{"corp": "ZZ"}]
    city["slots"] = max(1, city.get("slots", 0))
    reuse = HexReuse()
    board_a = board_from_snapshot(first, reuse)
    board_b = board_from_snapshot(second, reuse)
    assert board_b == board_from_snapshot(second)
    unchanged = next(h for h in first["hexes"] if h["id"] != hx["id"] and h.get("nodes"))
    assert board_b.hexes[unchanged["id"]] is board_a.hexes[unchanged["id"]]
    assert all(board_b.nodes[n] is board_a.nodes[n] for n in board_a.hexes[unchanged["id"]].nodes)
    assert board_b.hexes[hx["id"]] is not board_a.hexes[hx["id"]]
    assert [t.corp for t in board_b.nodes[city["id"]].tokens if t] == ["ZZ"]
    assert not any(t and t.corp == "ZZ" for t in board_a.nodes[city["id"]].tokens)


def _retyped(value: object) -> object:
    """A value equal to `value` in Python but of another JSON type (1.0 for 1, 1 for true), or None."""
    if value is True or value is False:
        return int(value)
    if isinstance(value, int):
        return float(value)
    return None


def test_a_hex_equal_but_for_a_number_or_flag_type_is_read_anew() -> None:
    """`true == 1 == 1.0` in Python: a hex whose field differs from the one read before only so is read
    anew, and gives the error (or board) it gives alone."""
    raw = RAWS[0]
    hx = next(h for h in raw["hexes"] if h.get("nodes") and h.get("paths"))
    targets = [(hx, key) for key in hx] + [(hx["nodes"][0], key) for key in hx["nodes"][0]] + \
        [(hx["paths"][0], key) for key in hx["paths"][0]]
    tried = 0
    for where, key in targets:
        if _retyped(where[key]) is None:
            continue
        spoilt = copy.deepcopy(raw)
        twin = next(h for h in spoilt["hexes"] if h["id"] == hx["id"])
        part = twin if where is hx else (twin["nodes"][0] if where is hx["nodes"][0] else twin["paths"][0])
        part[key] = _retyped(part[key])
        reuse = HexReuse()
        board_from_snapshot(raw, reuse)
        assert _read_reusing(spoilt, reuse) == _read(spoilt), (key, part[key])
        tried += 1
    assert tried >= 3


def test_a_hex_is_checked_node_by_node_then_path_by_path() -> None:
    """A node id already on the board is named before a fault in a later path of the same hex."""
    raw = copy.deepcopy(RAWS[0])
    first = next(h for h in raw["hexes"] if h.get("nodes"))
    other = next(h for h in raw["hexes"][raw["hexes"].index(first) + 1:] if h.get("nodes") and h.get("paths"))
    other["nodes"][0]["id"] = first["nodes"][0]["id"]
    other["paths"][0]["a"] = 9
    kind, where, message = _read(raw)
    assert (kind, message) == ("error", "duplicate node id")
    assert where == f"hexes[{other['id']}].nodes[{first['nodes'][0]['id']}].id"


def test_the_hexes_kept_stay_bounded(monkeypatch) -> None:
    """Past `HexReuse.LIMIT` hex ids all is dropped (a long stream of boards with new ids), and boards still
    read as alone."""
    monkeypatch.setattr(HexReuse, "LIMIT", 50)
    reuse = HexReuse()
    for raw in RAWS[:4]:
        assert _read_reusing(raw, reuse) == _read(raw)
        assert len(reuse._known) <= 50
