"""Run the server (gRPC, and the HTTP side when `http_port` is set) until SIGTERM or SIGINT, then drain
both: health NOT_SERVING, stop with a grace period."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any

import routemax
from server.app import create_server
from server.config import SETTINGS, ConfigError, ServerConfig
from server.health import HealthServicer
from server.http_server import HttpServer, start_http_server
from server.listen import ListenError
from server.logging_setup import configure_logging
from server.request_log import InFlight
from server.service import RouteService

SWITCH_INTERVAL_S = 0.001  # Python's default is 0.005
log = logging.getLogger("routemax.server")
EXIT_CONFIG = 3  # a bad setting, or the address cannot be bound
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
POLL_S = 0.2
NOT_SERVING_WAIT_S = 2.0  # at most this long for the health watchers to be told before the drain starts


def serve(config: ServerConfig) -> int:
    """Serve until SIGTERM/SIGINT (a second signal stops at once); returns the exit code, 0 after a drain.

    Raises ListenError (an OSError) when the address cannot be bound."""
    configure_logging(config.log_level)
    # searches run Python loops in their threads: hand the interpreter over more often, so that health
    # checks and small calls answer quickly beside them (beside one large solve, health p50 22 ms -> 6 ms)
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    in_flight = InFlight()
    service = RouteService(config)  # one service, its worker slots shared by both sides
    server, port, health_servicer = create_server(config, in_flight, service)
    http: HttpServer | None = None
    if config.http_port is not None:
        try:
            http = start_http_server(config, service, health_servicer, in_flight)
        except BaseException:
            server.stop(None)
            raise
    signals: list[int] = []  # appended by the handler: no lock may be taken in a signal handler

    def on_signal(signum: int, _frame: Any) -> None:
        signals.append(signum)

    previous = {s: signal.signal(s, on_signal) for s in STOP_SIGNALS}
    try:
        http_address = {} if http is None else {"http_address": f"{config.host}:{http.port}"}
        log.info("start", extra={"fields": {"address": f"{config.host}:{port}", **http_address,
                                            "version": routemax.__version__, "pid": os.getpid(), **config.summary()}})
        while not signals:
            time.sleep(POLL_S)
        t0 = time.monotonic()
        _not_serving(health_servicer, min(config.grace_s, NOT_SERVING_WAIT_S))
        log.info("stopping", extra={"fields": {"signal": signal.Signals(signals[0]).name,
                                               "in_flight": in_flight.count, "grace_s": config.grace_s}})
        in_flight.stopping(config.grace_s)  # the request log's UNAVAILABLE for calls the drain cuts off
        done = [server.stop(config.grace_s)] + ([http.stop(config.grace_s)] if http is not None else [])
        while not all(d.wait(POLL_S) for d in done):
            if len(signals) > 1:
                log.warning("second signal: stopping at once", extra={"fields": {"in_flight": in_flight.count}})
                in_flight.stopping(0.0)
                stopped = [server.stop(None)] + ([http.stop(None)] if http is not None else [])
                for d in stopped:
                    d.wait()
                break
        log.info("stopped", extra={"fields": {"drain_ms": round((time.monotonic() - t0) * 1000, 1),
                                              "unfinished": in_flight.count}})
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 0


def serve_command(overrides: Mapping[str, Any], env: Mapping[str, str] = os.environ) -> int:
    """`routemax serve`: settings from env and the flags, then serve. Bad settings or an address that
    cannot be bound print one line and give exit code 3."""
    try:
        config = ServerConfig.from_env(env).with_overrides(**overrides)
        return serve(config)
    except (ConfigError, ListenError) as exc:
        print(f"routemax serve: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    except KeyboardInterrupt:  # a signal before the handlers were in place
        return 0


def _not_serving(health_servicer: HealthServicer, wait_s: float) -> None:
    """Every health status to NOT_SERVING. The change is sent to each Watch stream, waiting for each send
    to complete; a stalled watcher must not hold up the shutdown, so this waits at most wait_s."""
    worker = threading.Thread(target=health_servicer.enter_graceful_shutdown, name="health-shutdown", daemon=True)
    worker.start()
    worker.join(wait_s)
    if worker.is_alive():
        log.warning("health watchers not yet told NOT_SERVING", extra={"fields": {"waited_s": wait_s}})


def serve_main(argv: list[str]) -> int:
    """`routemax serve ARGS`: the flags (`server.serve_args`) over the ROUTEMAX_* variables, then serve."""
    import argparse

    from server.serve_args import add_serve_arguments

    args = add_serve_arguments(argparse.ArgumentParser(prog="routemax serve")).parse_args(argv)
    return serve_command({name: getattr(args, name) for name in SETTINGS})
