"""1871 Steel Cities: `view` writes the freight/passenger classes and F/E doubling into the board;
the generic evaluator and optimiser (`r_standard`) then apply, with classes as track groups."""

from solver.rulesets.r_1871sc.ruleset import SteelCities1871

RULESET = SteelCities1871()
