"""A fixed sample of real positions (every title, list trains, modifiers, 1873, a stress board)."""

from __future__ import annotations

import copy
import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

from tests.conftest import CORPUS, STRESS

# (file, line): small and varied; each a real snapshot
SAMPLE = (
    ("18GA/18GA_game_end_bankrupt.jsonl.gz", 5),  # generic, list trains
    ("18MS/17510.jsonl.gz", 10),  # modifiers: StopBonus
    ("1889/962.jsonl.gz", 20),  # generic
    ("18AL/1446.jsonl.gz", 30),  # modifiers with list trains
    ("18TN/7818.jsonl.gz", 40),  # DropLowestRoute
    ("1846/20381.jsonl.gz", 12),  # ComboBonus, BestRouteBonus, n/m trains
    ("1871/1871_game_end_final_phase.jsonl.gz", 8),  # + trains, narrow gauge
    ("1870/1870_game_end_bank.jsonl.gz", 15),  # RequiredRoute, destination bonus
    ("1873/hs_gwlftpex_33770.jsonl.gz", 3),  # Harzbahn: its own rules and data
)


def _line(path: Path, index: int) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            if i == index:
                return json.loads(line)
    raise IndexError(f"{path} has no line {index}")


@cache
def _positions() -> tuple[str, ...]:
    texts = [json.dumps(_line(CORPUS / f, i)) for f, i in SAMPLE]
    texts.append(json.dumps(_line(STRESS / "18Chesapeake.jsonl.gz", 0)))  # recorded: null
    return tuple(texts)


def positions() -> list[dict[str, Any]]:
    """Fresh copies of the sample positions (callers may mutate them)."""
    return [json.loads(t) for t in _positions()]


def position(i: int) -> dict[str, Any]:
    return copy.deepcopy(json.loads(_positions()[i]))


def count() -> int:
    return len(_positions())
