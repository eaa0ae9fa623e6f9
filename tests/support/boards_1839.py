"""Small hand-built boards for the 1839 and 1871 Steel Cities rule tests, and the checks they share.

`Net` wraps `tests.support.boards.BoardBuilder`: each hex holds one stop (or is empty), hexes are linked
freely, and once the board is built every stop gets its own path to each linked edge (an empty
hex gets a path between each pair of its linked edges). A claim is then written as the sequence of
hexes the route runs through (`net.claim("5D-0", "L", "C", "R")`).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.results import ClaimedRoute, Evaluation, SolveOptions, SolveResult
from solver.optimiser import solve
from tests.support.boards import BoardBuilder

FREIGHT: dict[str, Any] = {"class": "freight"}
PASSENGER: dict[str, Any] = {"class": "passenger"}


def plus_rows(n: int) -> list[dict[str, Any]]:
    """An 1839 "n+" train: n cities count and pay; towns and off-boards neither count nor limit, but pay."""
    return [{"nodes": ["city"], "pay": n, "visit": n}, {"nodes": ["town", "offboard"], "pay": 99, "visit": 99}]


def diesel_rows(n: int) -> list[dict[str, Any]]:
    """An 1839 "nD" train: n cities count and pay double, off-boards pay double without counting,
    towns neither count nor pay."""
    return [{"nodes": ["city"], "pay": n, "visit": n, "multiplier": 2},
            {"nodes": ["offboard"], "pay": 99, "visit": 99, "multiplier": 2},
            {"nodes": ["town"], "pay": 0, "visit": 99}]


class Net:
    """Hexes of one stop each, linked freely; see the module docstring."""

    def __init__(self, company: str = "NB") -> None:
        self.company = company
        self.b = BoardBuilder(company)
        self.stop: dict[str, str | None] = {}
        self.adj: dict[str, dict[int, str]] = {}
        self.edge_path: dict[tuple[str, int], str] = {}
        self.pass_path: dict[tuple[str, int, int], str] = {}
        self._paths_done = False

    def __getitem__(self, hex_id: str) -> str:
        nid = self.stop[hex_id]
        assert nid is not None, f"{hex_id} is an empty hex"
        return nid

    def _add(self, kind: str, hex_id: str, revenue: int, **fields: Any) -> str:
        assert hex_id not in self.stop, hex_id
        nid = getattr(self.b, kind)(hex_id, revenue, **fields)
        self.stop[hex_id] = nid
        self.adj.setdefault(hex_id, {})
        return nid

    def city(self, hex_id: str, revenue: int, **fields: Any) -> str:
        return self._add("city", hex_id, revenue, **fields)

    def town(self, hex_id: str, revenue: int, **fields: Any) -> str:
        return self._add("town", hex_id, revenue, **fields)

    def offboard(self, hex_id: str, revenue: int, **fields: Any) -> str:
        return self._add("offboard", hex_id, revenue, **fields)

    def empty(self, hex_id: str) -> None:
        self.b.hex(hex_id)
        self.stop[hex_id] = None
        self.adj.setdefault(hex_id, {})

    def link(self, a: str, edge: int, c: str) -> None:
        """Edge `edge` of hex a meets edge `edge + 3` of hex c."""
        self.b.link(a, edge, c)
        self.adj[a][edge] = c
        self.adj[c][(edge + 3) % 6] = a

    def row(self, hexes: list[str]) -> None:
        """Link hexes left to right (edge 4 of each meets edge 1 of the next)."""
        for a, c in zip(hexes, hexes[1:]):
            self.link(a, 4, c)

    def train(self, train_id: str, distance: int | list[dict[str, Any]] = 2, unit: str | None = None,
              **fields: Any) -> str:
        return self.b.train(train_id, distance, unit, **fields)

    def _paths(self) -> None:
        if self._paths_done:
            return
        self._paths_done = True
        for h, nid in self.stop.items():
            edges = sorted(self.adj[h])
            if nid is not None:
                for e in edges:
                    self.edge_path[(h, e)] = self.b.path(h, nid, e)
            else:
                for e1, e2 in combinations(edges, 2):
                    self.pass_path[(h, e1, e2)] = self.b.path(h, e1, e2)

    def snapshot(self, ruleset: str, options: dict[str, Any] | None = None,
                 company_type: str = "corporation") -> dict[str, Any]:
        self._paths()
        snap = self.b.snapshot()
        snap["ruleset"] = ruleset
        snap["options"] = dict(options or {})
        snap["company"]["type"] = company_type
        return snap

    def board(self, ruleset: str, options: dict[str, Any] | None = None, company_type: str = "corporation") -> Board:
        return board_from_snapshot(self.snapshot(ruleset, options, company_type))

    def _edge(self, a: str, c: str) -> int:
        return next(e for e, h in self.adj[a].items() if h == c)

    def claim(self, train: str, *hexes: str) -> ClaimedRoute:
        """The route of `train` through these hexes, in order (the first and last must hold stops;
        empty hexes in between are passed)."""
        self._paths()
        nodes: list[str] = []
        legs: list[list[str]] = []
        cur: list[str] = []
        entry = -1
        for i, h in enumerate(hexes):
            if i:
                prev = hexes[i - 1]
                e = self._edge(prev, h)
                if self.stop[prev] is not None:
                    cur = [self.edge_path[(prev, e)]]
                else:
                    lo, hi = sorted((entry, e))
                    cur.append(self.pass_path[(prev, lo, hi)])
                entry = (e + 3) % 6
                if self.stop[h] is not None:
                    cur.append(self.edge_path[(h, entry)])
                    legs.append(cur)
            if self.stop[h] is not None:
                nodes.append(self.stop[h])  # type: ignore[arg-type]
        return ClaimedRoute(train=train, nodes=nodes, legs=legs)


# --------------------------------------------------------------------------- checks


def codes(ev: Evaluation) -> set[str]:
    return {f.code for f in ev.findings}


def stop_revenues(ev: Evaluation) -> dict[str, list[int]]:
    """Per train: what each stop of its route was credited."""
    return {r.train: list(r.stop_revenues) for r in ev.routes}


def assert_legal(board: Board, claims: list[ClaimedRoute], revenue: int) -> Evaluation:
    ev = evaluate(board, claims)
    assert ev.findings == [], [f.message for f in ev.findings]
    assert ev.legal
    assert ev.revenue == revenue, stop_revenues(ev)
    assert sum(r.revenue for r in ev.routes) == revenue
    return ev


def assert_illegal(board: Board, claims: list[ClaimedRoute], expected: set[str]) -> Evaluation:
    ev = evaluate(board, claims)
    assert not ev.legal
    assert codes(ev) == expected, [f.message for f in ev.findings]
    return ev


def assert_optimum(board: Board, revenue: int) -> SolveResult:
    """solve() proves exactly `revenue`; its routes (a FLOOD train's reach aside, which is no route)
    are accepted by evaluate() at the same revenue, and no train runs twice."""
    res = solve(board, SolveOptions(time_limit_s=10.0))
    assert res.status == "OPTIMAL", res.status
    assert res.revenue == revenue, [(r.train, r.nodes, r.stop_revenues) for r in res.routes]
    assert sum(r.revenue for r in res.routes) == revenue
    trains = [r.train for r in res.routes]
    assert len(trains) == len(set(trains)), trains
    assert set(trains) <= {t.id for t in board.trains}
    flood = {t.id for t in board.trains if t.unit == "flood"}
    claims = [ClaimedRoute(train=r.train, nodes=list(r.nodes), legs=[list(leg.paths) for leg in r.legs])
              for r in res.routes if r.train not in flood]
    again = evaluate(board, claims)
    assert again.legal, [f.message for f in again.findings]
    assert again.revenue == revenue
    return res


def routes_by_train(res: SolveResult) -> dict[str, set[str]]:
    """The stops of each train's route (a FLOOD train: the locations it is credited for)."""
    return {r.train: set(r.nodes) for r in res.routes}
