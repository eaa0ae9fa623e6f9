"""1873 mine production (`solver.rulesets.r_1873.production`): a public mining company's switchers moved to
the mines where they add most, against every placement; and its input held to the spec, each error naming
its field."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model.errors import BoardError
from solver.model.limits import MAX_MINES
from solver.rulesets.r_1873.production import mine_revenue, mines_from_rows, production

_MINE = st.fixed_dictionaries({
    "connected": st.booleans(),
    "machine": st.integers(1, 4),
    "switcher": st.sampled_from([0, 0, 2, 3, 4, 5]),
    "machine_revenue": st.lists(st.integers(-20, 120), min_size=4, max_size=4),
    "switcher_revenue": st.lists(st.integers(-30, 60), min_size=4, max_size=4),
})


def _rows(mines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"id": f"M{j}", **m} for j, m in enumerate(mines)]


@settings(max_examples=300, deadline=None)
@given(st.lists(_MINE, min_size=1, max_size=6))
def test_the_switchers_go_where_they_add_most(mines: list[dict[str, Any]]) -> None:
    """Every switcher placed, at most one per mine: the best of every placement, and the placement reported
    earns what is reported."""
    state = mines_from_rows(_rows(mines))
    sizes = [m.switcher for m in state if m.switcher]
    best = max(sum(mine_revenue(m, dict(zip(places, sizes)).get(j, 0)) for j, m in enumerate(state))
               for places in itertools.permutations(range(len(state)), len(sizes)))
    found = production(state, public=True)
    assert found.revenue == best
    assert sorted(s for s in found.switchers.values() if s) == sorted(sizes)
    assert found.per_mine == {m.id: mine_revenue(m, found.switchers[m.id]) for m in state}


def test_the_most_mines_are_placed_at_once() -> None:
    """At the limit, every mine connected with a switcher and the same tables: each keeps a switcher, and the
    largest switchers go to the mines whose switcher row pays them most."""
    rows = [{"id": f"M{j}", "connected": True, "machine": 1, "switcher": 2 + j % 4,
             "machine_revenue": [10, 20, 30, 40], "switcher_revenue": [j, 2 * j, 3 * j, 4 * j]}
            for j in range(MAX_MINES)]
    found = production(mines_from_rows(rows), public=True)
    # switcher k on mine j adds (k - 1) * j: the largest switchers on the highest-numbered mines
    sizes = sorted(2 + j % 4 for j in range(MAX_MINES))
    assert found.revenue == 10 * MAX_MINES + sum((size - 1) * j for j, size in enumerate(sizes))


@pytest.mark.parametrize(("rows", "field"), [
    ([{"id": "A", "machine_revenue": [10]}, {"id": "A", "machine_revenue": [20]}], "mines[1].id"),
    ([{"id": "A", "connected": "false", "machine_revenue": [10]}], "mines[0].connected"),
    ([{"id": "A", "machine_revenue": [10 ** 9]}], "mines[0].machine_revenue[0]"),
    ([{"id": f"M{j}", "machine_revenue": [10]} for j in range(MAX_MINES + 1)], "mines"),
])
def test_a_mine_out_of_spec_names_its_field(rows: list[dict[str, Any]], field: str) -> None:
    with pytest.raises(BoardError) as err:
        production(mines_from_rows(rows), public=True)
    assert err.value.field == field


@pytest.mark.parametrize("bonus", [-5, 10 ** 9])
def test_a_harzer_werke_bonus_out_of_spec_names_its_field(bonus: int) -> None:
    with pytest.raises(BoardError) as err:
        production(mines_from_rows([{"id": "A", "machine_revenue": [10]}]), public=False, harzer_werke=True,
                   hw_bonus=bonus)
    assert err.value.field == "hw_bonus"
