"""The 1873 Harzbahn facts a route rule reads, gathered once from a board.

Sources: the snapshot's `h1873`, `super_trains`, `hexes[].h1873` and `nodes[].h1873` fields
(FORMAT.md, "1873"), carried on `Board.extra`, `Hex.extra` and `Node.extra`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.board import Board
from solver.errors import BoardError

MINING = "mining"
DIESEL = "diesel"


@dataclass(frozen=True)
class SuperTrain:
    """A train the company owns: an nT runs up to n routes; the diesel any number."""

    id: str
    name: str
    distance: int
    diesel: bool
    subtrains: tuple[str, ...]
    maintenance: int = 0


@dataclass
class Harzbahn:
    """Everything 1873-specific about one position."""

    company: str
    super_trains: list[SuperTrain]
    concession_routes: list[frozenset[str]]
    concession_hexes: frozenset[str]
    home_hexes: frozenset[str]
    mine_multiplier: dict[str, int]  # hex -> multiplier, open mines only
    factory_revenue: dict[str, int]  # hex -> revenue
    terminus: frozenset[str]
    diesel_terminus: frozenset[str]
    diesel_connected: frozenset[str]
    framed: frozenset[str]
    diesel_pool: tuple[str, ...] = ()  # train ids the diesel's routes may use, in order
    is_qlb: bool = False
    qlb_bonus: int = 0
    maintenance: int = 0
    stop_revenue: int = 10
    diesel_stop_revenue: int = 10
    mines: list[dict[str, Any]] = field(default_factory=list)
    hw_bonus: int = 50

    def super_of(self) -> dict[str, SuperTrain]:
        """Subtrain (and pool diesel) id -> its super-train."""
        out = {sub: st for st in self.super_trains for sub in st.subtrains}
        diesel = self.diesel_train
        if diesel is not None:
            out.update({tid: diesel for tid in self.diesel_pool})
        return out

    @property
    def diesel_train(self) -> SuperTrain | None:
        return next((st for st in self.super_trains if st.diesel and st.subtrains), None)

    @property
    def mining_trains(self) -> list[SuperTrain]:
        return [st for st in self.super_trains if not st.diesel and st.subtrains]


def harzbahn(board: Board) -> Harzbahn:
    """Gather the 1873 facts of a board; BoardError when they are missing."""
    data = board.extra.get("h1873")
    if not isinstance(data, dict):
        raise BoardError("h1873", "an 1873 board needs its h1873 data")
    consts = data.get("constants", {})
    supers = [SuperTrain(id=t["id"], name=t.get("name", t["id"]), distance=int(t.get("distance", 1)),
                         diesel=bool(t.get("diesel", False)), subtrains=tuple(t.get("subtrains", ())),
                         maintenance=int(t.get("maintenance", 0)))
              for t in board.extra.get("super_trains", [])]
    if not supers and board.trains:
        raise BoardError("super_trains", "an 1873 board lists the company's super-trains")
    concession = data.get("concession") or {}
    routes = [frozenset(r) for r in concession.get("routes", [])]
    mines: dict[str, int] = {}
    factories: dict[str, int] = {}
    for hx in board.hexes.values():
        h = hx.extra.get("h1873") or {}
        if h.get("mine") and h.get("mine_open"):
            mines[hx.id] = int(h.get("mine_multiplier", 0))
        if h.get("factory"):
            factories[hx.id] = int(h.get("factory_revenue", 0))
    flags: dict[str, set[str]] = {"terminus": set(), "diesel_terminus": set(), "diesel_connected": set()}
    for node in board.nodes.values():
        nh = node.extra.get("h1873") or {}
        for key, bucket in flags.items():
            if nh.get(key):
                bucket.add(node.id)
    diesel = data.get("diesel") or {}
    pool = tuple(diesel.get("allocated_subtrains", ())) + tuple(diesel.get("next_pool_ids", ()))
    homes = board.extra.get("company_home") or []
    _check_ids(board, supers, routes)
    return Harzbahn(
        company=board.company, super_trains=supers, concession_routes=routes,
        concession_hexes=frozenset(h for r in routes for h in r) | frozenset(concession.get("route_hexes", ())),
        home_hexes=frozenset(homes if isinstance(homes, list) else [homes]),
        mine_multiplier=mines, factory_revenue=factories,
        terminus=frozenset(flags["terminus"]), diesel_terminus=frozenset(flags["diesel_terminus"]),
        diesel_connected=frozenset(flags["diesel_connected"]),
        framed=frozenset(h.id for h in board.hexes.values() if h.framed),
        diesel_pool=pool, is_qlb=bool(data.get("is_qlb", False)), qlb_bonus=int(data.get("qlb_bonus", 0) or 0),
        maintenance=int(data.get("company_maintenance", 0) or 0),
        stop_revenue=int(consts.get("STOP_REVENUE", 10)),
        diesel_stop_revenue=int(consts.get("DIESEL_STOP_REVENUE", 10)),
        mines=list(data.get("mines", [])), hw_bonus=int(consts.get("HW_BONUS", 50)),
    )


def _check_ids(board: Board, supers: list[SuperTrain], routes: list[frozenset[str]]) -> None:
    train_ids = {t.id for t in board.trains}
    for i, st in enumerate(supers):
        if st.distance < 0:
            raise BoardError(f"h1873.super_trains[{i}].distance", "must not be negative")
        for sub in st.subtrains:
            if sub not in train_ids:
                raise BoardError(f"h1873.super_trains[{i}].subtrains", f"unknown train {sub!r}")
    for i, route in enumerate(routes):
        for h in sorted(route):
            if h not in board.hexes:
                raise BoardError(f"h1873.concession_routes[{i}]", f"unknown hex {h!r}")
