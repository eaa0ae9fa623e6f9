"""1839: `view` prepares the board; `rules` prices runs once per company; `solve` enumerates candidates and
packs them with the `model`; `evaluator` judges runs; `extras` carries the foreign income."""

from solver.rulesets.r_1839.ruleset import Rules1839

RULESET = Rules1839()
