"""Corpus positions for the what-if tests, and boards changed by hand in snapshot JSON (the
independent side of every comparison)."""

from __future__ import annotations

import copy
from typing import Any

from solver.input.snapshot import read_positions
from tests.conftest import CORPUS

# (title directory, file, position index): a modifiers title with two trains, a one-train 1870 board,
# a generic 1830 board and 1873
POSITIONS = {
    "1846": ("1846", "12666.jsonl.gz", 53),
    "1846one": ("1846", "12666.jsonl.gz", -2),
    "1870": ("1870", "1870_game_end_bank.jsonl.gz", 120),
    "1830": ("1830", "29133.jsonl.gz", -2),
    "1873": ("1873", "hs_gwlftpex_33770.jsonl.gz", -1),
}


def snapshot(key: str) -> dict[str, Any]:
    directory, name, index = POSITIONS[key]
    return list(read_positions(CORPUS / directory / name))[index].raw  # type: ignore[return-value]


def with_token(raw: dict[str, Any], node_id: str) -> dict[str, Any]:
    """The snapshot with a station of the operating company in the first free slot of `node_id`."""
    out = copy.deepcopy(raw)
    corp = out["company"]["id"]
    for hx in out["hexes"]:
        for node in hx.get("nodes", []):
            if node["id"] == node_id:
                tokens = node.setdefault("tokens", [])
                slot = tokens.index(None) if None in tokens else len(tokens)
                tokens[slot:slot + 1] = [{"corp": corp}]
                node["tokened_by_company"] = True
                out["company"].setdefault("tokens", []).append({"hex": hx["id"], "node": node_id})
                return out
    raise KeyError(node_id)


def with_trains(raw: dict[str, Any], add: list[dict[str, Any]] = (), remove: tuple[str, ...] = ()) -> dict[str, Any]:
    """The snapshot with trains removed (by id) and added (snapshot train objects)."""
    out = copy.deepcopy(raw)
    out["trains"] = [t for t in out["trains"] if t["id"] not in remove] + [copy.deepcopy(t) for t in add]
    return out


def train_named(raw: dict[str, Any], name: str, new_id: str) -> dict[str, Any]:
    """A copy of the first train of that name on the board, with a new id."""
    held = next(t for t in raw["trains"] if t.get("name", t["id"]) == name)
    return {**copy.deepcopy(held), "id": new_id}
