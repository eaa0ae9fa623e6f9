"""Stress boards for the deadline tests and benchmarks: the shared stress set, and variants with
more or longer trains built from it."""

from __future__ import annotations

import copy
import gzip
import json
from functools import cache
from typing import Any

from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from tests.conftest import STRESS

__all__ = ["STRESS"]  # benchmarks read it from here


@cache
def stress_snapshots(name: str) -> tuple[dict[str, Any], ...]:
    """The raw snapshots of one stress file (e.g. "1870"), `recorded`/`engine` dropped (null there)."""
    out = []
    with gzip.open(STRESS / f"{name}.jsonl.gz", "rt") as fh:
        for line in fh:
            raw = json.loads(line)
            raw.pop("recorded", None)
            raw.pop("engine", None)
            out.append(raw)
    return tuple(out)


def stress_board(name: str, index: int) -> Board:
    return board_from_snapshot(copy.deepcopy(stress_snapshots(name)[index]))


def with_trains(raw: dict[str, Any], names: list[str], distances: list[int]) -> dict[str, Any]:
    """A copy of a standard snapshot whose company runs plain `stops` trains of these names."""
    snap = copy.deepcopy(raw)
    snap["trains"] = [{"id": f"{n}-{i}", "name": n, "distance": d, "distance_unit": "stops", "requires_token": True}
                      for i, (n, d) in enumerate(zip(names, distances))]
    return snap


def board_1870_8_12_12() -> Board:
    """The first 1870 stress position with trains 8, 12, 12."""
    return board_from_snapshot(with_trains(stress_snapshots("1870")[0], ["8", "12", "12"], [8, 12, 12]))


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


def board_1873_sixteen() -> Board:
    """The first 1873 stress position with two 5T (ten subtrains) and six diesels (no further diesel ids)."""
    return board_from_snapshot(sixteen_trains(stress_snapshots("1873")[0], pool_ids=0))
