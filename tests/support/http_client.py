"""A plain HTTP client for the HTTP side's tests (http.client, one connection per call) and the
comparison of its JSON answers with gRPC's."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message

ROUTES = "routemax.v1.RouteService"
JSON = {"content-type": "application/json"}


@dataclass
class Answer:
    """One HTTP answer: status, headers (lower-case names) and body."""

    status: int
    headers: dict[str, str]
    body: bytes
    _json: Any = field(default=None, repr=False)

    def json(self) -> Any:
        if self._json is None:
            self._json = json.loads(self.body)
        return self._json


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
            timeout: float = 120.0) -> Answer:
    """One HTTP request to 127.0.0.1:port."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    finally:
        conn.close()


def post_json(port: int, rpc: str, payload: dict | bytes, headers: dict[str, str] | None = None,
              service: str = ROUTES) -> Answer:
    """POST one JSON request to /<service>/<rpc>."""
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return request(port, "POST", f"/{service}/{rpc}", body, {**JSON, **(headers or {})})


def as_message(answer: Answer, message_class: type[Message]) -> Message:
    """A 200 answer's JSON read back into the response message (strictly: no unknown field)."""
    assert answer.status == 200, (answer.status, answer.body[:500])
    return json_format.Parse(answer.body, message_class(), ignore_unknown_fields=False)


def without_timings(message: Message) -> Message:
    """A copy without the solve stats' wall-clock times (the only fields two identical calls may differ in)."""
    copy = type(message)()
    copy.CopyFrom(message)
    if "stats" in copy.DESCRIPTOR.fields_by_name and copy.HasField("stats"):  # type: ignore[attr-defined]
        copy.stats.ClearField("solve_ms")  # type: ignore[attr-defined]
        copy.stats.ClearField("enumerate_ms")  # type: ignore[attr-defined]
    if "answers" in copy.DESCRIPTOR.fields_by_name:  # WhatIf: each scenario's time
        for answer in copy.answers:  # type: ignore[attr-defined]
            answer.ClearField("solve_ms")
    return copy
