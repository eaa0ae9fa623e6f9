"""1873 mine production: what a mine, or a public mining company's mines, earn in an OR.

A mine unconnected to the state railway earns its fixed revenue (the first machine value). A
connected mine earns the value for its machine size plus its switcher's value. A public mining
company may move its switchers freely between its mines (at most one per mine); the best
assignment is a maximum weight matching (networkx). Harzer Werke adds its bonus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from solver.model.errors import BoardError
from solver.model.jsonread import boolean
from solver.model.limits import MAX_MINES, MAX_REVENUE


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


def _money(value: Any, where: str) -> int:
    """A revenue or a bonus: a whole number within the limit (`MAX_REVENUE`)."""
    if abs(_int(value, where)) > MAX_REVENUE:
        raise BoardError(where, f"must be within ±{MAX_REVENUE:,} (limit), got {value}")
    return value


def _ints(value: Any, where: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple):
        raise BoardError(where, f"must be a list of whole numbers, got {value!r}")
    return tuple(_money(v, f"{where}[{i}]") for i, v in enumerate(value))


def mines_from_rows(rows: Any) -> list[MineState]:
    """Mines from plain data (JSON or a protocol message turned into dicts); BoardError names the field.

    Each row: `id`, `connected`, `machine`, `switcher`, `machine_revenue` (required) and `switcher_revenue`."""
    if not isinstance(rows, list | tuple):
        raise BoardError("mines", "must be a list of mines")
    if len(rows) > MAX_MINES:
        raise BoardError("mines", f"at most {MAX_MINES} mines (limit), got {len(rows):,}")
    mines: list[MineState] = []
    ids: set[str] = set()
    for i, row in enumerate(rows):
        where = f"mines[{i}]"
        if not isinstance(row, Mapping):
            raise BoardError(where, "must be an object")
        if "machine_revenue" not in row:
            raise BoardError(f"{where}.machine_revenue", "missing: the revenue of each machine size")
        mine_id = str(row.get("id") or i)
        if mine_id in ids:
            raise BoardError(f"{where}.id", f"duplicate mine id {mine_id!r}")
        ids.add(mine_id)
        mines.append(MineState(id=mine_id, connected=boolean(row.get("connected", False), f"{where}.connected"),
                               machine=_int(row.get("machine", 1), f"{where}.machine"),
                               switcher=_int(row.get("switcher", 0), f"{where}.switcher"),
                               machine_revenue=_ints(row["machine_revenue"], f"{where}.machine_revenue"),
                               switcher_revenue=_ints(row.get("switcher_revenue", []), f"{where}.switcher_revenue")))
    return mines


def validate_mines(mines: Sequence[MineState]) -> None:
    """BoardError naming the first out-of-spec field."""
    if not mines:
        raise BoardError("mines", "give at least one mine")
    if len(mines) > MAX_MINES:
        raise BoardError("mines", f"at most {MAX_MINES} mines (limit), got {len(mines):,}")
    if len({m.id for m in mines}) != len(mines):
        raise BoardError("mines", "mine ids must differ (each mine's production is reported by its id)")
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
    if _money(hw_bonus, "hw_bonus") < 0:
        raise BoardError("hw_bonus", f"must be 0 or more, got {hw_bonus}")
    bonus = hw_bonus if harzer_werke else 0
    if not public or not any(m.switcher for m in mines):
        per = {m.id: mine_revenue(m, m.switcher) for m in mines}
        return Production(revenue=sum(per.values()) + bonus, bonus=bonus, per_mine=per,
                          switchers={m.id: m.switcher for m in mines})
    sizes = [m.switcher for m in mines if m.switcher]
    # each switcher on one mine, at most one per mine: the assignment that adds most, among those placing every
    # switcher (a complete bipartite graph, so every one is placed: there are no more switchers than mines)
    graph = nx.Graph()
    graph.add_weighted_edges_from((("switcher", i), ("mine", j), mine_revenue(m, size) - mine_revenue(m, 0))
                                  for i, size in enumerate(sizes) for j, m in enumerate(mines))
    switchers = {m.id: 0 for m in mines}
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        (_s, i), (_m, j) = (a, b) if a[0] == "switcher" else (b, a)
        switchers[mines[j].id] = sizes[i]
    per = {m.id: mine_revenue(m, switchers[m.id]) for m in mines}
    return Production(revenue=sum(per.values()) + bonus, bonus=bonus, per_mine=per, switchers=switchers)
