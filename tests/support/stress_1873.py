"""Harder 1873 stress boards: real late 1873 positions (shared corpus and stress set) whose railway
runs ten 5T subtrains (two 5T) and six diesels, as `tests.support.stress_boards.board_1873_sixteen` does
with the first stress position only."""

from __future__ import annotations

import gzip
import json
from typing import Any

from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from tests.conftest import CORPUS
from tests.support.stress_boards import sixteen_trains, stress_snapshots

CORPUS_1873 = CORPUS / "1873"


def railway_snapshots_1873() -> list[tuple[str, dict[str, Any]]]:
    """(source, snapshot) of every 1873 railway position in the corpus and the stress set."""
    out = []
    for path in sorted(CORPUS_1873.glob("*.jsonl.gz")):
        with gzip.open(path, "rt") as fh:
            for k, line in enumerate(fh):
                raw = json.loads(line)
                if (raw.get("h1873") or {}).get("company_kind") == "railway":
                    out.append((f"{path.name}:{k}", raw))
    out += [(f"stress:{k}", raw) for k, raw in enumerate(stress_snapshots("1873"))]
    return out


def board_1873_sixteen_of(raw: dict[str, Any]) -> Board:
    return board_from_snapshot(sixteen_trains(raw))
