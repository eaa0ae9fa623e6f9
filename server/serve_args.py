"""The `routemax serve` arguments, shared by the command line's help and the server's entry
(this module imports no gRPC)."""

from __future__ import annotations

import argparse


def add_serve_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the server's flags to `parser`."""
    parser.add_argument("--host", default=None, help="listen address (default 127.0.0.1, or $ROUTEMAX_HOST)")
    parser.add_argument("--port", type=int, default=None, help="port (default 50051, or $ROUTEMAX_PORT)")
    return parser
