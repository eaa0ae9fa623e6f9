"""Server configuration: defaults, then ROUTEMAX_* environment variables, then `routemax serve` flags."""

from __future__ import annotations

import dataclasses
import logging
import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_GRPC_MESSAGE_BYTES = 2**31 - 1


class ConfigError(ValueError):
    """A bad setting; the message is one line naming the variable or flag it came from."""

    def __init__(self, source: str, message: str) -> None:
        super().__init__(f"{source}: {message}")
        self.source = source


@dataclass(frozen=True)
class Setting:
    """Where one ServerConfig field can be set, and how its text is read."""

    env: str
    flag: str
    parse: Callable[[str], Any]


def _int(text: str) -> int:
    return int(text.strip())


def _float(text: str) -> float:
    return float(text.strip())


def _str(text: str) -> str:
    return text.strip()


def _origins(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


SETTINGS: dict[str, Setting] = {
    "host": Setting("ROUTEMAX_HOST", "--host", _str),
    "port": Setting("ROUTEMAX_PORT", "--port", _int),
    "workers": Setting("ROUTEMAX_WORKERS", "--workers", _int),
    "default_time_limit_s": Setting("ROUTEMAX_DEFAULT_TIME_LIMIT_S", "--default-time-limit", _float),
    "max_time_limit_s": Setting("ROUTEMAX_MAX_TIME_LIMIT_S", "--max-time-limit", _float),
    "max_message_bytes": Setting("ROUTEMAX_MAX_MESSAGE_BYTES", "--max-message-bytes", _int),
    "log_level": Setting("ROUTEMAX_LOG_LEVEL", "--log-level", _str),
    "grace_s": Setting("ROUTEMAX_GRACE_S", "--grace", _float),
    "http_port": Setting("ROUTEMAX_HTTP_PORT", "--http-port", _int),
    "cors_origins": Setting("ROUTEMAX_CORS_ORIGINS", "--cors-origins", _origins),
}


@dataclass(frozen=True)
class ServerConfig:
    """Everything `routemax serve` needs; invalid values raise ConfigError on construction."""

    host: str = "127.0.0.1"
    port: int = 50051
    workers: int = 4
    default_time_limit_s: float = 10.0
    max_time_limit_s: float = 60.0
    max_message_bytes: int = 16 * 1024 * 1024
    log_level: str = "INFO"
    grace_s: float = 10.0
    http_port: int | None = None  # the HTTP side (JSON, gRPC-Web, the page): off unless set
    cors_origins: tuple[str, ...] = ()  # origins whose pages may call the HTTP side; none by default
    # field name -> the variable or flag that set it (for error messages only)
    origin: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "log_level", str(self.log_level).upper())
        for name in SETTINGS:
            _check(name, getattr(self, name), self._source(name))
        if self.default_time_limit_s > self.max_time_limit_s:
            raise ConfigError(self._source("default_time_limit_s"),
                              f"default time limit {self.default_time_limit_s:g} s exceeds the maximum "
                              f"{self.max_time_limit_s:g} s ({self._source('max_time_limit_s')})")

    def _source(self, name: str) -> str:
        return self.origin.get(name, name)

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> ServerConfig:
        """Defaults overridden by the ROUTEMAX_* variables present in env."""
        values: dict[str, Any] = {}
        origin: dict[str, str] = {}
        for name, setting in SETTINGS.items():
            if setting.env in env:
                values[name] = _parse(setting.parse, env[setting.env], setting.env)
                origin[name] = setting.env
        return cls(**values, origin=origin)

    def with_overrides(self, **overrides: Any) -> ServerConfig:
        """A copy with the given fields replaced; None means "keep". Text values are parsed and
        errors name the field's `serve` flag."""
        values: dict[str, Any] = {}
        origin = dict(self.origin)
        for name, value in overrides.items():
            if name not in SETTINGS:
                raise ConfigError(name, "no such setting")
            if value is None:
                continue
            setting = SETTINGS[name]
            values[name] = _parse(setting.parse, value, setting.flag) if isinstance(value, str) else value
            origin[name] = setting.flag
        return dataclasses.replace(self, **values, origin=origin)

    def summary(self) -> dict[str, Any]:
        """The settings as plain values (for the startup log)."""
        return {name: list(v) if isinstance(v := getattr(self, name), tuple) else v for name in SETTINGS}


def _parse(parse: Callable[[str], Any], text: str, source: str) -> Any:
    try:
        return parse(text)
    except ValueError:
        raise ConfigError(source, f"not a valid {'integer' if parse is _int else 'number'}: {text!r}") from None


def _check(name: str, value: Any, source: str) -> None:
    """Type and range of one field."""
    checks: dict[str, Callable[[Any], str | None]] = {
        "host": lambda v: None if isinstance(v, str) and v else "must be a non-empty host name or address",
        "port": lambda v: _int_range(v, 0, 65535),
        "workers": lambda v: _int_range(v, 1, 1024),
        "default_time_limit_s": _positive_seconds,
        "max_time_limit_s": _positive_seconds,
        "max_message_bytes": lambda v: _int_range(v, 1, MAX_GRPC_MESSAGE_BYTES),
        "log_level": lambda v: None if v in LOG_LEVELS and isinstance(logging.getLevelName(v), int)
        else f"must be one of {', '.join(LOG_LEVELS)}",
        "grace_s": lambda v: _seconds(v, allow_zero=True),
        "http_port": lambda v: None if v is None else _int_range(v, 0, 65535),
        "cors_origins": _origin_list,
    }
    problem = checks[name](value)
    if problem:
        raise ConfigError(source, f"{problem} (got {value!r})")


def _int_range(value: Any, low: int, high: int) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        return f"must be an integer from {low} to {high}"
    return None


def _seconds(value: Any, allow_zero: bool) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return "must be a finite number of seconds"
    if value < 0 or (value == 0 and not allow_zero):
        return "must be positive" if not allow_zero else "must not be negative"
    return None


def _origin_list(value: Any) -> str | None:
    if not isinstance(value, tuple) or not all(isinstance(o, str) for o in value):
        return "must be a comma-separated list of origins"
    for origin in value:
        if origin != "*" and (not origin.startswith(("http://", "https://")) or origin.endswith("/")
                              or origin.count("/") != 2):
            return f"{origin!r} is not an origin such as https://example.org (scheme and host, no path) or *"
    return None


def _positive_seconds(value: Any) -> str | None:
    return _seconds(value, allow_zero=False)
