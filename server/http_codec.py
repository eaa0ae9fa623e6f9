"""Protobuf's JSON mapping for the HTTP side, strict on input: a body that is not JSON, a field the
message does not have or a value of the wrong type is one INVALID_ARGUMENT naming the field
(`board.hexes[0].nodes[0].revenue: ...`), never a traceback."""

from __future__ import annotations

import json
import re
from typing import Any

from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.protobuf import json_format
from google.protobuf.message import Message

from solver.model.errors import BoardError
from solver.model.jsonread import check_unicode, refusal

_AT_PATH = re.compile(r"^(?P<reason>.*?)\.? at (?P<path>[\w.\[\]\"']+?)\.*$", re.S)
_NO_FIELD = re.compile(r'has no field named "(?P<name>[^"]+)" at "(?P<path>[^"]+)"')
_NESTED = re.compile(r"Failed to parse (\w+) field: ")
_ONEOF = re.compile(r'should not have multiple "(?P<oneof>\w+)" oneof fields')


class StrictJsonCodec:
    """The `json` codec of connectrpc's server: protobuf's JSON mapping, unknown fields refused."""

    def name(self) -> str:
        return "json"

    def encode(self, message: Message) -> bytes:
        return json_format.MessageToJson(message, indent=None).encode()

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Message:
        try:
            value = json.loads(bytes(data))
        except UnicodeDecodeError as exc:
            raise ConnectError(Code.INVALID_ARGUMENT, f"request body: not UTF-8 text ({exc.reason})") from None
        except ValueError as exc:
            raise ConnectError(Code.INVALID_ARGUMENT, f"request body: not valid JSON: {refusal(exc)}") from None
        try:  # a lone surrogate (an escape JSON allows) anywhere, a key too: protobuf's reader fails on it
            check_unicode(bytes(data), value, "request body")
        except BoardError as exc:  # "<field path>: not Unicode text ...", as protobuf's errors read
            raise ConnectError(Code.INVALID_ARGUMENT, exc.message if not exc.message.startswith("not ")
                               else f"request body: {exc.message}") from None
        if not isinstance(value, dict):
            expected = message_class.DESCRIPTOR.full_name
            raise ConnectError(Code.INVALID_ARGUMENT,
                               f"request body: must be a JSON object ({expected}), got {type(value).__name__}")
        message = message_class()
        texts = _top_level_texts(value, message_class.DESCRIPTOR)
        try:
            json_format.ParseDict(value, message, ignore_unknown_fields=False)
        except json_format.ParseError as exc:  # its text may quote the value: kept encodable
            message_text = field_message(str(exc), message_class).encode("utf-8", "backslashreplace").decode()
            raise ConnectError(Code.INVALID_ARGUMENT, message_text) from None
        for name, text in texts.items():
            setattr(message, name, text)
        return message


def _top_level_texts(value: dict[str, Any], descriptor: Any) -> dict[str, str]:
    """Take the request's own string fields (the snapshot text) out of `value`, checked as protobuf checks them.

    protobuf's JSON reader looks for unpaired surrogates in every string with a regular expression that
    takes 1.6 ms on a 30 kB snapshot; a str from json.loads has a surrogate only when it is unpaired, and
    then it cannot be encoded as UTF-8, which takes microseconds. A field that shares its oneof with
    another field present stays in `value`, so that protobuf reports the clash."""
    texts: dict[str, str] = {}
    for key in list(value):
        field = descriptor.fields_by_camelcase_name.get(key) or descriptor.fields_by_name.get(key)
        text = value[key]
        if field is None or field.type != field.TYPE_STRING or not isinstance(text, str) or field.name in texts:
            continue  # (a repeated string field's value is a list)
        oneof = field.containing_oneof
        if oneof is not None and any(k != key and (other := descriptor.fields_by_camelcase_name.get(k)
                                                   or descriptor.fields_by_name.get(k)) is not None
                                     and other.containing_oneof is oneof for k in value):
            continue
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ConnectError(Code.INVALID_ARGUMENT, f"{key}: Unpaired surrogate") from None
        texts[field.name] = value.pop(key)
    return texts


def field_message(error: str, message_class: type[Message] | Any) -> str:
    """protobuf's ParseError text as "<field path>: <what is wrong>" (or "request body: ..." for bad JSON)."""
    root = message_class.DESCRIPTOR.name
    first_line = error.splitlines()[0].strip()
    if (found := _NO_FIELD.search(first_line)) is not None:
        where = _relative(found["path"], root)
        name = f"{where}.{found['name']}" if where else found["name"]
        return f"{name}: no such field in {_message_name(found['path'], message_class)}"
    innermost = _NESTED.split(first_line)[-1].strip()
    if (at := _AT_PATH.match(innermost)) is not None:
        where = _relative(at["path"], root)
        if (clash := _ONEOF.search(at["reason"])) is not None:
            return f"{where + '.' if where else ''}{clash['oneof']}: set one of its fields, not several"
        return f"{where or 'request body'}: {at['reason'].strip()}"
    chain = _NESTED.findall(first_line)
    reason = _PLAIN.get(innermost.rstrip("."), innermost.rstrip("."))
    if not chain:
        return f"request body: {reason}"
    return f"{'.'.join(_resolve(chain, message_class.DESCRIPTOR) or chain)}: {reason}"


_PLAIN = {f"expected string or bytes-like object, got '{kind}'": f"expected a string, got {word}"
          for kind, word in (("int", "a number"), ("float", "a number"), ("bool", "true/false"),
                             ("dict", "an object"), ("list", "a list"), ("NoneType", "null"))}


def _resolve(chain: list[str], descriptor: Any, depth: int = 3) -> list[str] | None:
    """The field path from `descriptor` that ends in `chain` (protobuf leaves the outer message fields out
    of some errors): `["hexes", "id"]` under SolveRequest -> `["board", "hexes", "id"]`."""
    if not chain:
        return []
    for field in descriptor.fields:
        if chain[0] in (field.name, field.json_name):
            rest = _resolve(chain[1:], field.message_type, depth) if field.message_type else (
                None if chain[1:] else [])
            if rest is not None:
                return [field.json_name, *rest]
    if depth > 0:
        for field in descriptor.fields:
            if field.message_type is not None and (inner := _resolve(chain, field.message_type, depth - 1)):
                return [field.json_name, *inner]
    return None


def _relative(path: str, root: str) -> str:
    """`SolveRequest.board.hexes[0]` -> `board.hexes[0]`."""
    path = path.strip("\"'")
    return path[len(root) + 1:] if path.startswith(root + ".") else "" if path == root else path


def _message_name(path: str, message_class: Any) -> str:
    """The full name of the message at `path` (the request itself when not resolvable)."""
    descriptor = message_class.DESCRIPTOR
    for part in re.sub(r"\[[^\]]*\]", "", path.strip("\"'")).split(".")[1:]:
        field = descriptor.fields_by_camelcase_name.get(part) or descriptor.fields_by_name.get(part)
        if field is None or field.message_type is None:
            break
        descriptor = field.message_type
    return descriptor.full_name
