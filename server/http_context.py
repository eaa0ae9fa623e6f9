"""One HTTP call seen through the part of `grpc.ServicerContext` the handlers use, so that the gRPC
RouteService's handlers answer HTTP calls unchanged: the deadline, the end-of-call callbacks (the
solver's cancel token), `abort` (raised as a Connect error with the same code and message), and the
code and details the request log reads."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import NoReturn

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError

_CODES = {status: Code[("CANCELED" if status is grpc.StatusCode.CANCELLED else status.name)]
          for status in grpc.StatusCode if status is not grpc.StatusCode.OK}


def connect_code(status: grpc.StatusCode) -> Code:
    """The Connect code of a gRPC status code (the same code: gRPC's name in Connect's spelling)."""
    return _CODES[status]


class HttpCallContext:
    """The deadline, callbacks and status of one HTTP call, for handlers written against gRPC's context."""

    def __init__(self, timeout_s: float | None = None) -> None:
        self._deadline = None if timeout_s is None else time.monotonic() + timeout_s
        self._lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []
        self._ended = False
        self._code: grpc.StatusCode | None = None
        self._details: str | None = None

    def time_remaining(self) -> float | None:
        """Seconds until the deadline (never negative), or None without one."""
        return None if self._deadline is None else max(0.0, self._deadline - time.monotonic())

    def expired(self) -> bool:
        return self._deadline is not None and time.monotonic() >= self._deadline

    def add_callback(self, callback: Callable[[], None]) -> bool:
        """Run `callback` when the call ends; False (not added) when it has already ended."""
        with self._lock:
            if self._ended:
                return False
            self._callbacks.append(callback)
            return True

    def is_active(self) -> bool:
        return not self._ended and not self.expired()

    def end(self, status: grpc.StatusCode | None = None) -> None:
        """The call is over (answered, or `status`: CANCELLED, DEADLINE_EXCEEDED): run the callbacks once."""
        with self._lock:
            if self._ended:
                return
            self._ended = True
            callbacks, self._callbacks = self._callbacks, []
            if status is not None and self._code is None:
                self._code = status
        for callback in callbacks:
            callback()

    def abort(self, code: grpc.StatusCode, details: str) -> NoReturn:
        """End the handler with an error: raised as a ConnectError of the same code and message."""
        self._code, self._details = code, details
        raise ConnectError(connect_code(code), details)

    def set_code(self, code: grpc.StatusCode) -> None:
        self._code = code

    def set_details(self, details: str) -> None:
        self._details = details

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def details(self) -> str | None:
        return self._details

    def raise_if_failed(self) -> None:
        """A status the handler set without aborting (the health Check's NOT_FOUND) as a ConnectError."""
        if self._code is not None and self._code is not grpc.StatusCode.OK:
            raise ConnectError(connect_code(self._code), self._details or self._code.name.lower())
