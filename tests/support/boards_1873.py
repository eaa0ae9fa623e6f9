"""Hand-made "Harzbahn 1873" boards in the corpus snapshot format (FORMAT.md, "1873"), for tests.

`Harz` wraps `tests.support.boards.BoardBuilder` and adds what an 1873 snapshot carries besides the map:
the top-level `h1873` and `super_trains`, per-hex `h1873` (mines, factories, concession hexes),
per-node `h1873` (terminus flags), framed "town" hexes and the subtrains in `trains`.

The per-node flags follow the engine's definitions (FORMAT.md "Route rules"): `terminus` = a city
with the company's token, a town dot in a factory hex, or a non-blocking city in a hex with an open
mine or a factory; `diesel_terminus` = a city with the company's token; `diesel_connected` = true
unless a test says otherwise. All track is narrow gauge (broad track is the state railway).
"""

from __future__ import annotations

from typing import Any

from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.results import ClaimedRoute
from tests.support.boards import BoardBuilder

TITLE = "Harzbahn 1873"


def hex_of(ref: str) -> str:
    """`"A1.city0"` -> `"A1"`; a hex id is returned unchanged."""
    return ref.split(".", 1)[0]


class Harz:
    """Build one 1873 position for company `company`."""

    def __init__(self, company: str = "HBE", home: list[str] | None = None, qlb: bool = False,
                 qlb_bonus: int = 0, phase: str = "2") -> None:
        self.b = BoardBuilder(company)
        self.company = company
        self.home = list(home or [])
        self.qlb = qlb
        self.qlb_bonus = qlb_bonus
        self.phase = phase
        self.concession: list[list[str]] = []
        self.supers: list[dict[str, Any]] = []
        self.mines: dict[str, tuple[int, bool]] = {}  # hex -> (multiplier, open)
        self.factories: dict[str, int] = {}
        self.framed: set[str] = set()
        self.not_diesel_connected: set[str] = set()
        self.diesel_pool: list[str] = []
        self.legs: dict[tuple[str, str], list[str]] = {}
        self._counter = 0

    # ------------------------------------------------------------------ map

    def city(self, hex_id: str, revenue: int, token: bool = False, blocked: bool = False,
             framed: bool = False) -> str:
        """A city; `token`: the company's station; `blocked`: every slot holds another company's token."""
        if framed:
            self.framed.add(hex_id)
        return self.b.city(hex_id, revenue, token=token, blocked=blocked)

    def town(self, hex_id: str, revenue: int = 0, framed: bool = False) -> str:
        """A town dot (kind "town"; earns no city money in 1873)."""
        if framed:
            self.framed.add(hex_id)
        return self.b.town(hex_id, revenue)

    def mine(self, hex_id: str, multiplier: int, open_: bool = True) -> None:
        self.mines[hex_id] = (multiplier, open_)

    def factory(self, hex_id: str, revenue: int) -> None:
        self.factories[hex_id] = revenue

    def _link(self, a: str, edge: int, b: str) -> None:
        na = self.b.hex(a)["neighbors"]
        nb = self.b.hex(b)["neighbors"]
        back = str((edge + 3) % 6)
        assert na.get(str(edge), b) == b, f"{a} edge {edge} already leads to {na[str(edge)]}"
        assert nb.get(back, a) == a, f"{b} edge {back} already leads to {nb[back]}"
        self.b.link(a, edge, b)

    def lay(self, a: str, *hops: tuple[int, str]) -> list[str]:
        """Narrow track from node `a`: leave its hex at edge hops[0][0] into hops[0][1], and so on.
        A hop target that is a hex id is passed through (an edge-to-edge path); the last hop names a
        node, where the track ends. Returns the path ids in order (one leg from a to the last node),
        and records the leg both ways for `route`."""
        assert hops and "." in hops[-1][1], "the last hop must name a node"
        cur_hex, cur_end = hex_of(a), a
        paths: list[str] = []
        for edge, target in hops:
            nxt = hex_of(target)
            self._link(cur_hex, edge, nxt)
            paths.append(self.b.path(cur_hex, cur_end, edge, track="narrow"))
            cur_hex, cur_end = nxt, (edge + 3) % 6
        end = hops[-1][1]
        paths.append(self.b.path(cur_hex, cur_end, end, track="narrow"))
        self.legs[(a, end)] = paths
        self.legs[(end, a)] = paths[::-1]
        return paths

    def lay_inside(self, a: str, b: str) -> list[str]:
        """A narrow path joining two nodes of the same hex directly."""
        assert hex_of(a) == hex_of(b)
        paths = [self.b.path(hex_of(a), a, b, track="narrow")]
        self.legs[(a, b)] = paths
        self.legs[(b, a)] = paths
        return paths

    # ------------------------------------------------------------------ company

    def concession_route(self, *hexes: str) -> None:
        self.concession.append(list(hexes))

    def train(self, size: int, maintenance: int = 0) -> list[str]:
        """An nT (n = size): one super-train with n subtrains; returns the subtrain ids."""
        k = self._counter
        self._counter += 1
        sid = f"{size}T-{k}"
        subs = [f"{size}T-{k}{chr(ord('a') + j)}" for j in range(size)]
        self.supers.append({"id": sid, "name": f"{size}T", "label": f"{size}T", "distance": size,
                            "diesel": False, "subtrains": subs, "maintenance": maintenance})
        for s in subs:
            self.b.trains.append({"id": s, "name": f"{size}T", "distance": size, "distance_unit": "none",
                                  "requires_token": True, "super": sid, "diesel": False, "type": "mining"})
        return subs

    def diesel(self, pool: int = 6) -> list[str]:
        """The diesel: one allocated pool diesel plus `pool - 1` ids the engine would hand out next."""
        ids = [f"D-{i}" for i in range(1, pool + 1)]
        self.supers.append({"id": "D-0", "name": "D", "label": "D", "distance": 999, "diesel": True,
                            "subtrains": ids[:1], "maintenance": 0})
        self.b.trains.append({"id": ids[0], "name": "D", "distance": 999, "distance_unit": "none",
                              "requires_token": True, "super": "D-0", "diesel": True, "type": "passenger"})
        self.diesel_pool = ids
        return ids

    # ------------------------------------------------------------------ output

    def _is_terminus(self, node: dict[str, Any], hex_id: str) -> bool:
        if node["kind"] == "city" and node.get("tokened_by_company"):
            return True
        if node["kind"] == "town" and hex_id in self.factories:
            return True
        mine_open = hex_id in self.mines and self.mines[hex_id][1]
        return node["kind"] == "city" and not node.get("blocks") and (mine_open or hex_id in self.factories)

    def snapshot(self) -> dict[str, Any]:
        snap = self.b.snapshot()
        snap["source"] = {"title": TITLE, "fixture": "hand-built", "action_id": 0}
        snap["phase"] = {"name": self.phase, "tiles": ["yellow", "green"]}
        snap["company"]["home"] = self.home
        snap["company"]["name"] = self.company
        snap["rules"] = {"overridden_route_hooks": ["check_distance", "check_other", "revenue_for"]}
        concession_hexes = {h for r in self.concession for h in r}
        for hx in snap["hexes"]:
            hid = hx["id"]
            h: dict[str, Any] = {}
            if hid in self.mines:
                mult, open_ = self.mines[hid]
                h.update(mine=f"m{hid}", mine_open=open_, mine_multiplier=mult)
            if hid in self.factories:
                h.update(factory=f"f{hid}", factory_revenue=self.factories[hid])
            if hid in concession_hexes:
                h["on_concession_route"] = True
            if h:
                hx["h1873"] = h
            if hid in self.framed:
                hx["framed"] = True
            for node in hx["nodes"]:
                if hid in self.framed:
                    node["terminal"] = True
                tokened = node["kind"] == "city" and bool(node.get("tokened_by_company"))
                node["h1873"] = {"terminus": self._is_terminus(node, hid), "diesel_terminus": tokened,
                                 "diesel_connected": node["id"] not in self.not_diesel_connected}
        maintenance = sum(st["maintenance"] for st in self.supers)
        h1873: dict[str, Any] = {
            "constants": {"STOP_REVENUE": 10, "DIESEL_STOP_REVENUE": 10, "HW_BONUS": 50},
            "company_kind": "railway", "is_qlb": self.qlb, "company_maintenance": maintenance,
            "concession": {"routes": self.concession, "route_hexes": sorted(concession_hexes),
                           "must_run": bool(self.concession)},
            "mines": [{"id": f"m{h}", "hex": h, "open": o, "multiplier": m} for h, (m, o) in self.mines.items()],
            "factories": [{"hex": h, "name": f"f{h}", "revenue": r} for h, r in self.factories.items()],
        }
        if self.qlb:
            h1873["qlb_bonus"] = self.qlb_bonus
        if self.diesel_pool:
            h1873["diesel"] = {"super_train": "D-0", "allocated_subtrains": self.diesel_pool[:1],
                               "next_pool_ids": self.diesel_pool[1:]}
        snap["h1873"] = h1873
        snap["super_trains"] = self.supers
        return snap

    def board(self) -> Board:
        return board_from_snapshot(self.snapshot())

    def route(self, train: str, *nodes: str) -> ClaimedRoute:
        """A claimed route through `nodes`, each leg over the track laid between consecutive nodes."""
        legs = [self.legs[(a, b)] for a, b in zip(nodes, nodes[1:])]
        return ClaimedRoute(train=train, nodes=list(nodes), legs=legs)
