"""Strict reading of untrusted JSON: parse with a depth bound, then take fields by exact type.

Every reader raises `BoardError(field path, message)`; none lets a Python exception escape. A field
that is absent takes its default; `null` is never a value unless the caller allows it; a boolean is
never a number; numbers must be finite and inside the bounds the caller gives.
"""

from __future__ import annotations

import json
import math
from typing import Any

from solver.model.errors import BoardError
from solver.model.limits import MAX_ID_LENGTH, MAX_JSON_DEPTH

_MISSING = object()


def kind_of(value: Any) -> str:
    """A short name of a JSON value's type for messages (never the value itself, which may be huge)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}" if len(repr(value)) <= 24 else "a number too large"
    if isinstance(value, str):
        return f"the string {value!r}" if len(value) <= 40 else "a long string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _reject_constant(name: str) -> Any:
    raise BoardError("", f"{name} is not a number JSON allows")


_CONTAINERS = (dict, list)  # what `json.loads` builds objects and arrays as (these types exactly)


def json_depth(value: Any) -> int:
    """How deeply lists and objects nest in a value `json.loads` gave (0 for a scalar), level by level
    without recursion (stops counting past MAX_JSON_DEPTH + 1). Types are compared exactly: half the
    time of `isinstance` over a whole snapshot."""
    level = [value] if type(value) in _CONTAINERS else []
    depth = 0
    while level and depth <= MAX_JSON_DEPTH:
        depth += 1
        level = [x for item in level for x in (item.values() if type(item) is dict else item)
                 if type(x) in _CONTAINERS]
    return depth


STRICT_DECODER = json.JSONDecoder(parse_constant=_reject_constant)  # as `loads`: no NaN, no Infinity


def value_at(text: str, start: int) -> tuple[Any, int]:
    """The JSON value that starts at `text[start]` (no space before it) and the index past it, read by the
    rules of `loads` for a value nested one level down; ValueError (or BoardError) when they refuse it."""
    value, end = STRICT_DECODER.raw_decode(text, start)
    if json_depth(value) + 1 > MAX_JSON_DEPTH:
        raise ValueError("nested too deeply")
    return value, end


def loads(text: str | bytes, where: str) -> Any:
    """Parse JSON text; BoardError naming `where` when it is not JSON, uses NaN/Infinity, has a number
    Python cannot hold, or nests more than MAX_JSON_DEPTH deep."""
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except BoardError as exc:
        raise BoardError(where, f"not valid JSON: {exc.message}") from None
    except RecursionError:
        raise BoardError(where, f"nested too deeply (at most {MAX_JSON_DEPTH} levels)") from None
    except json.JSONDecodeError as exc:
        raise BoardError(where, f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})") from None
    except (ValueError, UnicodeDecodeError) as exc:  # e.g. an integer of more than 4,300 digits
        raise BoardError(where, f"not valid JSON: {refusal(exc)[:120]}") from None
    if json_depth(value) > MAX_JSON_DEPTH:
        raise BoardError(where, f"nested too deeply (at most {MAX_JSON_DEPTH} levels)")
    check_unicode(text, value, where)
    return value


def refusal(exc: ValueError) -> str:
    """Why Python refused a JSON text, in its first sentence (its text for an integer of more than 4,300 digits
    runs on with advice on raising the limit)."""
    return str(exc).split(";")[0]


def file_value(text: str, where: str) -> Any:
    """A JSON file's value by the standard reader (a syntax error names its line: `json.JSONDecodeError`),
    held to `check_unicode`."""
    value = json.loads(text)
    check_unicode(text, value, where)
    return value


ESCAPED_SURROGATE = ("\\ud", "\\uD")  # how a lone surrogate gets into text `json.loads` accepts: escaped


def check_unicode(text: str | bytes, value: Any, where: str) -> None:
    """BoardError naming the first string of `value` (parsed from `text`) that is no Unicode text: a lone
    surrogate, which JSON lets an escape write (no output could hold it). Text without such an escape is
    passed at once; otherwise the strings are looked at, and the path of one that fails is found after."""
    if isinstance(text, bytes):
        if b"\\ud" not in text and b"\\uD" not in text:
            return
    elif ESCAPED_SURROGATE[0] not in text and ESCAPED_SURROGATE[1] not in text:
        return
    if _encodes(value):
        return
    todo: list[tuple[str, Any]] = [("", value)]
    while todo:
        path, item = todo.pop()
        if isinstance(item, dict):
            todo.extend((f"{path}.{key}" if path else str(key), v) for key, v in item.items() if not _encodes(v))
            todo.extend((f"{path}.<key>" if path else "<key>", key) for key in item if not _encodes(key))
        elif isinstance(item, list):
            todo.extend((f"{path}[{i}]", v) for i, v in enumerate(item) if not _encodes(v))
        elif isinstance(item, str):
            raise BoardError(where, f"{path + ': ' if path else ''}not Unicode text (a lone surrogate, escaped as "
                                    "\\uD800 to \\uDFFF)")


def _encodes(value: Any) -> bool:
    """Whether every string in a JSON value (its keys too) encodes as UTF-8, looked at without recursion."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if not item.isascii():
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return False
        elif isinstance(item, dict):
            todo.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return True


