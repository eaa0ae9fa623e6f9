"""ServerConfig: defaults, then ROUTEMAX_* variables, then flags; bad values name their source.
The service's time budget follows the configured default and maximum."""

from __future__ import annotations

import math

import grpc
import pytest

import routemax
from routemax.v1 import routemax_pb2 as pb
from server.config import SETTINGS, ConfigError, ServerConfig
from server.service import time_budget
from solver.examples import example_path


def test_defaults() -> None:
    c = ServerConfig()
    assert (c.host, c.port, c.default_time_limit_s, c.max_time_limit_s) == ("127.0.0.1", 50051, 10.0, 60.0)
    assert c.max_message_bytes == 16 * 1024 * 1024 and c.grace_s == 10.0 and c.log_level == "INFO"


def test_every_field_has_a_variable_and_a_flag() -> None:
    env = {"ROUTEMAX_HOST": "0.0.0.0", "ROUTEMAX_PORT": "6000", "ROUTEMAX_WORKERS": "3",
           "ROUTEMAX_DEFAULT_TIME_LIMIT_S": "2.5", "ROUTEMAX_MAX_TIME_LIMIT_S": "30",
           "ROUTEMAX_MAX_MESSAGE_BYTES": "1048576", "ROUTEMAX_LOG_LEVEL": "debug", "ROUTEMAX_GRACE_S": "0",
           "ROUTEMAX_HTTP_PORT": "8080", "ROUTEMAX_CORS_ORIGINS": "https://a.example, http://localhost:3000"}
    c = ServerConfig.from_env(env)
    assert c.summary() == {"host": "0.0.0.0", "port": 6000, "workers": 3, "default_time_limit_s": 2.5,
                           "max_time_limit_s": 30.0, "max_message_bytes": 1048576, "log_level": "DEBUG",
                           "grace_s": 0.0, "http_port": 8080,
                           "cors_origins": ["https://a.example", "http://localhost:3000"]}
    assert {s.env for s in SETTINGS.values()} == set(env)


def test_flags_beat_env_beat_defaults() -> None:
    c = ServerConfig.from_env({"ROUTEMAX_PORT": "6000", "ROUTEMAX_WORKERS": "3"})
    c = c.with_overrides(port="7000", workers=None, grace_s=2.0)
    assert (c.port, c.workers, c.grace_s, c.host) == (7000, 3, 2.0, "127.0.0.1")


def test_the_http_side_is_off_and_admits_no_origin_by_default() -> None:
    c = ServerConfig.from_env({})
    assert (c.http_port, c.cors_origins, c.host) == (None, (), "127.0.0.1")


def test_config_is_frozen() -> None:
    with pytest.raises(AttributeError):
        ServerConfig().port = 1  # type: ignore[misc]


