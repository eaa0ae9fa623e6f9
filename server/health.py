"""The standard gRPC health service, made safe for watchers that hang up while a status change is sent.

grpcio-health-checking sends a status change to every Watch stream while holding its lock, and waits for
each send to complete on grpcio's completion-queue thread. When a watcher hangs up meanwhile (as clients
do on NOT_SERVING during a shutdown), grpcio runs that stream's close callback on the same completion-queue
thread, and the callback takes the lock: the thread blocks, no send ever completes, and the server hangs.
Here the close callback runs on a thread of its own, so the completion-queue thread never waits for the lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from grpc_health.v1 import health


class HealthServicer(health.HealthServicer):
    """grpcio's HealthServicer whose Watch close bookkeeping never blocks grpcio's completion-queue thread."""

    def _on_close_callback(self, send_response_callback: Callable[[Any], None], service: str) -> Callable[[], None]:
        close = super()._on_close_callback(send_response_callback, service)

        def callback() -> None:
            threading.Thread(target=close, name="health-watch-close", daemon=True).start()

        return callback
