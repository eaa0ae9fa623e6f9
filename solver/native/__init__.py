"""Compiled kernels: the hottest loops of the search in plain C (this package's `.c` files), built by
setuptools at install (`setup.py` finds them) and loaded with ctypes. Each mirrors a Python function that
stays the reference (the tests run both and compare them); without a C compiler the install leaves them
out and the Python runs instead. `ROUTEMAX_NATIVE=0` turns them off.
"""

from __future__ import annotations

import ctypes
import importlib.machinery
import os
import sys
from functools import cache
from pathlib import Path

HERE = Path(__file__).parent


def enabled() -> bool:
    """Whether kernels may be used (`ROUTEMAX_NATIVE=0` turns them off, for comparisons and diagnosis)."""
    return os.environ.get("ROUTEMAX_NATIVE", "1") != "0"


@cache
def _built(name: str) -> ctypes.CDLL | None:
    if sys.byteorder != "little":  # the kernels read bit sets as little-endian 64-bit words
        return None
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = HERE / f"_{name}{suffix}"
        if path.exists():
            try:
                return ctypes.CDLL(str(path))
            except OSError:  # not loadable here (another machine's build, a damaged file): the Python runs
                return None
    return None


def library(name: str) -> ctypes.CDLL | None:
    """The built kernel `name` (from `name.c`), or None when it was not built or kernels are off."""
    return _built(name) if enabled() else None
