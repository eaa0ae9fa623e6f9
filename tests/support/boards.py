"""A small builder of hand-made boards in the corpus snapshot format, for tests."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from solver.input.snapshot import SNAPSHOT_FORMAT, board_from_snapshot
from solver.model.board import Board

# pointy layout, axial (q, r): edge -> step. 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE; edge e faces (e+3)%6.
STEPS = {0: (-1, 1), 1: (-1, 0), 2: (0, -1), 3: (1, -1), 4: (1, 0), 5: (0, 1)}


def hex_id(cell: tuple[int, int]) -> str:
    """A hex id in the engine's letter-row, number-column style for an axial cell."""
    q, r = cell
    return f"{'ABCDEFGHIJKLM'[r + 6]}{q + 10}"


def blob_cells(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """n connected cells grown at random from the origin (at most three rows either side)."""
    cells = [(0, 0)]
    while len(cells) < n:
        q, r = rng.choice(cells)
        dq, dr = STEPS[rng.randrange(6)]
        if (q + dq, r + dr) not in cells and abs(r + dr) <= 3:
            cells.append((q + dq, r + dr))
    return cells


def row_cells(n: int) -> list[tuple[int, int]]:
    return [(q, 0) for q in range(n)]


class BoardBuilder:
    """Build a `18xx-route-snapshot/1` object hex by hex.

    Hexes are linked with `link(a, edge, b)`: edge `e` of a meets edge `(e+3) % 6` of b.
    Node ids follow the corpus scheme `<hex>.city<i>`, `<hex>.town<i>`, `<hex>.offboard<i>`.
    """

    def __init__(self, company: str = "A") -> None:
        self.company = company
        self.hexes: dict[str, dict[str, Any]] = {}
        self.trains: list[dict[str, Any]] = []
        self.tokens: list[dict[str, str]] = []

    def hex(self, hex_id: str, **extra: Any) -> dict[str, Any]:
        if hex_id not in self.hexes:
            self.hexes[hex_id] = {"id": hex_id, "tile": hex_id, "color": "yellow", "rotation": 0,
                                  "neighbors": {}, "nodes": [], "paths": [], **extra}
        return self.hexes[hex_id]

    def link(self, a: str, edge: int, b: str) -> None:
        self.hex(a)["neighbors"][str(edge)] = b
        self.hex(b)["neighbors"][str((edge + 3) % 6)] = a

    def _node(self, hex_id: str, kind: str, revenue: int, **fields: Any) -> str:
        h = self.hex(hex_id)
        i = sum(1 for n in h["nodes"] if n["kind"] == kind)
        nid = f"{hex_id}.{kind}{i}"
        node = {"id": nid, "sig": f"{hex_id}-{len(h['nodes'])}", "kind": kind, "revenue": revenue,
                "visit_cost": 1, "exits": [], "blocks": False, "terminal": False}
        node.update(fields)
        h["nodes"].append(node)
        return nid

    def city(self, hex_id: str, revenue: int, token: bool = False, blocked: bool = False, slots: int = 1,
             **fields: Any) -> str:
        """A city; `token` puts the company's token in it, `blocked` fills it with another company's."""
        tokens: list[dict[str, str] | None] = [None] * slots
        if token:
            tokens[0] = {"corp": self.company}
        elif blocked:
            tokens = [{"corp": "OTHER"}] * slots
        nid = self._node(hex_id, "city", revenue, slots=slots, tokens=tokens, tokened_by_company=token,
                         blocks=blocked, terminal=blocked, **fields)
        if token:
            self.tokens.append({"hex": hex_id, "node": nid})
        return nid

    def town(self, hex_id: str, revenue: int, **fields: Any) -> str:
        return self._node(hex_id, "town", revenue, **fields)

    def offboard(self, hex_id: str, revenue: int, **fields: Any) -> str:
        return self._node(hex_id, "offboard", revenue, blocks=True, terminal=True, **fields)

    def path(self, hex_id: str, a: int | str, b: int | str, **fields: Any) -> str:
        h = self.hex(hex_id)
        pid = f"{hex_id}.p{len(h['paths'])}"
        h["paths"].append({"id": pid, "a": a, "b": b, "track": "broad", **fields})
        return pid

    def train(self, train_id: str, distance: int | list[dict[str, Any]] = 2, unit: str | None = None,
              name: str | None = None, **fields: Any) -> str:
        if unit is None:
            unit = "stops_by_type" if isinstance(distance, list) else "stops"
        self.trains.append({"id": train_id, "name": name or train_id.split("-")[0], "distance": distance,
                            "distance_unit": unit, "requires_token": True, **fields})
        return train_id

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy({
            "format": SNAPSHOT_FORMAT,
            "source": {"title": "test", "fixture": "hand-built", "action_id": 0},
            "layout": "pointy",
            "phase": {"name": "test", "tiles": ["yellow"]},
            "company": {"id": self.company, "type": "corporation", "tokens": self.tokens},
            "rules": {"overridden_route_hooks": []},
            "trains": self.trains,
            "hexes": list(self.hexes.values()),
        })

    def board(self) -> Board:
        return board_from_snapshot(self.snapshot())


def line(builder: BoardBuilder, hex_ids: list[str]) -> None:
    """Link hexes left to right (edge 4 of each meets edge 1 of the next)."""
    for a, b in zip(hex_ids, hex_ids[1:]):
        builder.link(a, 4, b)


def chain_board(revenues: list[int], token_at: int = 0) -> tuple[BoardBuilder, list[str]]:
    """A row of one-city hexes joined by straight track; returns the builder and the city ids."""
    b = BoardBuilder()
    hexes = [f"H{i}" for i in range(len(revenues))]
    line(b, hexes)
    cities = []
    for i, (h, rev) in enumerate(zip(hexes, revenues)):
        cities.append(b.city(h, rev, token=(i == token_at)))
        if i > 0:
            b.path(h, 1, cities[-1])
        if i < len(hexes) - 1:
            b.path(h, cities[-1], 4)
    return b, cities


def dense_board(size: int, trains: int = 2) -> BoardBuilder:
    """A size x size patch of hexes (axial coordinates), a city in each joined to every
    neighbour, and unlimited trains: far too many routes to enumerate within a short deadline."""
    b = BoardBuilder()
    steps = {4: (1, 0), 5: (0, 1), 0: (-1, 1)}  # edge -> (dq, dr); the other three are their opposites
    ids = {(q, r): f"Q{q}R{r}" for q in range(size) for r in range(size)}
    for (q, r), hid in ids.items():
        b.hex(hid)
        for edge, (dq, dr) in steps.items():
            other = ids.get((q + dq, r + dr))
            if other:
                b.link(hid, edge, other)
    for (q, r), hid in ids.items():
        city = b.city(hid, 10 + (q * 7 + r * 3) % 40, token=(q, r) == (0, 0))
        for edge in sorted(int(e) for e in b.hex(hid)["neighbors"]):
            b.path(hid, city, edge)
    for i in range(trains):
        b.train(f"D-{i}", 999, name="D")
    return b


def close_hex_track(rng: random.Random, nodes: list[str], edges: list[int], touched: set[int],
                    add: Callable[..., object], edge: Callable[[], int],
                    extra: tuple[int, ...] = (0, 0, 1, 1, 2)) -> None:
    """Finish a random hex's track: every linked edge not yet used gets a path (to a node or to
    another edge), a two-node hex sometimes a node-to-node path, and a few edge-to-edge paths."""
    for e in edges:
        if e not in touched:
            if nodes and rng.random() < 0.5:
                add(rng.choice(nodes), e)
            else:
                add(e, edge())
    if len(nodes) == 2 and rng.random() < 0.3:
        add(nodes[0], nodes[1])
    for _ in range(rng.choice(extra)):
        add(edge(), edge())
