"""The `routemax` console entry: `serve` starts the gRPC server (`server.lifecycle`); every other command
belongs to the command line (`routemax_cli`), which never imports gRPC."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run one `routemax` command; the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["serve"]:
        from server.lifecycle import serve_main

        return serve_main(args[1:])
    from routemax_cli.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
