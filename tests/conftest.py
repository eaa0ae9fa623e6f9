"""Shared fixtures: the corpus location, a real gRPC server on a free loopback port, and a real gRPC server
with the HTTP side beside it (one service) on free loopback ports.

The tests read the shared corpus (`ROUTEMAX_CORPUS`, default `../shared/corpus`) and the stress set
(`ROUTEMAX_STRESS`, default `stress` beside the corpus). When either is missing, the run stops before
collection with one line saying where it looked and how to point the tests elsewhere.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest

from routemax.v1 import routemax_pb2_grpc as pb_grpc
from server.app import create_server
from server.config import ServerConfig
from server.health import HealthServicer
from server.http_server import start_http_server
from server.request_log import InFlight
from server.service import RouteService

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("ROUTEMAX_CORPUS", REPO.parent / "shared" / "corpus"))
STRESS = Path(os.environ.get("ROUTEMAX_STRESS", CORPUS.parent / "stress"))


def missing_data() -> str | None:
    """Why the shared data cannot be read (one line), or None when the corpus and the stress set are there."""
    if not (CORPUS / "FORMAT.md").is_file():
        return (f"routemax tests: no shared corpus at {CORPUS} (no FORMAT.md there); put the corpus at "
                f"../shared/corpus beside the checkout or set ROUTEMAX_CORPUS=/path/to/corpus")
    if not any(STRESS.glob("*.jsonl.gz")):
        return (f"routemax tests: no stress positions at {STRESS}; put them beside the corpus or set "
                f"ROUTEMAX_STRESS=/path/to/stress")
    return None


def pytest_configure(config: pytest.Config) -> None:
    """Stop at once, before any test module reads the corpus, when the shared data is missing."""
    why = missing_data()
    if why is not None:
        raise pytest.UsageError(why)


@pytest.fixture(scope="session")
def server_port() -> Iterator[int]:
    server, port, _health = create_server(ServerConfig(host="127.0.0.1", port=0))
    yield port
    server.stop(grace=None)


@pytest.fixture(scope="session")
def channel(server_port: int) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{server_port}") as ch:
        grpc.channel_ready_future(ch).result(timeout=10)
        yield ch


@pytest.fixture()
def stub(channel: grpc.Channel) -> pb_grpc.RouteServiceStub:
    return pb_grpc.RouteServiceStub(channel)


ALLOWED_ORIGIN = "https://tables.example"  # the one origin the `web` servers admit


@dataclass(frozen=True)
class WebServers:
    """A gRPC server and the HTTP side beside it, sharing one RouteService and health servicer."""

    grpc_port: int
    http_port: int
    health: HealthServicer


@pytest.fixture(scope="session")
def web() -> Iterator[WebServers]:
    config = ServerConfig(host="127.0.0.1", port=0, http_port=0, cors_origins=(ALLOWED_ORIGIN,))
    service, in_flight = RouteService(config), InFlight()
    grpc_server, grpc_port, health = create_server(config, in_flight, service)
    http = start_http_server(config, service, health, in_flight)
    yield WebServers(grpc_port, http.port, health)
    http.stop(None).wait(10)
    grpc_server.stop(grace=None)


@pytest.fixture(scope="session")
def web_stub(web: WebServers) -> Iterator[pb_grpc.RouteServiceStub]:
    with grpc.insecure_channel(f"127.0.0.1:{web.grpc_port}") as ch:
        grpc.channel_ready_future(ch).result(timeout=10)
        yield pb_grpc.RouteServiceStub(ch)


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """Print the corpus tally (positions by revenue model) when the corpus ran."""
    from tests.solver import test_corpus

    tally = getattr(test_corpus, "TALLY", None)
    if tally:
        terminalreporter.write_line(
            "corpus: {generic} generic and {modifiers} modifiers positions ({above} above the recorded run), "
            "{other} of other models counted apart; {anchors} legal AutoRouter results compared".format(
                generic=tally["generic"], modifiers=tally["modifiers"], above=tally["above_recorded"],
                other=tally["other_model"], anchors=tally["anchors_compared"]))
        for reason, n in sorted(test_corpus.UNSUPPORTED.items()):
            terminalreporter.write_line(f"corpus: {n} unsupported positions, counted apart: {reason}")
