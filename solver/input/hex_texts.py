"""Snapshot JSON text read with the values of the last text kept: a batch audit reads the positions of
a game one after the other, and most of a snapshot reads the same from one position to the next (nine
hexes in ten on the shared corpus), so that text need not be parsed again.

`HexTexts.loads` gives what `jsonread.loads` gives, value and errors alike. It reads the top-level object
key by key with the standard decoder (`raw_decode`, strict as `loads`). A top-level value, or an item of
the `hexes` list, whose text at its place is the text of the value at the same place last time (the same
key, the same index) is that value again, unparsed: only objects, lists and strings are taken so, whose
text ends where their value ends (equal text, equal value). Anything it does not expect (another top
level, an error, nesting too deep) goes to `jsonread.loads`, which gives the answer or the error. The
values it gives share objects with the last ones: they are read, never changed. `check_unicode` looks into
the values only when the text holds an escape that may write a lone surrogate: whether a value's text holds
one is kept with it, so only the text read anew is searched for one.
"""

from __future__ import annotations

import re
from typing import Any

from solver.model.jsonread import ESCAPED_SURROGATE, STRICT_DECODER, check_unicode, json_depth, loads
from solver.model.limits import MAX_JSON_DEPTH

_SPACE = re.compile(r"[ \t\n\r]*")  # what JSON allows between tokens (as the standard decoder skips it)
_SPACES = frozenset(" \t\n\r")
_SELF_ENDING = frozenset('{["')  # the first characters of values whose text ends where the value does
_COUNTED = MAX_JSON_DEPTH // 2  # a value with at most this many brackets nests at most this deep (counted)

# a value's text ("": not taken again by its text), the value, its nesting depth, and whether its text holds
# an escape that may write a lone surrogate (`_escapes`)
Kept = tuple[str, Any, int, bool]


class _Unexpected(Exception):
    """The text is not what the fast reading takes: `jsonread.loads` reads it."""


