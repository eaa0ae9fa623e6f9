"""The OpenAPI document generated from the proto is valid OpenAPI 3.1, names every unary method, and describes
the JSON the server really sends and accepts (real answers validate; wrong shapes do not)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import jsonschema
import pytest
from openapi_spec_validator import validate

from routemax.v1 import routemax_pb2 as pb
from solver.examples import example_path
from tests.conftest import WebServers
from tests.support.http_client import post_json, request


def _document() -> dict[str, Any]:
    return json.loads(resources.files("routemax.v1").joinpath("routemax.openapi.json").read_text(encoding="utf-8"))


def _validator(message: str) -> jsonschema.Draft202012Validator:
    doc = _document()
    return jsonschema.Draft202012Validator({"$ref": f"#/components/schemas/routemax.v1.{message}",
                                            "components": doc["components"]})


def test_the_document_is_valid_openapi_and_names_every_unary_method() -> None:
    doc = _document()
    validate(doc)
    service = pb.DESCRIPTOR.services_by_name["RouteService"]
    unary = {m.name for m in service.methods if not m.client_streaming and not m.server_streaming}
    assert unary == {"Solve", "Evaluate", "ListRulesets", "MineProduction", "WhatIf"}
    assert set(doc["paths"]) == {f"/routemax.v1.RouteService/{name}" for name in unary}
    for message in pb.DESCRIPTOR.message_types_by_name.values():
        schema = doc["components"]["schemas"][message.full_name]
        assert set(schema["properties"]) == {f.json_name for f in message.fields}
    solve = doc["paths"]["/routemax.v1.RouteService/Solve"]["post"]
    assert solve["parameters"][0]["name"] == "connect-timeout-ms"
    assert "INVALID_ARGUMENT names the offending field" in doc["info"]["description"]


def test_the_server_serves_the_packaged_document(web: WebServers) -> None:
    assert request(web.http_port, "GET", "/openapi.json").json() == _document()


def test_real_answers_and_requests_match_the_schema(web: WebServers) -> None:
    body = {"snapshotJson": example_path("1839").read_text(encoding="utf-8"), "renderSvg": True}
    _validator("SolveRequest").validate(body)
    solved = post_json(web.http_port, "Solve", body).json()
    _validator("SolveResponse").validate(solved)
    assert isinstance(solved["revenue"], str)  # int64 is a JSON string in protobuf's mapping
    routes = [{"train": r["train"], "nodes": r["nodes"], "legs": r["legs"]} for r in solved["routes"]]
    judged = post_json(web.http_port, "Evaluate", {"snapshotJson": body["snapshotJson"], "routes": routes}).json()
    _validator("EvaluateResponse").validate(judged)
    _validator("ListRulesetsResponse").validate(post_json(web.http_port, "ListRulesets", {}).json())


@pytest.mark.parametrize(("message", "value"), [
    ("SolveRequest", {"timeLimitS": "soon"}),
    ("SolveRequest", {"objective": "MOST"}),
    ("SolveResponse", {"revenue": "12.5"}),
    ("SolveResponse", {"routes": {"train": "4"}}),
    ("Hex", {"nodes": [{"revenue": 2.5}]}),
])
def test_wrong_shapes_do_not_match_the_schema(message: str, value: dict[str, Any]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        _validator(message).validate(value)
