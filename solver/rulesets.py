"""The rulesets routemax knows, with the train kinds each supports."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RulesetInfo:
    name: str
    description: str
    train_kinds: tuple[str, ...]


RULESETS: dict[str, RulesetInfo] = {
    "standard": RulesetInfo(
        name="standard",
        description="Generic 18xx: one route per train, no shared track, each route earns its own stops.",
        train_kinds=("n (stops)", "n+m / + (stops by type)", "H (hexes)", "D (unlimited)", "express (multiplier)",
                     "double revenue (multiplier)", "local (one tokened city)"),
    ),
}
