"""Harzbahn 1873: super-trains running networks of routes, mines, concession routes, diesels, QLB.

Modules: `view` (the Harzbahn context read from the board), `candidates` (mining and diesel route
shapes), `model` (the CP-SAT model), `solve` (rounds of cuts and route order), `evaluator`,
`rules`, `route_order`, `service_rule`, `production` (mine production), `extras` (the run summary).
"""

from solver.rulesets.r_1873.ruleset import Harzbahn1873

RULESET = Harzbahn1873()