class HexTexts:
    """The values of the last snapshot text read, with their text: per top-level key its object, list or
    string, and the objects of its `hexes` list by place."""

    def __init__(self) -> None:
        self._top: dict[str, Kept] = {}
        self._last: list[Kept] = []  # the items of the last `hexes` list
        self._given: dict[int, Any] = {}  # id -> a hex object of the last text (held)
        self._list: list[Any] | None = None  # the `hexes` list of the last text, when read here
        self._escaped = False  # whether the last text read here holds an escape `check_unicode` looks into

    def gave(self, raw: Any) -> bool:
        """Whether this object is a hex of the last text read here (`loads`' values are never changed: so
        nothing has changed it)."""
        return self._given.get(id(raw)) is raw

    def gave_list(self, value: Any) -> bool:
        """Whether this object is the `hexes` list of the last text read here: its items are all objects made
        here (`loads`' values are never changed: an item that is an object given before is unchanged)."""
        return value is self._list and value is not None

    def loads(self, text: str | bytes, where: str) -> Any:
        """`jsonread.loads(text, where)`, taking unchanged values from the last text. The value shares objects
        with the values given before: it must be read only, never changed."""
        self._given = {}  # (set again for this text's hexes when they are read here)
        self._list = None
        if isinstance(text, str):
            try:
                found = self._read(text)
            except (_Unexpected, ValueError, RecursionError):  # a decoder error (and a BoardError) is a ValueError
                found = None
            if found is not None:
                if self._escaped:  # else `check_unicode` finds no such escape in the text: it passes it at once
                    check_unicode(text, found, where)
                return found
        return loads(text, where)

    def _read(self, text: str) -> dict[str, Any] | None:
        """The top-level object, or None when `jsonread.loads` must read the text."""
        at = _skip(text, 0)
        if text[at:at + 1] != "{":
            return None
        out: dict[str, Any] = {}
        depth = 1
        top: dict[str, Kept] = {}
        kept: list[Kept] | None = None
        escaped = False  # an escape in a key or a value (the text between them is space and punctuation)
        at = _skip(text, at + 1)
        if text[at:at + 1] == "}":
            at += 1
        else:
            while True:
                if text[at:at + 1] != '"':
                    return None
                key, end = STRICT_DECODER.raw_decode(text, at)
                escaped = escaped or _escapes(text, at, end)
                at = _skip(text, end)
                if text[at:at + 1] != ":":
                    return None
                at = _skip(text, at + 1)
                if key == "hexes" and text[at:at + 1] == "[":
                    kept, at = self._hexes(text, at)
                    value = [v for _t, v, _d, _e in kept]
                    inner = 1 + max((d for _t, _v, d, _e in kept), default=0)
                    escaped = escaped or any(e for _t, _v, _d, e in kept)
                else:
                    found, at = _value(text, at, self._top.get(key))
                    top[key] = found
                    _t, value, inner, e = found
                    escaped = escaped or e
                out[key] = value  # a key given twice: the last value, in the first one's place (as `loads`)
                depth = max(depth, 1 + inner)
                at = _skip(text, at)
                mark = text[at:at + 1]
                if mark == "}":
                    at += 1
                    break
                if mark != ",":
                    return None
                at = _skip(text, at + 1)
        if _skip(text, at) != len(text) or depth > MAX_JSON_DEPTH:
            return None
        self._top = top
        self._escaped = escaped
        if kept is not None:
            self._last = kept
            self._given = {id(v): v for _t, v, _d, _e in kept}
            self._list = out["hexes"] if out.get("hexes").__class__ is list else None
        return out

    def _hexes(self, text: str, at: int) -> tuple[list[Kept], int]:
        """The items of the `hexes` list starting at `at` (its "["), and the index past it (`_read`'s loop,
        with its look at the space between items written out: a snapshot has hundreds of hexes)."""
        last = self._last
        kept: list[Kept] = []
        at = _skip(text, at + 1)
        if text[at:at + 1] == "]":
            return kept, at + 1
        starts = text.startswith
        while True:
            before = last[len(kept)] if len(kept) < len(last) else None
            if before is not None and before[0] and starts(before[0], at):
                kept.append(before)
                at += len(before[0])
            else:
                found, at = _value(text, at, None)
                kept.append(found)
            mark = text[at:at + 1]
            if mark in _SPACES:
                at = _SPACE.match(text, at).end()
                mark = text[at:at + 1]
            if mark == ",":
                at += 1
                if text[at:at + 1] in _SPACES:
                    at = _SPACE.match(text, at).end()
            elif mark == "]":
                return kept, at + 1
            else:
                raise _Unexpected


def _value(text: str, at: int, before: Kept | None) -> tuple[Kept, int]:
    """The value starting at `at` (no space before it) and the index past it: `before`'s value when its text
    is there (an object, a list or a string: their text ends where their value ends), else read, with a
    bound on its nesting (`_depth_bound`)."""
    if before is not None and before[0] and text.startswith(before[0], at):
        return before, at + len(before[0])
    value, end = STRICT_DECODER.raw_decode(text, at)
    return (text[at:end] if text[at] in _SELF_ENDING else "", value, _depth_bound(text, at, end, value),
            _escapes(text, at, end)), end


def _escapes(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]` holds what `check_unicode` looks for in a text (an escape `\\ud` or `\\uD`).
    A key's or a value's text holds each such escape of the whole text: it lies within a string, and a key or a
    value ends with no part of one."""
    return text.find(ESCAPED_SURROGATE[0], start, end) >= 0 or text.find(ESCAPED_SURROGATE[1], start, end) >= 0


def _depth_bound(text: str, start: int, end: int, value: Any) -> int:
    """At least the nesting depth of the value read from `text[start:end]`: its count of brackets where that
    is small (a C count instead of a walk over the value), else its depth (`json_depth`). A bound above the
    limit sends the text to `jsonread.loads`, which measures it."""
    brackets = text.count("{", start, end) + text.count("[", start, end)
    return brackets if brackets <= _COUNTED else json_depth(value)


def _skip(text: str, at: int) -> int:
    """The index of the first character from `at` that is not JSON space."""
    return _SPACE.match(text, at).end() if text[at:at + 1] in _SPACES else at
