"""Which audit lines deserve a closer look: the positions the report flags (and the audit draws)."""

from __future__ import annotations

from typing import Any

from solver import rulesets

FLAG_CODES = ("UNDERSERVICED", "RECORDED_REVENUE_MISMATCH")


def outside_rulesets(line: dict[str, Any]) -> bool:
    """A position whose rules no ruleset or modifier describes (`revenue_model: unsupported`; older
    snapshots without a model: a game-specific bonus on a title no ruleset of its own claims)."""
    model = line.get("revenue_model")
    if model:
        return model == "unsupported"
    return line.get("plain_revenue") is False and rulesets.for_title(str(line.get("title", ""))) == "standard"


def flagged(line: dict[str, Any]) -> bool:
    """An audited position in scope whose recorded run is illegal, differs from the optimum, or was paid
    not as the rules say (or, 1873, left routes unserviced)."""
    verdict = line.get("verdict") or {}
    return "error" not in line and not outside_rulesets(line) and (
        not verdict.get("legal", True) or (line.get("gap") or 0) != 0
        or any(f.get("code") in FLAG_CODES for f in verdict.get("findings", [])))
