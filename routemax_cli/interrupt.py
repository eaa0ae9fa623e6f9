"""Clean Ctrl-C: the work runs in a worker thread with a cancel token; an interrupt in the main
thread cancels it (CP-SAT stops at once and the solve returns its best answer so far)."""

from __future__ import annotations

import queue
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from solver.model.cancel import CancelToken

T = TypeVar("T")


class Interrupted(Exception):
    """Ctrl-C came; `partial` is what the work returned after it was cancelled (None if nothing)."""

    def __init__(self, partial: object = None) -> None:
        super().__init__("interrupted")
        self.partial = partial


def run_interruptible(work: Callable[[CancelToken], T]) -> T:
    """`work(token)` in a daemon thread; Ctrl-C cancels the token and raises `Interrupted` with
    the result the cancelled work still returned. A second Ctrl-C gives up waiting."""
    token = CancelToken()
    box: queue.Queue[tuple[bool, object]] = queue.Queue(maxsize=1)

    def target() -> None:
        try:
            box.put((True, work(token)))
        except BaseException as exc:  # handed to the main thread, which re-raises it
            box.put((False, exc))

    threading.Thread(target=target, name="routemax-work", daemon=True).start()
    interrupted = False
    while True:
        try:
            ok, value = box.get(timeout=0.1)
        except queue.Empty:
            continue
        except KeyboardInterrupt:
            if interrupted:
                raise Interrupted() from None
            interrupted = True
            token.cancel()
            continue
        if not ok:
            raise value  # type: ignore[misc]
        if interrupted:
            raise Interrupted(value)
        return value  # type: ignore[return-value]


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a service manager, `kill`) handled as Ctrl-C for the block: the same clean stop (workers
    ended, the resume hint). Only in the main thread, where Python runs signal handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
