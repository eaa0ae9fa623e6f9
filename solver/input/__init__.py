"""Input: the strict snapshot reader (`snapshot`) and the validation of a board (`validate`:
the limits, then the ruleset's own checks)."""
