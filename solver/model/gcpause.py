"""Pause Python's cyclic garbage collector around allocation-heavy work.

Route enumeration allocates many short-lived tuples; in a process that also holds a large,
long-lived heap (a server, a benchmark, an audit worker), the collector's full passes then cost
more than the enumeration itself. The structures built here hold no reference cycles, so
reference counting frees them; collection resumes when the block ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
