"""Snapshot texts read in turn with the values of the last text kept (`HexTexts`, `HexReuse.loads`) give
what `jsonread.loads` gives each text alone: the same value, of the same JSON types, or the same error
(field and message); unchanged hexes are the objects read before, and a board read from them is the
board read alone."""

from __future__ import annotations

import copy
import gzip
import json
import marshal
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.input import hex_reuse
from solver.input.hex_reuse import HexReuse
from solver.input.hex_texts import HexTexts
from solver.input.snapshot import board_from_snapshot
from solver.model.errors import BoardError
from solver.model.jsonread import loads
from solver.model.limits import MAX_JSON_DEPTH
from tests.conftest import CORPUS

GAME = [line for line in gzip.open(sorted((CORPUS / "1830").glob("*.jsonl.gz"))[0], "rt") if line.strip()][:40]
SMALL = [json.loads(line) for line in GAME[::8]]
for _raw in SMALL:  # a few hexes each: quick to write out many ways
    _raw["hexes"] = _raw["hexes"][:6]


def _outcome(read: Any, text: str) -> tuple:
    """What reading gives, with JSON types told apart (`marshal`: true, 1 and 1.0 differ)."""
    try:
        return ("value", marshal.dumps(read(text, "snapshot"), 0))
    except BoardError as exc:
        return ("error", exc.field, exc.message)


def test_a_recorded_game_reads_as_each_text_alone_and_keeps_its_unchanged_hexes() -> None:
    texts = HexTexts()
    before = None
    shared = 0
    for line in GAME:
        value = texts.loads(line, "snapshot")
        assert marshal.dumps(value, 0) == marshal.dumps(loads(line, "snapshot"), 0)
        if before is not None:
            shared += sum(a is b for a, b in zip(value["hexes"], before["hexes"]))
        before = value
    assert shared > 0.5 * len(GAME) * len(before["hexes"])  # most hexes are the objects read before


def _layout(value: Any, style: int) -> str:
    """One of several ways of writing a value out: compact, spaced, indented, sorted keys."""
    if style == 0:
        return json.dumps(value, separators=(",", ":"))
    if style == 1:
        return json.dumps(value)
    if style == 2:
        return json.dumps(value, indent=1)
    if style == 3:
        return json.dumps(value, indent="\t", sort_keys=True)
    return " \n" + json.dumps(value) + "\r\n "


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def snapshot_texts(draw: st.DrawFn) -> str:
    """A small snapshot written out in one of several ways, often with a change: a hex changed or retyped
    (1 for true, 1.0 for 1), a hex that is no object, a key given twice, nesting past the limit, or
    spoilt text (cut short, NaN, extra data, a byte-order mark, a stray character)."""
    raw = copy.deepcopy(draw(st.sampled_from(SMALL)))
    change = draw(st.sampled_from(["none", "none", "hex", "retype", "item", "twice", "deep", "deep_ok", "text",
                                   "unicode", "unicode_key", "unicode_top"]))
    # nesting: top level, hexes list, hex object, then the extra levels; the limit itself, and one past it
    hexes = raw["hexes"]
    at = draw(st.integers(0, len(hexes) - 1))
    if change == "hex":
        hexes[at]["tile"] = draw(st.sampled_from(["57", "X1", 7, None]))
    elif change == "retype":
        key = draw(st.sampled_from(sorted(k for k, v in hexes[at].items() if isinstance(v, (bool, int)))
                                   or ["id"]))
        value = hexes[at][key]
        hexes[at][key] = int(value) if isinstance(value, bool) else float(value) if isinstance(value, int) else value
    elif change == "item":
        hexes[at] = draw(st.sampled_from([7, "E5", [1, {"a": 2}], None, 1.5]))
    elif change.startswith("unicode"):  # a lone surrogate (an error), a pair, an escaped backslash before "ud"
        odd = draw(st.sampled_from(["\ud800", "\udc00x", "\U0001F600", "\\ud800", "\\uD8"]))
        if change == "unicode":
            hexes[at]["tile"] = odd
        elif change == "unicode_key":
            hexes[at][odd] = 1
        else:
            raw[draw(st.sampled_from(["title", odd]))] = odd
    elif change in ("deep", "deep_ok"):
        hexes[at]["extra"] = _deep(MAX_JSON_DEPTH - 2 if change == "deep" else MAX_JSON_DEPTH - 3)
    text = _layout(raw, draw(st.integers(0, 4)))
    if change == "twice":
        text = text.replace("{", '{"hexes": [], "format": 5, ', 1)
    elif change == "text":
        cut = draw(st.integers(0, len(text)))
        text = draw(st.sampled_from([text[:cut], text[:cut] + "NaN" + text[cut:], text + "x", "\ufeff" + text,
                                     text[:cut] + "]" + text[cut:], text + "{}"]))
    return text


