"""Benchmark fixtures: the shared corpus grouped by title."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.board import Board

REPO = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("ROUTEMAX_CORPUS", REPO.parent / "shared" / "corpus"))


SUPPORTED_MODELS = ("generic", "modifiers", "h1873")


def boards_by_title(supported_only: bool = True) -> dict[str, list[Board]]:
    """Every corpus position, by title: by default those whose `revenue_model` routemax prices
    exactly (the generic rules, the modifiers, 1873's own rules)."""
    out: dict[str, list[Board]] = defaultdict(list)
    for path in sorted(CORPUS.glob("*/*.jsonl.gz")):
        for pos in read_positions(path):
            raw = pos.raw
            if raw is None or (supported_only and raw.get("revenue_model") not in SUPPORTED_MODELS):
                continue
            out[raw["source"]["title"]].append(board_from_snapshot(raw))
    return dict(out)
