"""Scenarios from JSON (the command line's `--scenarios FILE`): a list of objects with the fields
of `Scenario`; modifiers and hexes in snapshot form. Every malformed value is a BoardError naming
its field (`scenarios[1].tokens[0]`)."""

from __future__ import annotations

from typing import Any

from solver.model.errors import BoardError
from solver.model.jsonread import kind_of, str_list
from solver.model.limits import MAX_HEXES, MAX_ID_LENGTH, MAX_NODES, MAX_TRAINS
from solver.modifiers.parse import modifiers_from_json
from solver.whatif.model import Scenario

KEYS = ("label", "add_trains", "remove_trains", "tokens", "add_modifiers", "remove_modifiers", "hexes")
MAX_SCENARIOS = 256


def _names(raw: dict[str, Any], key: str, where: str, limit: int) -> tuple[str, ...]:
    return tuple(str_list(raw.get(key, []), f"{where}.{key}", limit))


def scenarios_from_json(raw: Any, where: str = "scenarios") -> list[Scenario]:
    """The scenarios of a JSON list."""
    if not isinstance(raw, list):
        raise BoardError(where, f"must be a list of scenarios, got {kind_of(raw)}")
    if len(raw) > MAX_SCENARIOS:
        raise BoardError(where, f"at most {MAX_SCENARIOS} scenarios (limit), got {len(raw)}")
    out = []
    for i, item in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise BoardError(at, f"must be an object, got {kind_of(item)}")
        unknown = sorted(set(item) - set(KEYS))
        if unknown:
            raise BoardError(f"{at}.{unknown[0]}", f"unknown field; known: {', '.join(KEYS)}")
        label = item.get("label", "")
        if not isinstance(label, str) or len(label) > MAX_ID_LENGTH:
            raise BoardError(f"{at}.label", f"must be a string of at most {MAX_ID_LENGTH} characters")
        hexes = item.get("hexes", [])
        if not isinstance(hexes, list) or len(hexes) > MAX_HEXES or not all(isinstance(h, dict) for h in hexes):
            raise BoardError(f"{at}.hexes", "must be a list of hexes (objects in snapshot form)")
        out.append(Scenario(label=label, add_trains=_names(item, "add_trains", at, MAX_TRAINS),
                            remove_trains=_names(item, "remove_trains", at, MAX_TRAINS),
                            tokens=_names(item, "tokens", at, MAX_NODES),
                            add_modifiers=modifiers_from_json(item.get("add_modifiers", []), f"{at}.add_modifiers"),
                            remove_modifiers=_names(item, "remove_modifiers", at, MAX_NODES), hexes=tuple(hexes)))
    return out