@settings(max_examples=300, deadline=None)
@given(st.lists(snapshot_texts(), min_size=1, max_size=6))
def test_texts_read_in_turn_read_as_each_alone(texts: list[str]) -> None:
    reader = HexTexts()
    for text in texts:
        assert _outcome(reader.loads, text) == _outcome(loads, text)


def test_a_lone_surrogate_in_a_hex_read_again_is_still_an_error() -> None:
    """A hex read before with a lone surrogate (escaped) is taken again unparsed: its text is not looked at
    again, and the error `loads` gives is still given, next to other hexes changed or not; a valid pair or an
    escaped backslash before "ud" reads."""
    base = copy.deepcopy(SMALL[0])
    for odd, bad in (("\ud800", True), ("\U0001F600", False), ("\\uD800", False)):
        raw = copy.deepcopy(base)
        raw["hexes"][1]["tile"] = odd
        other = copy.deepcopy(raw)
        other["hexes"][3]["tile"] = "X9"  # another hex changed: hex 1 is taken again
        clean = copy.deepcopy(base)
        reader = HexTexts()
        for value in (raw, raw, other, clean, other):
            text = json.dumps(value)
            assert ("\\ud" in text or "\\uD" in text) == (value is not clean)
            outcome = _outcome(reader.loads, text)
            assert outcome == _outcome(loads, text)
            assert (outcome[0] == "error") == (bad and value is not clean)


def test_a_hex_changed_in_its_text_is_read_anew() -> None:
    first = json.loads(GAME[0])
    second = copy.deepcopy(first)
    second["hexes"][2]["framed"] = not second["hexes"][2].get("framed", False)
    texts = HexTexts()
    a = texts.loads(json.dumps(first), "snapshot")
    b = texts.loads(json.dumps(second), "snapshot")
    assert b["hexes"][2] is not a["hexes"][2] and b["hexes"][2] == second["hexes"][2]
    assert all(x is y for i, (x, y) in enumerate(zip(a["hexes"], b["hexes"])) if i != 2)
    assert texts.gave(b["hexes"][0]) and not texts.gave(first["hexes"][0])
    assert not texts.gave(a["hexes"][2])  # a hex of an older text, changed since
    try:
        texts.loads(json.dumps(second)[:-1], "snapshot")  # a text that is no snapshot: no hex of it is given
    except BoardError:
        pass
    assert not texts.gave(b["hexes"][0])


def test_the_nesting_limit_is_kept_exactly() -> None:
    """A hex nesting the snapshot to the limit reads; one level more is the error `loads` gives."""
    for extra, ok in ((MAX_JSON_DEPTH - 3, True), (MAX_JSON_DEPTH - 2, False)):
        raw = copy.deepcopy(SMALL[0])
        raw["hexes"][1]["extra"] = _deep(extra)
        text = json.dumps(raw)
        reader = HexTexts()
        reader.loads(json.dumps(SMALL[0]), "snapshot")  # the hexes around it are taken again
        assert _outcome(reader.loads, text) == _outcome(loads, text)
        assert (_outcome(loads, text)[0] == "value") is ok


def test_boards_from_texts_read_in_turn_are_the_boards_read_alone_and_share_unchanged_hexes() -> None:
    reuse = HexReuse()
    boards = []
    with mock.patch.object(hex_reuse.marshal, "dumps", wraps=marshal.dumps) as dumps:
        for line in GAME[:10]:
            boards.append(board_from_snapshot(reuse.loads(line, "snapshot"), reuse))
            assert boards[-1] == board_from_snapshot(loads(line, "snapshot"))
    # a hex taken again from the last text is known by its object, without its bytes
    assert dumps.call_count < 10 * len(boards[0].hexes) // 2
    last, before = boards[-1], boards[-2]
    assert sum(last.hexes[h] is before.hexes[h] for h in last.hexes) > len(last.hexes) // 2


def test_a_raw_hex_changed_in_place_by_its_owner_is_read_anew() -> None:
    """A snapshot that did not come from `HexReuse.loads` may be changed in place between two readings:
    its hexes are known again only by their bytes."""
    raw = loads(GAME[0], "snapshot")
    reuse = HexReuse()
    reuse.loads(GAME[0], "snapshot")  # the reader's own objects are others
    board_from_snapshot(raw, reuse)
    city = next(n for h in raw["hexes"] for n in h.get("nodes", []) if n.get("kind") == "city")
    city["revenue"] = 990
    assert board_from_snapshot(raw, reuse).nodes[city["id"]].revenue == 990
