"""CP-SAT constructs the packing models share (the modifiers' run rules, 1839's locations)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ortools.sat.python import cp_model


def best_value_once(model: cp_model.CpModel, lits_by_value: Iterable[tuple[int, Sequence[Any]]],
                    name: str, base: int = 0, exact: bool = False) -> list[tuple[int, cp_model.IntVar]]:
    """Objective terms that count, once, the best value any true literal earns.

    `lits_by_value` pairs each value with the literals that earn it (values above `base` only). One
    indicator per value may be set only when one of its literals is, and at most one is set, so a
    maximising objective takes the best value reached; each term's coefficient is its value less `base`.
    With `exact`, the terms count that value in every solution, not only at the optimum (a solution
    cut short by the deadline is worth what its literals earn): per value, from the least, an indicator
    equal to "a literal earning this value or more is set", weighed by the step from the value below.
    """
    if exact:
        levels = sorted(((value, list(lits)) for value, lits in lits_by_value), key=lambda level: level[0])
        steps: list[tuple[int, cp_model.IntVar]] = []
        below = base
        for i, (value, _lits) in enumerate(levels):
            reached = model.new_bool_var(f"{name}_{value}")
            model.add_max_equality(reached, [lit for _v, lits in levels[i:] for lit in lits])
            steps.append((value - below, reached))
            below = value
        return steps
    terms: list[tuple[int, cp_model.IntVar]] = []
    for value, lits in lits_by_value:
        pick = model.new_bool_var(f"{name}_{value}")
        model.add_bool_or(lits).only_enforce_if(pick)
        terms.append((value - base, pick))
    if len(terms) > 1:
        model.add_at_most_one([pick for _, pick in terms])
    return terms
