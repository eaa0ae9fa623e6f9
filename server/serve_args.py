"""The `routemax serve` arguments, shared by the command line's help and the server's entry
(this module imports no gRPC)."""

from __future__ import annotations

import argparse

from server.config import SETTINGS, ServerConfig


def add_serve_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the server's flags to `parser` (flags beat $ROUTEMAX_* variables beat defaults)."""
    for name, setting in SETTINGS.items():
        parser.add_argument(setting.flag, dest=name, default=None,
                            help=f"default {getattr(ServerConfig, name)}, or ${setting.env}")
    return parser
