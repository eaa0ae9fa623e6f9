"""An OpenAPI 3.1 document of the HTTP JSON side, generated from the proto's descriptors.

`server.protogen` runs protoc with `--descriptor_set_out --include_source_info` and hands the set
here; every message and enum becomes a JSON Schema in protobuf's JSON mapping (lowerCamelCase
names, 64-bit integers as strings, enums by name, maps as objects), with the proto's comments as
descriptions, and every unary method of every service a `POST /<package>.<Service>/<Method>`.
Nothing here is written by hand per message, so the document follows the proto.
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import descriptor_pb2

FDP = descriptor_pb2.FieldDescriptorProto
JsonObject = dict[str, Any]

_SCALARS: dict[int, JsonObject] = {
    FDP.TYPE_DOUBLE: {"type": "number"},
    FDP.TYPE_FLOAT: {"type": "number"},
    FDP.TYPE_INT32: {"type": "integer", "format": "int32"},
    FDP.TYPE_SINT32: {"type": "integer", "format": "int32"},
    FDP.TYPE_SFIXED32: {"type": "integer", "format": "int32"},
    FDP.TYPE_UINT32: {"type": "integer", "format": "uint32", "minimum": 0},
    FDP.TYPE_FIXED32: {"type": "integer", "format": "uint32", "minimum": 0},
    # 64-bit integers are JSON strings in protobuf's mapping (numbers are accepted on input)
    FDP.TYPE_INT64: {"type": ["string", "integer"], "format": "int64", "pattern": "^-?[0-9]+$"},
    FDP.TYPE_SINT64: {"type": ["string", "integer"], "format": "int64", "pattern": "^-?[0-9]+$"},
    FDP.TYPE_SFIXED64: {"type": ["string", "integer"], "format": "int64", "pattern": "^-?[0-9]+$"},
    FDP.TYPE_UINT64: {"type": ["string", "integer"], "format": "uint64", "pattern": "^[0-9]+$"},
    FDP.TYPE_FIXED64: {"type": ["string", "integer"], "format": "uint64", "pattern": "^[0-9]+$"},
    FDP.TYPE_BOOL: {"type": "boolean"},
    FDP.TYPE_STRING: {"type": "string"},
    FDP.TYPE_BYTES: {"type": "string", "contentEncoding": "base64"},
}
ERROR_SCHEMA = "connect.Error"
CONNECT_ERROR: JsonObject = {
    "type": "object",
    "description": "An error: the status code (gRPC's codes in snake_case, e.g. `invalid_argument`, "
                   "`deadline_exceeded`, `resource_exhausted`) and the message, which names the offending "
                   "field for `invalid_argument`.",
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "details": {"type": "array"}},
    "required": ["code"],
}
TIMEOUT_HEADER: JsonObject = {
    "name": "connect-timeout-ms", "in": "header", "required": False,
    "description": "The call's deadline in milliseconds (the gRPC deadline's equivalent): the search "
                   "fits inside it, and past it the answer is `deadline_exceeded`.",
    "schema": {"type": "integer", "minimum": 1},
}


def openapi_from_descriptor_set(data: bytes, proto_file: str) -> JsonObject:
    """The OpenAPI document of `proto_file` (a name in the serialized FileDescriptorSet `data`)."""
    files = descriptor_pb2.FileDescriptorSet.FromString(data).file
    proto = next(f for f in files if f.name == proto_file)
    comments = _comments(proto)
    schemas: JsonObject = {}
    for i, message in enumerate(proto.message_type):
        _add_message(schemas, message, f".{proto.package}", (4, i), comments)
    for i, enum in enumerate(proto.enum_type):
        schemas[f"{proto.package}.{enum.name}"] = _enum(enum, (5, i), comments)
    schemas[ERROR_SCHEMA] = CONNECT_ERROR
    paths: JsonObject = {}
    for si, service in enumerate(proto.service):
        full = f"{proto.package}.{service.name}"
        for mi, method in enumerate(service.method):
            if method.client_streaming or method.server_streaming:
                continue  # streams are served over gRPC, gRPC-Web and Connect streaming, not plain JSON
            paths[f"/{full}/{method.name}"] = {"post": _operation(full, method, comments.get((6, si, 2, mi), ""))}
    return {
        "openapi": "3.1.0",
        "info": {"title": f"{proto.package} over HTTP JSON", "version": proto.package.rsplit(".", 1)[-1],
                 "description": _info_description(proto, comments)},
        "paths": paths,
        "components": {"schemas": dict(sorted(schemas.items()))},
    }


def dumps(document: JsonObject) -> str:
    """The document as stable, indented JSON text ending in a newline."""
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def _info_description(proto: descriptor_pb2.FileDescriptorProto, comments: dict[tuple[int, ...], str]) -> str:
    services = " ".join(comments.get((6, i), "") for i in range(len(proto.service)))
    return (f"{services}\n\nPOST one request as JSON (`content-type: application/json`) to "
            f"`/<package>.<Service>/<Method>` and get one response, in protobuf's JSON mapping. Errors are "
            f"JSON `{{\"code\", \"message\"}}` with an HTTP status. The same service answers gRPC and gRPC-Web.")


def _operation(service: str, method: descriptor_pb2.MethodDescriptorProto, comment: str) -> JsonObject:
    def ref(type_name: str) -> JsonObject:
        return {"$ref": f"#/components/schemas/{type_name.lstrip('.')}"}

    def json_body(schema: JsonObject) -> JsonObject:
        return {"application/json": {"schema": schema}}

    return {
        "operationId": method.name,
        "summary": comment,
        "tags": [service],
        "parameters": [TIMEOUT_HEADER],
        "requestBody": {"required": True, "content": json_body(ref(method.input_type))},
        "responses": {
            "200": {"description": "The answer.", "content": json_body(ref(method.output_type))},
            "default": {"description": "An error, by its code.",
                        "content": json_body({"$ref": f"#/components/schemas/{ERROR_SCHEMA}"})},
        },
    }


def _add_message(schemas: JsonObject, message: descriptor_pb2.DescriptorProto, scope: str,
                 path: tuple[int, ...], comments: dict[tuple[int, ...], str]) -> None:
    full = f"{scope}.{message.name}"
    entries = {f"{full}.{n.name}": n for n in message.nested_type if n.options.map_entry}
    for i, nested in enumerate(message.nested_type):
        if not nested.options.map_entry:
            _add_message(schemas, nested, full, (*path, 3, i), comments)
    for i, enum in enumerate(message.enum_type):
        schemas[f"{full}.{enum.name}"[1:]] = _enum(enum, (*path, 4, i), comments)
    properties: JsonObject = {}
    for i, field in enumerate(message.field):
        schema = _field(field, entries)
        notes = [comments.get((*path, 2, i), "")]
        if field.HasField("oneof_index") and not field.proto3_optional:
            group = message.oneof_decl[field.oneof_index].name
            siblings = [f.json_name for f in message.field
                        if f.HasField("oneof_index") and f.oneof_index == field.oneof_index]
            notes.append(f"(One of `{group}`: {', '.join(siblings)}; at most one.)")
        description = " ".join(n for n in notes if n)
        properties[field.json_name] = {**schema, "description": description} if description else schema
    schema: JsonObject = {"type": "object", "properties": properties}
    if comments.get(path):
        schema["description"] = comments[path]
    schemas[full[1:]] = schema


def _field(field: descriptor_pb2.FieldDescriptorProto, entries: dict[str, descriptor_pb2.DescriptorProto]
           ) -> JsonObject:
    if field.type_name in entries:
        key, value = entries[field.type_name].field
        return {"type": "object", "additionalProperties": _single(value),
                "propertyNames": {"description": f"{FDP.Type.Name(key.type)[5:].lower()} keys, as strings"}}
    single = _single(field)
    return {"type": "array", "items": single} if field.label == FDP.LABEL_REPEATED else single


def _single(field: descriptor_pb2.FieldDescriptorProto) -> JsonObject:
    if field.type in (FDP.TYPE_MESSAGE, FDP.TYPE_ENUM):
        return {"$ref": f"#/components/schemas/{field.type_name.lstrip('.')}"}
    return dict(_SCALARS[field.type])


def _enum(enum: descriptor_pb2.EnumDescriptorProto, path: tuple[int, ...],
          comments: dict[tuple[int, ...], str]) -> JsonObject:
    names = [v.name for v in enum.value]
    lines = [f"`{v.name}`: {comments[(*path, 2, i)]}" for i, v in enumerate(enum.value) if comments.get((*path, 2, i))]
    description = " ".join([comments.get(path, ""), *lines]).strip()
    schema: JsonObject = {"type": "string", "enum": names}
    return {**schema, "description": description} if description else schema


def _comments(proto: descriptor_pb2.FileDescriptorProto) -> dict[tuple[int, ...], str]:
    """Each commented element's leading and trailing comments, joined into one line."""
    found: dict[tuple[int, ...], str] = {}
    for location in proto.source_code_info.location:
        text = " ".join(part.strip() for part in (location.leading_comments, location.trailing_comments) if part)
        text = " ".join(text.split())
        if text:
            found[tuple(location.path)] = text
    return found
