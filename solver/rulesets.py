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
    "1873": RulesetInfo(
        name="1873",
        description="1873 Harzbahn: an nT runs n routes forming one network; stops counted once per company; "
                    "mines pay multiplier x the largest train; concession routes; diesels; QLB.",
        train_kinds=("nT (n routes, no length limit)", "D (diesel: any number of station-to-station routes)"),
    ),
}
