"""What-if: the optimum of changed boards (trains, tokens, modifiers, track) in one call, ranked by
their delta to the unchanged board, with the leg walk and candidates shared where the change allows."""

from solver.whatif.model import Scenario, ScenarioResult, WhatIfResult
from solver.whatif.runner import WhatIfOptions, check_train_offers, run_whatif

__all__ = ["Scenario", "ScenarioResult", "WhatIfOptions", "WhatIfResult", "check_train_offers", "run_whatif"]
