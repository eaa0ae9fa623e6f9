"""1873 mine production: what a mine, or a public mining company's mines, earn in an OR.

A mine unconnected to the state railway earns its fixed revenue (the first machine value). A
connected mine earns the value for its machine size plus its switcher's value. A public mining
company may move its switchers freely between its mines (at most one per mine); the best
assignment is found with CP-SAT. Harzer Werke adds its bonus.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from solver.model.errors import BoardError
from solver.packing.cpsat import run_cpsat

ASSIGNMENT_LIMIT_S = 60.0  # the switcher assignment (a few mines) proves optimal in milliseconds


@dataclass(frozen=True)
class MineState:
    id: str
    connected: bool
    machine: int  # 0 = no machine (counts as size 1)
    switcher: int  # 0 = none, else 2..5
    machine_revenue: tuple[int, ...]
    switcher_revenue: tuple[int, ...]


@dataclass
class Production:
    revenue: int
    bonus: int
    per_mine: dict[str, int] = field(default_factory=dict)
    switchers: dict[str, int] = field(default_factory=dict)  # mine id -> switcher size (0 none)


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BoardError(where, f"must be a whole number, got {value!r}")
    return value


def _ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise BoardError(where, f"must be a list of whole numbers, got {value!r}")
    return tuple(_int(v, f"{where}[{i}]") for i, v in enumerate(value))


def mines_from_rows(rows: Any) -> list[MineState]:
    """Mines from plain data (JSON or a protocol message turned into dicts); BoardError names the field.

    Each row: `id`, `connected`, `machine`, `switcher`, `machine_revenue` (required) and `switcher_revenue`."""
    if not isinstance(rows, list | tuple):
        raise BoardError("mines", "must be a list of mines")
    mines = []
    for i, row in enumerate(rows):
        where = f"mines[{i}]"
        if not isinstance(row, Mapping):
            raise BoardError(where, "must be an object")
        if "machine_revenue" not in row:
            raise BoardError(f"{where}.machine_revenue", "missing: the revenue of each machine size")
        mines.append(MineState(id=str(row.get("id") or i), connected=bool(row.get("connected", False)),
                               machine=_int(row.get("machine", 1), f"{where}.machine"),
                               switcher=_int(row.get("switcher", 0), f"{where}.switcher"),
                               machine_revenue=_ints(row["machine_revenue"], f"{where}.machine_revenue"),
                               switcher_revenue=_ints(row.get("switcher_revenue", []), f"{where}.switcher_revenue")))
    return mines


def validate_mines(mines: Sequence[MineState]) -> None:
    """BoardError naming the first out-of-spec field."""
    if not mines:
        raise BoardError("mines", "give at least one mine")
    for i, m in enumerate(mines):
        if not 0 <= m.machine <= len(m.machine_revenue) or not m.machine_revenue:
            raise BoardError(f"mines[{i}].machine", f"machine size {m.machine} has no machine_revenue entry")
        if m.switcher and not 2 <= m.switcher <= len(m.switcher_revenue) + 1:
            raise BoardError(f"mines[{i}].switcher", f"switcher size {m.switcher} has no switcher_revenue entry")


def mine_revenue(mine: MineState, switcher: int) -> int:
    """One mine's production with the given switcher (0: none)."""
    if not mine.connected:
        return mine.machine_revenue[0]
    value = mine.machine_revenue[max(1, mine.machine) - 1]
    if switcher:
        value += mine.switcher_revenue[switcher - 2]
    return value


def production(mines: Sequence[MineState], public: bool, harzer_werke: bool = False, hw_bonus: int = 50) -> Production:
    """Production revenue; for a public mining company with the best switcher assignment."""
    validate_mines(mines)
    bonus = hw_bonus if harzer_werke else 0
    if not public or not any(m.switcher for m in mines):
        per = {m.id: mine_revenue(m, m.switcher) for m in mines}
        return Production(revenue=sum(per.values()) + bonus, bonus=bonus, per_mine=per,
                          switchers={m.id: m.switcher for m in mines})
    sizes = [m.switcher for m in mines if m.switcher]
    model = cp_model.CpModel()
    a = {(i, j): model.new_bool_var(f"a{i}_{j}") for i in range(len(sizes)) for j in range(len(mines))}
    for i in range(len(sizes)):
        model.add_exactly_one(a[(i, j)] for j in range(len(mines)))
    for j in range(len(mines)):
        model.add_at_most_one(a[(i, j)] for i in range(len(sizes)))
    model.maximize(sum((mine_revenue(mines[j], sizes[i]) - mine_revenue(mines[j], 0)) * a[(i, j)]
                       for i, j in a))
    solver, code = run_cpsat(model, time.monotonic() + ASSIGNMENT_LIMIT_S, 1)
    if code != cp_model.OPTIMAL:
        raise RuntimeError("the switcher assignment could not be proven optimal")
    switchers = {m.id: 0 for m in mines}
    for (i, j), v in a.items():
        if solver.value(v):
            switchers[mines[j].id] = sizes[i]
    per = {m.id: mine_revenue(m, switchers[m.id]) for m in mines}
    return Production(revenue=sum(per.values()) + bonus, bonus=bonus, per_mine=per, switchers=switchers)
