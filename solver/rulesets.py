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
    "1839": RulesetInfo(
        name="1839",
        description="1839: locations count once per company (exchange markers once per train), + and D "
                    "trains, FLOOD trains, foreign off-boards, private powers as options.",
        train_kinds=("n+ (counts cities, pays all)", "nD (counts and pays cities, off-boards pay, x2)",
                     "FLOOD (every location reached)"),
    ),
    "1871sc": RulesetInfo(
        name="1871sc",
        description="1871 Steel Cities: freight and passenger classes of trains, stops and stations.",
        train_kinds=("H (hex freight)", "F (fast freight: best n hexes, double dahs and station hexes)",
                     "P (passenger)", "E (express passenger: best n hexes, double station hexes)"),
    ),
}
