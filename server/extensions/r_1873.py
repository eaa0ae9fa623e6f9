"""The 1873 parts of the protocol: the board extension `h1873`, run summaries and mine production."""

from __future__ import annotations

from typing import Any

from routemax.v1 import routemax_pb2 as pb
from solver.model.board import Board
from solver.model.errors import BoardError
from solver.model.results import RunExtras


def apply_extension(msg: pb.Harzbahn1873, board: Board) -> None:
    """Put the 1873 extension on the model board in the snapshot's shape (which the rules read)."""
    for i, nid in enumerate(list(msg.terminus_nodes) + list(msg.diesel_terminus_nodes)
                            + list(msg.diesel_connected_nodes)):
        if nid not in board.nodes:
            raise BoardError("board.h1873.nodes", f"unknown node {nid!r} (entry {i})")
    for i, mine in enumerate(msg.mines):
        if mine.hex and mine.hex not in board.hexes:
            raise BoardError(f"board.h1873.mines[{i}].hex", f"unknown hex {mine.hex!r}")
    for i, f in enumerate(msg.factories):
        if f.hex not in board.hexes:
            raise BoardError(f"board.h1873.factories[{i}].hex", f"unknown hex {f.hex!r}")
    board.extra["super_trains"] = [
        {"id": t.id, "name": t.name, "distance": t.distance, "diesel": t.diesel, "subtrains": list(t.subtrains),
         "maintenance": t.maintenance} for t in msg.super_trains]
    board.extra["company_home"] = list(msg.home_hexes) or board.extra.get("company_home", [])
    diesel = next((t for t in msg.super_trains if t.diesel and t.subtrains), None)  # as `view.Harzbahn.diesel_train`
    allocated = list(diesel.subtrains) if diesel else []
    board.extra["h1873"] = {
        "constants": {"STOP_REVENUE": msg.stop_revenue or 10, "DIESEL_STOP_REVENUE": msg.diesel_stop_revenue or 10,
                      "HW_BONUS": msg.hw_bonus if msg.HasField("hw_bonus") else 50},
        "is_qlb": msg.is_qlb, "qlb_bonus": msg.qlb_bonus, "company_maintenance": msg.maintenance,
        "concession": {"routes": [list(r.hexes) for r in msg.concession_routes],
                       "route_hexes": list(msg.concession_route_hexes)},
        "diesel": {"allocated_subtrains": allocated,
                   "next_pool_ids": [t for t in msg.diesel_pool if t not in allocated]},
        "mines": [{"id": m.id, "name": m.name, "hex": m.hex, "open": m.open, "connected": m.connected,
                   "multiplier": m.multiplier, "machine_revenue": list(m.machine_revenue),
                   "switcher_revenue": list(m.switcher_revenue), "owner": m.owner, "vor_harzer": m.vor_harzer}
                  for m in msg.mines],
    }
    for m in msg.mines:
        if m.hex:
            board.hexes[m.hex].extra.setdefault("h1873", {}).update(
                {"mine": m.id, "mine_open": m.open, "mine_multiplier": m.multiplier})
    for f in msg.factories:
        board.hexes[f.hex].extra.setdefault("h1873", {}).update({"factory": f.name, "factory_revenue": f.revenue})
    for key, ids in (("terminus", msg.terminus_nodes), ("diesel_terminus", msg.diesel_terminus_nodes),
                     ("diesel_connected", msg.diesel_connected_nodes)):
        for nid in ids:
            board.nodes[nid].extra.setdefault("h1873", {})[key] = True


