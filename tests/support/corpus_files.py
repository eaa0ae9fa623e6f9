"""One corpus game per title, for the tests that draw or read a position of every title."""

from __future__ import annotations

from pathlib import Path

from solver.input.snapshot import read_positions
from tests.conftest import CORPUS


def _has_recorded_routes(path: Path) -> bool:
    return any(p.raw is not None and (p.raw.get("recorded") or {}).get("routes") for p in read_positions(path))


TITLE_DIRS = sorted({p.parent.name for p in CORPUS.glob("*/*.jsonl.gz")})
# per title, its first game with a recorded run to draw
TITLE_FILES = [next(p for p in sorted(CORPUS.glob(f"{t}/*.jsonl.gz")) if _has_recorded_routes(p)) for t in TITLE_DIRS]


def priced_positions(path: Path) -> list[dict]:
    """The snapshots of one game that the generic rules price (revenue model generic or modifiers), in order."""
    return [p.raw for p in read_positions(path) if p.raw.get("revenue_model") in ("generic", "modifiers")]


def late_positions(count: int) -> list[tuple[str, dict]]:
    """The last `count` priced snapshots of every title's game, each with its title folder."""
    return [(path.parent.name, raw) for path in TITLE_FILES for raw in priced_positions(path)[-count:]]


def corpus_line(game: str, line: int) -> dict:
    """The snapshot on this line (1-based) of a corpus file (`game`: its path below the corpus folder)."""
    return next(p.raw for p in read_positions(CORPUS / game) if p.source.endswith(f":{line}"))
