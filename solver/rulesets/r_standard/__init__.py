"""The generic 18xx rules: `evaluator` judges a route set, `solve` finds the best one by packing
candidate routes (core `solver.routes.candidates` and `solver.packing.pack`) with CP-SAT."""

from solver.rulesets.r_standard.ruleset import Standard

RULESET = Standard()
