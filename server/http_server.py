"""Serve the HTTP side (`server.http_app`) with uvicorn on its own thread and event loop, beside the gRPC
server: the socket is bound first (a port in use is a ListenError, port 0 picks a free port), and
`stop(grace)` drains it as the gRPC server drains: no new connections, calls in flight finish within
the grace period, then the rest are cancelled (their searches stop)."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import uvicorn

from server.config import ServerConfig
from server.health import HealthServicer
from server.http_app import build_app
from server.listen import listening_socket
from server.request_log import InFlight
from server.service import SPARE_THREADS, RouteService

STARTUP_TIMEOUT_S = 30.0
FORCED_STOP_S = 0.05  # stop(None): calls in flight are cancelled after this
KEEP_ALIVE_S = 30  # a page calls again soon: keep its connection open
logging.getLogger("uvicorn").setLevel(logging.WARNING)  # its start and stop lines: ours say it in JSON


class HttpServer:
    """One running HTTP side: `port` is the bound port; `stop` drains it."""

    def __init__(self, config: ServerConfig, service: RouteService, health: HealthServicer,
                 in_flight: InFlight | None = None) -> None:
        assert config.http_port is not None, "the HTTP side needs config.http_port"
        self._socket = listening_socket(config.host, config.http_port)
        self.port: int = self._socket.getsockname()[1]
        # like the gRPC server's pool: `workers` computing calls, spare threads for light calls and waiting ones
        self._executor = ThreadPoolExecutor(max_workers=config.workers + SPARE_THREADS, thread_name_prefix="http")
        app = build_app(config, service, health, in_flight or InFlight(), self._executor)
        self._server = uvicorn.Server(uvicorn.Config(
            app, log_config=None, access_log=False, lifespan="off", loop="asyncio", http="auto",
            server_header=False, timeout_keep_alive=KEEP_ALIVE_S, timeout_graceful_shutdown=config.grace_s))
        self._stopped = threading.Event()
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="http-server", daemon=True)

    def start(self) -> HttpServer:
        """Start serving; returns once uvicorn accepts connections."""
        self._thread.start()
        end = time.monotonic() + STARTUP_TIMEOUT_S
        while not self._server.started:
            if self._stopped.is_set() or time.monotonic() > end:
                raise RuntimeError(f"the HTTP server did not start: {self._failure!r}")
            time.sleep(0.01)
        return self

    def stop(self, grace: float | None) -> threading.Event:
        """Stop accepting, let calls in flight finish within `grace` seconds (None: none), then cancel them.
        Returns an event set once the server has stopped."""
        if grace is None:
            self._server.config.timeout_graceful_shutdown = FORCED_STOP_S
            self._server.force_exit = True
        else:
            self._server.config.timeout_graceful_shutdown = grace
        self._server.should_exit = True
        return self._stopped

    def _run(self) -> None:
        try:
            asyncio.run(self._server.serve(sockets=[self._socket]))
        except BaseException as exc:  # noqa: BLE001 - reported by start()
            self._failure = exc
        finally:
            self._socket.close()
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._stopped.set()


def start_http_server(config: ServerConfig, service: RouteService, health: HealthServicer,
                      in_flight: InFlight | None = None) -> HttpServer:
    """Bind config.host:config.http_port and serve the HTTP side; ListenError when it cannot be bound."""
    return HttpServer(config, service, health, in_flight).start()
