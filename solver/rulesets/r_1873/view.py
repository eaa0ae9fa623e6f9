"""The 1873 Harzbahn facts a route rule reads, gathered once from a board.

Sources: the snapshot's `h1873`, `super_trains`, `hexes[].h1873` and `nodes[].h1873` fields
(FORMAT.md, "1873"), carried on `Board.extra`, `Hex.extra` and `Node.extra` as read, and checked
strictly here, in the ruleset's `validate` hook, before any 1873 rule reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as default_field
from typing import Any

from solver.model.board import Board
from solver.model.errors import BoardError
from solver.model.jsonread import boolean, field, integer, lst, obj, str_list, text
from solver.model.limits import MAX_DISTANCE, MAX_HEXES, MAX_MULTIPLIER, MAX_REVENUE, MAX_TRAINS

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
    mines: list[dict[str, Any]] = default_field(default_factory=list)
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


def _int(raw: dict[str, Any], key: str, where: str, default: int, hi: int = MAX_REVENUE) -> int:
    return integer(field(raw, key, where, default), f"{where}.{key}", 0, hi)


def _flag(raw: dict[str, Any], key: str, where: str) -> bool:
    return boolean(field(raw, key, where, False), f"{where}.{key}")


def _super_trains(board: Board) -> list[SuperTrain]:
    out = []
    for i, raw in enumerate(lst(board.extra.get("super_trains", []), "super_trains", MAX_TRAINS)):
        where = f"super_trains[{i}]"
        raw = obj(raw, where)
        tid = text(field(raw, "id", where), where + ".id", non_empty=True)
        out.append(SuperTrain(
            id=tid, name=text(field(raw, "name", where, tid), where + ".name"),
            distance=_int(raw, "distance", where, 1, MAX_DISTANCE), diesel=_flag(raw, "diesel", where),
            subtrains=tuple(str_list(field(raw, "subtrains", where, []), where + ".subtrains", MAX_TRAINS)),
            maintenance=_int(raw, "maintenance", where, 0)))
    return out


def _mines(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The `mines` rows, with the fields the protocol carries checked."""
    rows = lst(field(data, "mines", "h1873", []), "h1873.mines", MAX_HEXES)
    for i, m in enumerate(rows):
        where = f"h1873.mines[{i}]"
        m = obj(m, where)
        for key in ("id", "name", "hex", "owner"):
            if key in m:
                text(m[key], f"{where}.{key}")
        for key in ("open", "connected", "vor_harzer"):
            _flag(m, key, where)
        _int(m, "multiplier", where, 0, MAX_MULTIPLIER)
        for key in ("machine_revenue", "switcher_revenue"):
            for j, v in enumerate(lst(field(m, key, where, []), f"{where}.{key}", 8)):
                integer(v, f"{where}.{key}[{j}]", 0, MAX_REVENUE)
    return rows


def _hex_money(board: Board) -> tuple[dict[str, int], dict[str, int]]:
    """Open mines (hex -> multiplier) and factories (hex -> revenue) from `hexes[].h1873`."""
    mines: dict[str, int] = {}
    factories: dict[str, int] = {}
    for hx in board.hexes.values():
        if "h1873" not in hx.extra:
            continue
        where = f"hexes[{hx.id}].h1873"
        h = obj(hx.extra["h1873"], where)
        mine = text(field(h, "mine", where, ""), where + ".mine")
        factory = text(field(h, "factory", where, ""), where + ".factory")
        multiplier = _int(h, "mine_multiplier", where, 0, MAX_MULTIPLIER)
        if mine and _flag(h, "mine_open", where):
            mines[hx.id] = multiplier
        revenue = _int(h, "factory_revenue", where, 0)
        if factory:
            factories[hx.id] = revenue
    return mines, factories


