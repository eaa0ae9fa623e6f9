"""Positions that differ only in where they come from: a corpus may hold one game under two fixture
names, and its positions then differ only in their top-level `source` block (fixture, game id).

`position_key` names a position by its JSON text without that block (a digest), cheaply enough for
the process that hands positions to the workers: `source` opens the snapshot, so only a short head
is parsed. The batch audit solves each such position once and writes the line of every copy from
it (`solver.audit.run.line_for_same_position`). The block's title stays in the key (it may choose
the ruleset), and a copy whose block is out of spec is audited on its own, so that it gets its own
error.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from solver.audit.run import line_for_same_position
from solver.input.snapshot import read_source
from solver.model.errors import BoardError
from solver.model.jsonread import check_unicode, value_at

HEAD_LIMIT = 4096  # the `source` block is looked for this far into the text (it opens a snapshot)
_SPACE = " \t\n\r"


def position_key(text: str) -> tuple[bytes, dict[str, Any]] | None:
    """A digest of the position without its top-level `source` block, and the block; None when the block
    is not an in-spec object near the start (the position is then audited on its own)."""
    at = text.find('"source"', 0, HEAD_LIMIT)
    if at < 0:
        return None
    head = text[:at].rstrip(_SPACE)
    try:  # the members before it are whole (then "source" is a top-level key, not one inside a value)
        opened = head == "{" or (head.endswith(",") and isinstance(json.loads(head[:-1] + "}"), dict))
        if not opened:
            return None
        colon = _skip_space(text, at + len('"source"'))
        if text[colon:colon + 1] != ":":
            return None
        start = _skip_space(text, colon + 1)
        src, end = value_at(text, start)  # by the rules a worker reads the whole text by
        if not isinstance(src, dict) or _another_block(text, end):
            return None
        check_unicode(text[start:end], src, "source")  # a block no output could hold gets its own error
        read_source({"source": src})  # a block out of spec gets its own error
    except (ValueError, RecursionError, BoardError):
        return None
    digest = hashlib.sha256()  # of the hashes here, the quickest on this much text (SHA extensions)
    for part in (head, json.dumps(src.get("title")), text[end:]):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.digest(), src


_ESCAPED_KEY = re.compile(r'"((?:[^"\\]|\\.)*\\(?:[^"\\]|\\.)*)"\s*:')  # a key written with an escape


def _another_block(text: str, at: int) -> bool:
    """Whether an object keyed "source" follows (a second top-level block would be the one a reader keeps; one
    nested deeper only costs the reuse): modifiers name their source by a string. A key written with escapes
    (`"\u0073ource"`) is read as the reader reads it."""
    found = text.find('"source"', at)
    while found >= 0:
        colon = _skip_space(text, found + len('"source"'))
        value = _skip_space(text, colon + 1)
        if text[colon:colon + 1] == ":" and text[value:value + 1] == "{":
            return True
        found = text.find('"source"', colon)
    if text.find("\\", at) < 0:
        return False
    for match in _ESCAPED_KEY.finditer(text, at):
        try:
            if json.loads(f'"{match.group(1)}"') == "source":
                return True
        except ValueError:
            return True  # not a key a reader takes: no reuse
    return False


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in _SPACE:
        i += 1
    return i


def reusable(line: dict[str, Any]) -> bool:
    """Whether a line may stand for the copies of its position: not an error, and no route maps (their
    headings name the position)."""
    return not ({"error", "maps", "maps_error"} & line.keys())


class SamePositions:
    """The positions of one audit run by `position_key`: the first of each is audited; a later copy is
    written from its line (at once, or when that line comes), or audited on its own when the line may not
    stand for it (`reusable`)."""

    def __init__(self) -> None:
        self._first: dict[bytes, str] = {}  # key -> the source of the position audited
        self._lines: dict[str, dict[str, Any] | None] = {}  # source audited -> its line (None: not reusable)
        self._waiting: dict[str, list[tuple[str, str, dict[str, Any]]]] = {}  # source audited -> copies in wait

    def take(self, source: str, text: str) -> dict[str, Any] | bool | None:
        """For a position met: None (audit it), True (a copy of one in flight: `done` gives its line), or the
        line of a copy of one audited."""
        found = position_key(text)
        if found is None:
            return None
        key, src = found
        first = self._first.get(key)
        if first is None:
            self._first[key] = source
            self._waiting[source] = []
            return None
        if first not in self._lines:
            self._waiting[first].append((source, text, src))
            return True
        line = self._lines[first]
        return line_for_same_position(line, source, src) if line is not None else None

    def done(self, line: dict[str, Any]) -> list[dict[str, Any] | tuple[str, str]]:
        """A line written: the lines of the copies waiting for it, or (source, text) of each copy to audit."""
        source = line.get("source")
        copies = self._waiting.pop(source, None) if isinstance(source, str) else None
        if copies is None:
            return []
        if not reusable(line):
            self._lines[source] = None  # type: ignore[index]
            return [(copy_source, text) for copy_source, text, _src in copies]
        self._lines[source] = line  # type: ignore[index]
        return [line_for_same_position(line, copy_source, src) for copy_source, _text, src in copies]
