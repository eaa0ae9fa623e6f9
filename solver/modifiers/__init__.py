"""Game-specific route rules as data ("modifiers", corpus FORMAT.md "Modifiers").

They belong to no ruleset: any evaluator prices routes with `route_value` and settles the run
with `run_terms`; the optimiser folds them into its candidates and its packing model
(`packing_terms`).
"""

from solver.modifiers.model import (
    BestRouteBonus,
    BonusLine,
    ComboBonus,
    DropLowestRoute,
    Modifier,
    RequiredRoute,
    StopBonus,
)
from solver.modifiers.parse import modifiers_from_json

__all__ = ["BestRouteBonus", "BonusLine", "ComboBonus", "DropLowestRoute", "Modifier", "RequiredRoute", "StopBonus",
           "modifiers_from_json"]
