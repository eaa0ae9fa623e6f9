"""The README's "Calling from a web page" holds: its request, sent to a running server, gets its response
(the wall-clock stats aside), and the paths it names are the ones served."""

from __future__ import annotations

import json
import re

from tests.conftest import REPO, WebServers
from tests.support.http_client import post_json, request

TIMINGS = ("solveMs", "enumerateMs")


def _section() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return text.split("## Calling from a web page", 1)[1].split("\n## ", 1)[0]


def test_the_readme_request_gets_the_readme_response(web: WebServers) -> None:
    blocks = re.findall(r"```json\n(.*?)```", _section(), re.S)
    assert len(blocks) == 2
    sent, shown = json.loads(blocks[0]), json.loads(blocks[1])
    answer = post_json(web.http_port, "Solve", sent)
    assert answer.status == 200
    got = answer.json()
    for stats in (got["stats"], shown["stats"]):
        for key in TIMINGS:
            assert stats.pop(key) > 0
    assert got == shown


def test_the_readme_urls_are_served(web: WebServers) -> None:
    section = _section()
    for path in ("/openapi.json", "/examples", "/"):
        assert f"`GET {path}`" in section
        assert request(web.http_port, "GET", path).status == 200
    assert "/routemax.v1.RouteService/Solve" in section
    assert post_json(web.http_port, "Check", {}, service="grpc.health.v1.Health").json() == {"status": "SERVING"}
