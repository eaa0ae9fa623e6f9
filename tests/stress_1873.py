"""Harder 1873 stress boards: real late 1873 positions (shared corpus and stress set) whose railway
runs ten 5T subtrains (two 5T) and six diesels, as `tests.stress_boards.board_1873_sixteen` does
with the first stress position only."""

from __future__ import annotations

import copy
import gzip
import json
from typing import Any

from solver.board import Board
from solver.snapshot import board_from_snapshot
from tests.stress_boards import REPO, stress_snapshots

CORPUS_1873 = REPO.parent / "shared" / "corpus" / "1873"
POOL_IDS = 10


def sixteen_trains(raw: dict[str, Any], pool_ids: int = POOL_IDS) -> dict[str, Any]:
    """A copy of a railway snapshot of 1873 with two 5T (ten subtrains) and six diesels."""
    snap = copy.deepcopy(raw)
    snap.pop("recorded", None)
    snap.pop("engine", None)
    supers, trains = [], []
    for k in range(2):
        sid = f"5T-9{k}"
        subs = [f"5T-9{k}{j}" for j in range(5)]
        supers.append({"id": sid, "name": "5T", "label": "5T", "distance": 5, "diesel": False, "subtrains": subs,
                       "maintenance": 0})
        trains += [{"id": s, "name": "5T", "distance": 5, "distance_unit": "none", "requires_token": True,
                    "super": sid, "diesel": False, "type": "mining"} for s in subs]
    diesels = [f"D-8{j}" for j in range(6)]
    supers.append({"id": "D-80", "name": "D", "label": "D", "distance": 999, "diesel": True, "subtrains": diesels,
                   "maintenance": 0})
    trains += [{"id": d, "name": "D", "distance": 999, "distance_unit": "none", "requires_token": True,
                "super": "D-80", "diesel": True, "type": "passenger"} for d in diesels]
    snap["super_trains"], snap["trains"] = supers, trains
    pool = [f"D-9{j}" for j in range(pool_ids)]  # ids the engine would hand out next (none: see the report)
    snap["h1873"]["diesel"] = {"super_train": "D-80", "allocated_subtrains": diesels, "next_pool_ids": pool}
    return snap


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