def obj(value: Any, where: str) -> dict[str, Any]:
    """The value as a JSON object."""
    if not isinstance(value, dict):
        raise BoardError(where, f"must be an object, got {kind_of(value)}")
    return value


def lst(value: Any, where: str, max_len: int | None = None) -> list[Any]:
    """The value as a JSON list of at most `max_len` items."""
    if not isinstance(value, list):
        raise BoardError(where, f"must be a list, got {kind_of(value)}")
    if max_len is not None and len(value) > max_len:
        raise BoardError(where, f"at most {max_len:,} entries allowed, got {len(value):,}")
    return value


def field(raw: dict[str, Any], key: str, where: str, default: Any = _MISSING, nullable: bool = False) -> Any:
    """`raw[key]`, or `default` when absent (BoardError when absent without a default, or null unless nullable)."""
    if key not in raw:
        if default is _MISSING:
            raise BoardError(f"{where}.{key}" if where else key, "missing")
        return default
    value = raw[key]
    if value is None and not nullable:
        raise BoardError(f"{where}.{key}" if where else key, "must not be null")
    return value


def text(value: Any, where: str, non_empty: bool = False, max_len: int = MAX_ID_LENGTH) -> str:
    """The value as a string (non-empty when asked, at most `max_len` characters)."""
    if not isinstance(value, str):
        raise BoardError(where, f"must be a string, got {kind_of(value)}")
    if non_empty and not value:
        raise BoardError(where, "must not be empty")
    if len(value) > max_len:
        raise BoardError(where, f"at most {max_len} characters allowed, got {len(value):,}")
    return value


def integer(value: Any, where: str, lo: int, hi: int) -> int:
    """The value as an integer in lo..hi (a boolean or a float is not an integer)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BoardError(where, f"must be an integer, got {kind_of(value)}")
    if not lo <= value <= hi:
        raise BoardError(where, f"must be in {lo:,}..{hi:,}, got {kind_of(value)}")
    return value


def number(value: Any, where: str, lo: float, hi: float) -> float:
    """The value as a finite number in lo..hi (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BoardError(where, f"must be a number, got {kind_of(value)}")
    if not math.isfinite(value) or not lo <= value <= hi:
        raise BoardError(where, f"must be a finite number in {lo}..{hi}, got {kind_of(value)}")
    return value


def boolean(value: Any, where: str) -> bool:
    """The value as true or false."""
    if not isinstance(value, bool):
        raise BoardError(where, f"must be true or false, got {kind_of(value)}")
    return value


def str_list(value: Any, where: str, max_len: int, non_empty_items: bool = True) -> list[str]:
    """The value as a list of strings."""
    items = lst(value, where, max_len)
    return [text(x, f"{where}[{i}]", non_empty=non_empty_items) for i, x in enumerate(items)]


def label_of(raw: Any, index: int) -> str:
    """How a list entry is named in a field path: its `id` when it has a usable one, else its index."""
    if isinstance(raw, dict):
        ident = raw.get("id")
        if isinstance(ident, str) and ident and len(ident) <= MAX_ID_LENGTH and "]" not in ident:
            return ident
    return str(index)