def _node_flags(board: Board) -> dict[str, set[str]]:
    flags: dict[str, set[str]] = {"terminus": set(), "diesel_terminus": set(), "diesel_connected": set()}
    for node in board.nodes.values():
        if "h1873" not in node.extra:
            continue
        where = f"hexes[{node.hex}].nodes[{node.id}].h1873"
        nh = obj(node.extra["h1873"], where)
        for key, bucket in flags.items():
            if _flag(nh, key, where):
                bucket.add(node.id)
    return flags


def _allocated(supers: Sequence[SuperTrain], allocated: tuple[str, ...]) -> tuple[str, ...]:
    """The pool diesels allocated to the company's diesel: its subtrains (the engine allocates them), also
    when the snapshot leaves them out; other ids are refused (the protobuf board states the pool only)."""
    diesel = next((st for st in supers if st.diesel and st.subtrains), None)
    if diesel is None:
        return allocated
    if allocated and allocated != tuple(diesel.subtrains):
        raise BoardError("h1873.diesel.allocated_subtrains", f"the diesel {diesel.id}'s subtrains "
                                                             f"{list(diesel.subtrains)} are the ones allocated")
    return tuple(diesel.subtrains)


def harzbahn(board: Board) -> Harzbahn:
    """Gather the 1873 facts of a board, checking every field strictly (BoardError names it)."""
    data = board.extra.get("h1873")
    if not isinstance(data, dict):
        raise BoardError("h1873", "an 1873 board needs its h1873 data (an object)")
    consts = obj(field(data, "constants", "h1873", {}), "h1873.constants")
    supers = _super_trains(board)
    if not supers and board.trains:
        raise BoardError("super_trains", "an 1873 board lists the company's super-trains")
    concession = obj(field(data, "concession", "h1873", {}), "h1873.concession")
    routes = [frozenset(str_list(r, f"h1873.concession.routes[{i}]", MAX_HEXES))
              for i, r in enumerate(lst(field(concession, "routes", "h1873.concession", []),
                                        "h1873.concession.routes", MAX_HEXES))]
    route_hexes = str_list(field(concession, "route_hexes", "h1873.concession", []), "h1873.concession.route_hexes",
                           MAX_HEXES)
    mines, factories = _hex_money(board)
    flags = _node_flags(board)
    diesel = obj(field(data, "diesel", "h1873", {}), "h1873.diesel")
    allocated = tuple(str_list(field(diesel, "allocated_subtrains", "h1873.diesel", []),
                               "h1873.diesel.allocated_subtrains", MAX_TRAINS))
    pool = _allocated(supers, allocated) + tuple(str_list(field(diesel, "next_pool_ids", "h1873.diesel", []),
                                                          "h1873.diesel.next_pool_ids", MAX_TRAINS))
    homes = board.extra.get("company_home") or []
    homes = [homes] if isinstance(homes, str) else str_list(homes, "company.home", MAX_HEXES)
    _check_ids(board, supers, routes)
    return Harzbahn(
        company=board.company, super_trains=supers, concession_routes=routes,
        concession_hexes=frozenset(h for r in routes for h in r) | frozenset(route_hexes),
        home_hexes=frozenset(homes), mine_multiplier=mines, factory_revenue=factories,
        terminus=frozenset(flags["terminus"]), diesel_terminus=frozenset(flags["diesel_terminus"]),
        diesel_connected=frozenset(flags["diesel_connected"]),
        framed=frozenset(h.id for h in board.hexes.values() if h.framed),
        diesel_pool=pool, is_qlb=_flag(data, "is_qlb", "h1873"), qlb_bonus=_int(data, "qlb_bonus", "h1873", 0),
        maintenance=_int(data, "company_maintenance", "h1873", 0),
        stop_revenue=_int(consts, "STOP_REVENUE", "h1873.constants", 10),
        diesel_stop_revenue=_int(consts, "DIESEL_STOP_REVENUE", "h1873.constants", 10),
        mines=_mines(data), hw_bonus=_int(consts, "HW_BONUS", "h1873.constants", 50),
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
