"""Reading the command line's inputs strictly: snapshot files and positions, route files, mine
files and time limits. Every problem is a `CliError` naming the file, the line or position, the
field and what is wrong."""

from __future__ import annotations

import gzip
import json
import math
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from routemax_cli.exits import CliError, Exit
from solver.model.results import ClaimedRoute

if TYPE_CHECKING:
    from solver.input.snapshot import Position
    from solver.model.board import Board


def output_path(text: str, flag: str) -> Path:
    """A file the command will write, checked before a long run so that the run does not fail at its
    end: its folder exists and may be written, and it is no folder itself."""
    path = Path(text)
    folder = path.parent
    if path.is_dir():
        raise CliError(Exit.BAD_INPUT, f"{flag}: {text} is a folder, not a file")
    if not folder.is_dir():
        what = "not a folder" if folder.exists() else "no such folder"
        raise CliError(Exit.BAD_INPUT, f"{flag}: {text}: {what} {str(folder)!r}")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise CliError(Exit.BAD_INPUT, f"{flag}: {text}: not allowed to write it")
    return path


def time_limit(text: str) -> float:
    """A time limit in seconds: a finite number above 0 (the service's rule too)."""
    try:
        value = float(text)
    except ValueError:
        raise CliError(Exit.USAGE, f"--time-limit: {text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise CliError(Exit.USAGE, f"--time-limit: must be a number of seconds above 0, got {text}")
    return value


def time_limit_arg(text: str) -> float:
    """`time_limit` as an argparse type: a bad value is a usage error naming --time-limit."""
    import argparse

    try:
        return time_limit(text)
    except CliError as exc:
        raise argparse.ArgumentTypeError(exc.message.removeprefix("--time-limit: ")) from None


def board_of(raw: dict[str, Any], source: str) -> Board:
    """The validated board of a snapshot; a CliError (bad input) naming the source and the field."""
    from solver.input.snapshot import board_from_snapshot
    from solver.model.errors import BoardError

    try:
        return board_from_snapshot(raw)
    except BoardError as exc:
        raise CliError(Exit.BAD_INPUT, f"{source}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CliError(Exit.BAD_INPUT, f"{source}: malformed snapshot ({exc!r})") from None


def snapshot_path(file: str | None, example: str | None) -> Path:
    """The snapshot file named, or the built-in example (`--example`, default the default one); both named is a
    usage error (one would be ignored)."""
    from solver.examples import example_path

    if file is not None and example:
        raise CliError(Exit.USAGE, f"--example {example}: give a file or --example, not both")
    return example_path(example or "default") if file is None else Path(file)


def positions(path: Path, position: int | None) -> Iterator[Position]:
    """The positions of a snapshot file, or only the N-th (0-based); errors name the file and line."""
    if position is not None and position < 0:
        raise CliError(Exit.USAGE, f"--position: must be 0 or more, got {position}")
    if not path.exists():
        raise CliError(Exit.BAD_INPUT, f"{path}: no such file")
    if path.is_dir():
        raise CliError(Exit.BAD_INPUT, f"{path}: is a folder, not a snapshot file")
    from solver.input.snapshot import read_positions

    count = 0
    try:
        for i, pos in enumerate(read_positions(path)):
            count += 1
            if position is None or i == position:
                yield pos
    except (OSError, EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise CliError(Exit.BAD_INPUT, f"{path}: unreadable or truncated after {count} positions ({exc})") from None
    except UnicodeDecodeError:
        raise CliError(Exit.BAD_INPUT, f"{path}: not UTF-8 text") from None
    except (ValueError, RecursionError) as exc:
        raise _refused_json(path, exc) from None
    if count == 0:  # an empty file (or a gzip of one): nothing to solve, evaluate or draw
        raise CliError(Exit.BAD_INPUT, f"{path}: holds no position")
    if position is not None and position >= count:
        raise CliError(Exit.USAGE, f"--position {position}: {path} has {count} position(s), numbered from 0")


def snapshot_object(pos: Position) -> dict[str, Any]:
    """The snapshot of a position as a JSON object, or a CliError naming where it is broken."""
    if pos.raw is None:
        raise CliError(Exit.BAD_INPUT, f"{pos.source}: {pos.error or 'unreadable'}")
    if not isinstance(pos.raw, dict):
        raise CliError(Exit.BAD_INPUT, f"{pos.source}: a snapshot is a JSON object, got {type(pos.raw).__name__}")
    return pos.raw


def load_json(path: Path, what: str) -> Any:
    """A JSON file; a CliError (bad input) naming the file and the line when it is missing or broken."""
    if not path.exists():
        raise CliError(Exit.BAD_INPUT, f"{path}: no such file")
    from solver.model.jsonread import file_value

    try:
        return file_value(path.read_text(encoding="utf-8"), str(path))
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(Exit.BAD_INPUT, f"{path}: unreadable {what} file ({exc})") from None
    except (ValueError, RecursionError) as exc:
        raise _refused_json(path, exc) from None


def _refused_json(path: Path, exc: ValueError | RecursionError) -> CliError:
    """The one-line error of a JSON file that the reader refused: a syntax error at its line, text no output
    could hold (`jsonread.check_unicode`, naming the field), a number Python will not read (more than 4,300
    digits), or nesting too deep."""
    from solver.model.errors import BoardError
    from solver.model.jsonread import refusal

    if isinstance(exc, json.JSONDecodeError):
        return CliError(Exit.BAD_INPUT, f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})")
    if isinstance(exc, BoardError):
        return CliError(Exit.BAD_INPUT, f"{exc.field}: {exc.message}")
    if isinstance(exc, RecursionError):
        return CliError(Exit.BAD_INPUT, f"{path}: JSON nested too deeply")
    return CliError(Exit.BAD_INPUT, f"{path}: not valid JSON ({refusal(exc)})")


def routes_file(path: Path) -> list[ClaimedRoute]:
    """A route set: a JSON list of routes, or an object with `routes` (a snapshot's `recorded` block)."""
    data = load_json(path, "routes")
    if isinstance(data, dict):
        if "routes" not in data:
            raise CliError(Exit.BAD_INPUT, f"{path}: routes: missing (give a list of routes or {{\"routes\": [...]}})")
        data = data["routes"]
    if not isinstance(data, list):
        raise CliError(Exit.BAD_INPUT, f"{path}: routes: must be a list of routes")
    from solver.model.errors import BoardError
    from solver.routes.claims import claims_from_json

    try:
        return claims_from_json(data)
    except BoardError as exc:
        raise CliError(Exit.BAD_INPUT, f"{path}: {exc}") from None


def recorded_routes(raw: dict[str, Any], source: str) -> list[ClaimedRoute]:
    """The snapshot's recorded routes as claims; a position nobody ran (`recorded: null`) has none to judge."""
    from solver.model.errors import BoardError
    from solver.routes.claims import claims_from_recorded

    try:
        return claims_from_recorded(raw.get("recorded"))
    except BoardError as exc:
        hint = "; give --routes" if raw.get("recorded") is None else ""
        raise CliError(Exit.BAD_INPUT, f"{source}: {exc}{hint}") from None


def mines_file(path: Path) -> dict[str, Any]:
    """The mines description of `routemax mines`: an object with a `mines` list."""
    data = load_json(path, "mines")
    if not isinstance(data, dict):
        raise CliError(Exit.BAD_INPUT, f"{path}: must be a JSON object with a mines list")
    if not isinstance(data.get("mines"), list):
        raise CliError(Exit.BAD_INPUT, f"{path}: mines: missing or not a list")
    for key in ("public_company", "harzer_werke"):
        if key in data and not isinstance(data[key], bool):
            raise CliError(Exit.BAD_INPUT, f"{path}: {key}: must be true or false")
    if "hw_bonus" in data and (isinstance(data["hw_bonus"], bool) or not isinstance(data["hw_bonus"], int)):
        raise CliError(Exit.BAD_INPUT, f"{path}: hw_bonus: must be a whole number")
    return data
