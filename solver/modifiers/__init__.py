"""Game-specific route rules as data ("modifiers", corpus FORMAT.md "Modifiers").

They belong to no ruleset: any evaluator prices routes with `route_value` and settles the run
with `settle`; the optimiser folds them into its candidates and its packing model
(`packing_terms`). Every type (`model.py`) is parsed strictly by `parse.py`; then, by role:

| type | priced per route (both sides) | settled per run (evaluator) | modelled (optimiser) |
|---|---|---|---|
| `StopBonus` | `route_value` (bonus, subsidy lines) | - | `candidate_values`; `packing_terms.modifier_bound` |
| `ComboBonus` | `route_value` | - | `candidate_values`; `packing_terms.modifier_bound` |
| `CountedStops` | `route_value` (paying-stop choice) | - | `candidate_values` |
| `RouteRule` | `route_value` (findings) | - | `candidate_values` (drops the route) |
| `BestRouteBonus` | - | `settle` (via `apply`) | `packing_terms` (CP-SAT terms) |
| `RequiredRoute` | - | `settle` | `packing_terms` |
| `DropLowestRoute` | - | `settle` | `packing_terms` (drop indicators) |
| `RouteSetRule` | - | `settle` | `packing_terms` (at most `count` routes) |
| `OverlapRule` | - | `sharing` (track groups) | `sharing` groups in `r_standard/solve.py` |
| `StopPaysOnce` | `route_value` (counted before: 0) | `sharing` | `packing_terms` (pay units) |
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
