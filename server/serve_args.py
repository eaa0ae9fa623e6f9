"""The `routemax serve` arguments, shared by the command line's help and the server's entry
(this module imports no gRPC)."""

from __future__ import annotations

import argparse

from server.config import SETTINGS, ServerConfig

HELP_EXTRA = {
    "http_port": "; also serve HTTP JSON, gRPC-Web and the example page at / on this port (same host)",
    "cors_origins": "; comma-separated origins (https://example.org) whose pages may call the HTTP side, or *",
}


def add_serve_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the server's flags to `parser` (flags beat $ROUTEMAX_* variables beat defaults)."""
    for name, setting in SETTINGS.items():
        default = getattr(ServerConfig, name)
        shown = ",".join(default) or "none" if isinstance(default, tuple) else "off" if default is None else default
        parser.add_argument(setting.flag, dest=name, default=None, help=f"default {shown}, or ${setting.env}"
                            + HELP_EXTRA.get(name, ""))
    return parser
