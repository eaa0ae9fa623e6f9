"""routemax: the package version, and the generated gRPC/protobuf stubs of proto/routemax in `routemax.v1`
(do not edit those; see server/protogen.py)."""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path


def _version() -> str:
    """The installed distribution's version; in a source tree that is not installed, pyproject.toml's."""
    try:
        return metadata.version("routemax")
    except metadata.PackageNotFoundError:
        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        found = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(), re.M) if pyproject.exists() else None
        return f"{found.group(1)}+source" if found else "0+unknown"


__version__ = _version()