def extension_from_board(board: Board) -> pb.Harzbahn1873:
    """The 1873 extension of a model board read from a snapshot."""
    data: dict[str, Any] = board.extra.get("h1873") or {}
    consts = data.get("constants", {})
    diesel = data.get("diesel") or {}
    msg = pb.Harzbahn1873(
        is_qlb=bool(data.get("is_qlb")), qlb_bonus=int(data.get("qlb_bonus") or 0),
        maintenance=int(data.get("company_maintenance") or 0), stop_revenue=int(consts.get("STOP_REVENUE", 10)),
        diesel_stop_revenue=int(consts.get("DIESEL_STOP_REVENUE", 10)),
        home_hexes=list(board.extra.get("company_home") or []),
        diesel_pool=list(diesel.get("allocated_subtrains", [])) + list(diesel.get("next_pool_ids", [])))
    for t in board.extra.get("super_trains", []):
        msg.super_trains.add(id=t["id"], name=t.get("name", t["id"]), distance=int(t.get("distance", 0)),
                             diesel=bool(t.get("diesel")), subtrains=list(t.get("subtrains", [])),
                             maintenance=int(t.get("maintenance", 0)))
    concession = data.get("concession") or {}
    for r in concession.get("routes", []):
        msg.concession_routes.add(hexes=list(r))
    msg.concession_route_hexes.extend(concession.get("route_hexes", []))
    if "HW_BONUS" in consts:
        msg.hw_bonus = int(consts["HW_BONUS"])
    rows = data.get("mines", [])
    mines_by_hex = {m.get("hex"): m for m in rows}
    order = {m.get("hex"): i for i, m in enumerate(rows)}  # the snapshot's order of the mines
    mines = []
    for hx in board.hexes.values():
        h = hx.extra.get("h1873") or {}
        if h.get("mine"):
            m = mines_by_hex.get(hx.id, {})
            mines.append(pb.Mine(id=str(h["mine"]), hex=hx.id, open=bool(h.get("mine_open")),
                                 multiplier=int(h.get("mine_multiplier", 0)), name=m.get("name", ""),
                                 connected=bool(m.get("connected")), machine_revenue=m.get("machine_revenue", []),
                                 switcher_revenue=m.get("switcher_revenue", []), owner=str(m.get("owner", "")),
                                 vor_harzer=bool(m.get("vor_harzer"))))
        if h.get("factory"):
            msg.factories.add(hex=hx.id, name=str(h["factory"]), revenue=int(h.get("factory_revenue", 0)))
    msg.mines.extend(sorted(mines, key=lambda mine: order.get(mine.hex, len(order))))
    for node in board.nodes.values():
        h = node.extra.get("h1873") or {}
        if h.get("terminus"):
            msg.terminus_nodes.append(node.id)
        if h.get("diesel_terminus"):
            msg.diesel_terminus_nodes.append(node.id)
        if h.get("diesel_connected"):
            msg.diesel_connected_nodes.append(node.id)
    return msg


def summary(extras: RunExtras | None) -> pb.RunSummary | None:
    """The 1873 run summary of an evaluation or a solve, if there is one."""
    if extras is None or extras.ruleset != "1873":
        return None
    possible = extras.routes_possible  # type: ignore[attr-defined]
    return pb.RunSummary(
        routes_serviced=extras.routes_serviced, routes_possible=-1 if possible is None else possible,
        maintenance=extras.maintenance, qlb_bonus=extras.qlb_bonus, net_revenue=extras.net_revenue,
        tokens=[pb.TokenStatus(node=n, status=st) for n, st in sorted(extras.token_status.items())])


def mines_from_proto(req: pb.MineProductionRequest) -> list[dict[str, Any]]:
    """The mines of a request as the plain rows the 1873 ruleset reads."""
    return [{"id": m.id or str(i), "connected": m.connected, "machine": m.machine, "switcher": m.switcher,
             "machine_revenue": list(m.machine_revenue), "switcher_revenue": list(m.switcher_revenue)}
            for i, m in enumerate(req.mines)]


def production_to_proto(p: Any) -> pb.MineProductionResponse:
    """The production result (revenue, bonus, per_mine, switchers) as a response."""
    return pb.MineProductionResponse(
        revenue=p.revenue, bonus=p.bonus,
        mines=[pb.MineRevenue(id=k, switcher=p.switchers.get(k, 0), revenue=v) for k, v in p.per_mine.items()])


class Harzbahn1873Extension:
    """The 1873 ruleset's protocol extension, as the server's registry uses it."""

    ruleset = "1873"
    board_field = "h1873"

    @staticmethod
    def apply(msg: pb.Board, board: Board) -> None:
        apply_extension(msg.h1873, board)

    @staticmethod
    def board_to_proto(board: Board, msg: pb.Board) -> None:
        msg.h1873.CopyFrom(extension_from_board(board))

    @staticmethod
    def fill_response(extras: RunExtras | None, resp: pb.SolveResponse | pb.EvaluateResponse) -> None:
        run = summary(extras)
        if run is not None:
            resp.summary.CopyFrom(run)


EXTENSION = Harzbahn1873Extension()
