"""What every fuzzed entry must show: a rejection names a field, an accepted board means the same on both paths."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from typing import Any

from solver.model.board import UNLIMITED, Board
from solver.model.errors import BoardError

# a field path: names, [ids or indices] and dots, e.g. `snapshot_json.hexes[E4].nodes[E4.city0].groups`
FIELD = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]+\]|\.[^.\[\]\s]+)*$")
TALLY: Counter[str] = Counter()


def kind_of_rejection(message: str) -> str:
    """A message with its values left out, to count rejections by kind."""
    words = re.sub(r"'[^']*'|\"[^\"]*\"|-?\d[\d,._e+]*", "#", message).split()
    return " ".join(words[:5])


def assert_names_field(exc: BoardError) -> None:
    """A rejection names a field path and says what is wrong, briefly."""
    assert FIELD.match(exc.field), f"not a field path: {exc.field!r} ({exc.message})"
    assert exc.message and len(str(exc)) < 1200
    TALLY[f"rejected: {kind_of_rejection(exc.message)}"] += 1


def assert_grpc_names_field(details: str) -> None:
    field, sep, message = details.partition(": ")
    assert sep and FIELD.match(field), f"status details name no field: {details[:200]!r}"
    TALLY[f"rejected (service): {kind_of_rejection(message)}"] += 1


def model_key(board: Board) -> dict[str, Any]:
    """What the rules read of a board, in a comparable form (the 1873 data apart)."""
    trains = [(t.id, t.name, "stops" if t.unit == "none" else t.unit,
               UNLIMITED if t.unit == "none" else t.distance, t.rows, t.multiplier, t.local, t.requires_token,
               t.klass, t.by_hex) for t in board.trains]
    nodes = {nid: {k: v for k, v in vars(n).items() if k != "extra"} for nid, n in board.nodes.items()}
    hexes = {hid: (h.neighbors, h.nodes, h.paths, h.tile, h.color, h.framed, h.location)
             for hid, h in board.hexes.items()}
    return {"ruleset": board.ruleset, "company": board.company, "type": board.company_type, "layout": board.layout,
            "phase": board.phase, "tokens": board.company_tokens, "options": board.options,
            "modifiers": board.modifiers, "revenue_model": board.revenue_model, "trains": trains,
            "hexes": hexes, "nodes": nodes, "paths": board.paths}


def full_model(board: Board) -> dict[str, Any]:
    """Everything a board model says, comparable across the two input paths: `model_key` plus the trains
    exactly (unit, distance and 1873 fields), the company's home hexes, the drawing axes, the `source`
    fields the protocol carries, and the 1873 data as the 1873 rules read it (its view)."""
    from solver.rulesets.r_1873.view import harzbahn

    key = model_key(board)
    key["trains"] = list(board.trains)
    key["nodes"] = {nid: vars(n) for nid, n in board.nodes.items()} if board.ruleset != "1873" else key["nodes"]
    key["hex_extra"] = {h.id: h.extra for h in board.hexes.values()} if board.ruleset != "1873" else None
    src = board.source
    key["source"] = (str(src.get("title", "")), str(src.get("fixture", "")), src.get("action_id", 0),
                     src.get("position", 0))
    key["home"] = list(board.extra.get("company_home") or [])
    key["axes"] = board.extra.get("axes")
    key["extra"] = (_view_1873(harzbahn(board)) if board.ruleset == "1873"
                    else {k: v for k, v in board.extra.items() if k not in ("company_home", "axes")})
    return key


def _view_1873(view: Any) -> dict[str, Any]:
    """The 1873 view but its `mines` rows: they are only checked, and the protocol builds them from the
    hexes' mine data (`mine_multiplier`, compared here), so a snapshot whose rows and hexes disagree
    cannot be sent as it is."""
    return {k: v for k, v in vars(view).items() if k != "mines"}


def write_tally() -> None:
    """The tally of this run, printed and (with ROUTEMAX_FUZZ_REPORT=file) written as JSON."""
    if not TALLY:
        return
    report = os.environ.get("ROUTEMAX_FUZZ_REPORT")
    if report:
        with open(report, "w", encoding="utf-8") as fh:
            json.dump(dict(TALLY.most_common()), fh, indent=1)
    print("\nfuzz tally:", sum(v for k, v in TALLY.items() if k.startswith("example")), "examples")
    for key, count in TALLY.most_common(40):
        print(f"  {count:6d}  {key}")
