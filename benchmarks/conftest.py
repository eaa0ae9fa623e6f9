"""Benchmark fixtures: the shared corpus grouped by title."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

from solver.board import Board
from solver.snapshot import board_from_snapshot, read_positions

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("ROUTEMAX_CORPUS", REPO.parent / "shared" / "corpus"))


def boards_by_title(plain_only: bool = True) -> dict[str, list[Board]]:
    """Every corpus position, by title: plain ones only by default, and every 1873 position
    (1873 is never plain: it has its own revenue rules, which routemax implements)."""
    out: dict[str, list[Board]] = defaultdict(list)
    for path in sorted(CORPUS.glob("*/*.jsonl.gz")):
        for pos in read_positions(path):
            raw = pos.raw
            is_1873 = raw is not None and raw["source"]["title"] == "Harzbahn 1873"
            if raw is None or (plain_only and raw.get("plain_revenue") is not True and not is_1873):
                continue
            out[raw["source"]["title"]].append(board_from_snapshot(raw))
    return dict(out)
