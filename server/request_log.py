"""One log line per RPC (method, ruleset, positions, status, duration, revenue): a grpc.ServerInterceptor, and
the same wrapper for the calls of the HTTP side."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import grpc

log = logging.getLogger("routemax.request")
QUIET_SERVICES = frozenset({"grpc.health.v1.Health"})  # probes: logged at DEBUG only
_call = threading.local()  # the fields the handler of the call in this thread noted


def note(**fields: Any) -> None:
    """Add fields (the ruleset, once the board is read) to the log line of the call being handled."""
    notes = getattr(_call, "notes", None)
    if notes is not None:
        notes.update(fields)


class InFlight:
    """A thread-safe count of the RPCs being handled, and when a shutdown cuts off those still running."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._n = 0
        self._cut_off_at: float | None = None  # time.monotonic() of the shutdown's cut-off

    def stopping(self, grace_s: float) -> None:
        """The server stops: calls still running in `grace_s` seconds are cut off (their clients get
        UNAVAILABLE). A later, sooner stop (a second signal) moves the cut-off forward."""
        at = time.monotonic() + grace_s
        with self._lock:
            self._cut_off_at = at if self._cut_off_at is None else min(self._cut_off_at, at)

    def cut_off(self) -> bool:
        """Whether a shutdown has cut off the calls still running."""
        with self._lock:
            return self._cut_off_at is not None and time.monotonic() >= self._cut_off_at

    def add(self, delta: int) -> None:
        with self._lock:
            self._n += delta

    @property
    def count(self) -> int:
        with self._lock:
            return self._n


class RequestLogInterceptor(grpc.ServerInterceptor):
    """Wraps unary-unary and stream-stream handlers; logs after each call ends, however it ends."""

    def __init__(self, in_flight: InFlight | None = None) -> None:
        self.in_flight = in_flight or InFlight()

    def intercept_service(self, continuation: Callable, handler_call_details: grpc.HandlerCallDetails):
        handler = continuation(handler_call_details)
        if handler is None:
            return None
        service, method = handler_call_details.method.lstrip("/").rsplit("/", 1)
        level = logging.DEBUG if service in QUIET_SERVICES else logging.INFO
        if handler.unary_unary is not None:
            return grpc.unary_unary_rpc_method_handler(
                self._unary(method, level, handler.unary_unary), handler.request_deserializer,
                handler.response_serializer)
        if handler.stream_stream is not None:
            return grpc.stream_stream_rpc_method_handler(
                self._stream(method, level, handler.stream_stream), handler.request_deserializer,
                handler.response_serializer)
        return handler  # unary-stream (health Watch): long-lived, not logged per call

    def _unary(self, method: str, level: int, behaviour: Callable) -> Callable:
        return logged_unary(method, behaviour, self.in_flight, level)

    def _stream(self, method: str, level: int, behaviour: Callable) -> Callable:
        def wrapped(request_iterator: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
            t0 = time.perf_counter()
            self.in_flight.add(1)
            log.debug("request_start", extra={"fields": {"method": method}})
            into, out = ("positions", "lines") if method == "Audit" else ("messages_in", "messages_out")
            counts = {into: 0, out: 0}

            def counted() -> Iterator[Any]:
                for item in request_iterator:
                    counts[into] += 1
                    yield item

            failed = True
            try:
                for message in behaviour(counted(), context):
                    counts[out] += 1
                    yield message
                failed = False
            finally:
                self.in_flight.add(-1)
                _emit(level, {"method": method, **counts}, context, failed, t0, self.in_flight)

        return wrapped


def logged_unary(method: str, behaviour: Callable, in_flight: InFlight, level: int = logging.INFO,
                 extra: dict[str, Any] | None = None) -> Callable:
    """`behaviour(request, context)` wrapped to count itself in flight and log one line when it ends (the
    gRPC interceptor's and the HTTP side's). `context` needs `code()`, `details()`, `is_active()` and
    `time_remaining()`."""

    def wrapped(request: Any, context: Any) -> Any:
        t0 = time.perf_counter()
        in_flight.add(1)
        log.debug("request_start", extra={"fields": {"method": method, **(extra or {})}})
        response, failed = None, True
        _call.notes = {}
        try:
            response = behaviour(request, context)
            failed = False
            return response
        finally:
            in_flight.add(-1)
            fields: dict[str, Any] = {"method": method, **(extra or {}), **_call.notes}
            _call.notes = None
            _emit(level, fields, context, failed, t0, in_flight, response)

    return wrapped


def _emit(level: int, fields: dict[str, Any], context: Any, failed: bool, t0: float, in_flight: InFlight,
          response: Any = None) -> None:
    """Log the call's line with the status its client saw. A call that is no longer active was cut short
    even when its handler returned (the search answers its best so far on cancel): the deadline passed
    (DEADLINE_EXCEEDED), the shutdown cut it off (UNAVAILABLE) or the client went away (CANCELLED)."""
    code = context.code()
    if code is None and not context.is_active():
        code = _cut_short(context, in_flight)
    if code is None and failed:
        code = grpc.StatusCode.UNKNOWN
    code = code or grpc.StatusCode.OK
    if code is grpc.StatusCode.OK and response is not None and "revenue" in response.DESCRIPTOR.fields_by_name:
        fields["revenue"] = response.revenue
    fields["code"] = code.name
    fields["duration_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    if code is not grpc.StatusCode.OK:
        details = context.details()
        if details:
            fields["details"] = details.decode() if isinstance(details, bytes) else str(details)
    log.log(level, "request", extra={"fields": fields})


DEADLINE_SLACK_S = 0.05  # a call that ends this close to its deadline ended by it (grpc's clock and ours differ)


def ended_by_deadline(context: Any) -> bool:
    """Whether a call that is no longer active ended because its deadline passed."""
    remaining = context.time_remaining()
    return remaining is not None and remaining <= DEADLINE_SLACK_S


def _cut_short(context: Any, in_flight: InFlight) -> grpc.StatusCode:
    """Why a call ended before its answer was sent."""
    if ended_by_deadline(context):
        return grpc.StatusCode.DEADLINE_EXCEEDED
    return grpc.StatusCode.UNAVAILABLE if in_flight.cut_off() else grpc.StatusCode.CANCELLED