@pytest.mark.parametrize(("env", "overrides", "source"), [
    ({"ROUTEMAX_PORT": "http"}, {}, "ROUTEMAX_PORT"),
    ({"ROUTEMAX_PORT": "70000"}, {}, "ROUTEMAX_PORT"),
    ({}, {"port": "-1"}, "--port"),
    ({"ROUTEMAX_WORKERS": "0"}, {}, "ROUTEMAX_WORKERS"),
    ({"ROUTEMAX_GRACE_S": "nan"}, {}, "ROUTEMAX_GRACE_S"),
    ({}, {"grace_s": "-1"}, "--grace"),
    ({"ROUTEMAX_DEFAULT_TIME_LIMIT_S": "0"}, {}, "ROUTEMAX_DEFAULT_TIME_LIMIT_S"),
    ({}, {"max_time_limit_s": "inf"}, "--max-time-limit"),
    ({}, {"default_time_limit_s": "-3"}, "--default-time-limit"),
    ({"ROUTEMAX_MAX_MESSAGE_BYTES": "16MiB"}, {}, "ROUTEMAX_MAX_MESSAGE_BYTES"),
    ({}, {"max_message_bytes": "0"}, "--max-message-bytes"),
    ({"ROUTEMAX_LOG_LEVEL": "chatty"}, {}, "ROUTEMAX_LOG_LEVEL"),
    ({}, {"host": " "}, "--host"),
    ({"ROUTEMAX_DEFAULT_TIME_LIMIT_S": "90"}, {}, "ROUTEMAX_DEFAULT_TIME_LIMIT_S"),
    ({"ROUTEMAX_MAX_TIME_LIMIT_S": "20"}, {"default_time_limit_s": "30"}, "--default-time-limit"),
    ({"ROUTEMAX_HTTP_PORT": "web"}, {}, "ROUTEMAX_HTTP_PORT"),
    ({}, {"http_port": "65536"}, "--http-port"),
    ({"ROUTEMAX_CORS_ORIGINS": "example.org"}, {}, "ROUTEMAX_CORS_ORIGINS"),
    ({}, {"cors_origins": "https://example.org/app"}, "--cors-origins"),
])
def test_bad_values_name_their_source(env: dict[str, str], overrides: dict[str, str], source: str) -> None:
    with pytest.raises(ConfigError) as err:
        ServerConfig.from_env(env).with_overrides(**overrides)
    message = str(err.value)
    assert message.startswith(source + ": ") and "\n" not in message
    assert err.value.source == source


def test_default_above_max_names_both() -> None:
    with pytest.raises(ConfigError, match=r"--default-time-limit: .*30 s exceeds the maximum 20 s \(--max-time"):
        ServerConfig().with_overrides(default_time_limit_s="30", max_time_limit_s="20")


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(ConfigError, match="^workers: "):
        ServerConfig(workers=True)
    with pytest.raises(ConfigError, match="^unknown_field: no such setting"):
        ServerConfig().with_overrides(unknown_field=1)


class FakeContext:
    """The two ServicerContext methods time_budget uses."""

    def __init__(self, remaining: float | None = None) -> None:
        self.remaining = remaining
        self.aborted: tuple[grpc.StatusCode, str] | None = None

    def time_remaining(self) -> float | None:
        return self.remaining

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.aborted = (code, details)
        raise RuntimeError("aborted")


def _req(limit: float | None) -> pb.SolveRequest:
    return pb.SolveRequest() if limit is None else pb.SolveRequest(time_limit_s=limit)


@pytest.mark.parametrize(("requested", "expected"), [(None, 4.0), (2.0, 2.0), (20.0, 8.0), (8.0, 8.0)])
def test_time_budget_default_and_cap(requested: float | None, expected: float) -> None:
    assert time_budget(_req(requested), FakeContext(), 4.0, 8.0) == expected


def test_time_budget_fits_the_deadline() -> None:
    assert time_budget(_req(None), FakeContext(remaining=5.0), 4.0, 8.0) == pytest.approx(3.0)


@pytest.mark.parametrize("requested", [0.0, -1.0, math.nan, math.inf])
def test_time_budget_rejects_bad_limits(requested: float) -> None:
    """The command line's rule: a time limit given must be a finite number above 0 (unset: the default)."""
    ctx = FakeContext()
    with pytest.raises(RuntimeError):
        time_budget(_req(requested), ctx, 4.0, 8.0)
    assert ctx.aborted is not None and ctx.aborted[0] is grpc.StatusCode.INVALID_ARGUMENT
    assert ctx.aborted[1].startswith("time_limit_s: ")


def test_nan_time_limit_over_grpc_is_invalid_argument(stub) -> None:
    snapshot = example_path("1839").read_text()
    with pytest.raises(grpc.RpcError) as err:
        stub.Solve(pb.SolveRequest(snapshot_json=snapshot, time_limit_s=math.nan), timeout=30)
    assert err.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert "time_limit_s" in err.value.details()


def test_list_rulesets_reports_the_server_version(stub) -> None:
    listed = stub.ListRulesets(pb.ListRulesetsRequest(), timeout=10)
    assert listed.server_version == routemax.__version__ and listed.server_version[0].isdigit()
