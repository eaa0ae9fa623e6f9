"""Work the scenarios of one board share: the leg walk, and the candidate routes of token scenarios.

The generic optimiser (`r_standard/solve.py` `solve_run`) asks `SolveOptions.prepared` for its leg
graph and its candidates when one is given (`SharedWork`):

- The leg walk depends on the track only, never on tokens, trains or modifiers: every scenario
  that lays no track reuses the unchanged board's graph.
- A station changes which routes are legal, not which exist. `TokenPool` prices the routes once
  on the board with a station in every placement at once (the pool board) and keeps them all
  (no best-only or lazy pruning: what one board drops may be another's best). A scenario's
  candidates are the pool's routes through one of its own stations. Prices on the pool board are
  never below the scenario's (more stations only open more paying subsets), so the packing's
  optimum and bound hold for the scenario once the evaluator of the scenario's board confirms the
  answer's revenue; when it does not, the runner solves that scenario from scratch. That premise
  needs every stop to pay nothing or more, and no list train to meet a modifier (`pool_prices_hold`):
  else a station may open a larger paying subset that earns less (FORMAT.md takes the largest one
  that earns something), and there is no pool.
"""

from __future__ import annotations

import time
from dataclasses import replace

from solver.model.board import Board
from solver.model.cancel import CancelToken
from solver.modifiers.packing_terms import run_terms
from solver.packing.pack import train_classes
from solver.routes.candidates import candidate_routes
from solver.routes.leg_graph import LegGraph, build_leg_graph
from solver.routes.pricing import Candidate
from solver.whatif.apply import place_tokens
from solver.whatif.model import Scenario


def pool_prices_hold(board: Board) -> bool:
    """Whether a route's price on the pool board is never below its price on a scenario's board (see the
    module): no stop pays less than nothing, and no list train meets a modifier (whose bonuses and rules
    may make a larger paying subset earn less)."""
    if any(n.revenue < 0 or any(v < 0 for v in n.revenue_by_train.values()) for n in board.nodes.values()):
        return False
    return not (board.modifiers and any(t.unit == "stops_by_type" for t in board.trains))


class TokenPool:
    """The candidate routes of the board with every placement tokened, by the stations they pass."""

    def __init__(self, board: Board, graph: LegGraph, nodes: list[str], with_subsidy: bool, deadline: float,
                 cancel: CancelToken | None) -> None:
        pool_board = replace(board)
        if nodes:
            place_tokens(pool_board, Scenario(tokens=tuple(nodes)), "tokens", lambda _b: graph)
        self.with_subsidy = with_subsidy
        self.classes = tuple(t.spec_key() for t in train_classes(board.trains)[0])
        t0 = time.monotonic()
        self.cands, self.complete = candidate_routes(
            pool_board, graph, train_classes(board.trains)[0], deadline=deadline, walk_deadline=deadline,
            cancel=cancel, best_only=False, with_subsidy=with_subsidy, lazy=None)
        self.build_ms = (time.monotonic() - t0) * 1000.0
        stations = [nid for nid, n in pool_board.nodes.items() if n.tokened_by_company]
        bit = {nid: 1 << i for i, nid in enumerate(stations)}
        self.station_bits = bit
        self.masks = [_mask(c, bit) for c in self.cands]
        # one train and no run rules: a board's best run is its best route, the best through one of
        # its stations; so only each station's best route is kept (as the optimiser's best-only walk)
        self.tops: dict[str, Candidate] | None = None
        if len(board.trains) == 1 and run_terms(board, train_classes(board.trains)[0]) is None:
            self.tops = {}
            best: dict[str, int] = {}
            for c, m in zip(self.cands, self.masks):
                value = max(c.totals.values())
                for nid, b in bit.items():
                    if m & b and value > best.get(nid, -1):
                        best[nid], self.tops[nid] = value, c

    def for_board(self, board: Board) -> list[Candidate]:
        """The pool's routes through one of `board`'s stations."""
        if self.tops is not None:
            kept = {id(c): c for nid, c in self.tops.items() if board.nodes[nid].tokened_by_company}
            return list(kept.values())
        own = 0
        for nid, b in self.station_bits.items():
            if board.nodes[nid].tokened_by_company:
                own |= b
        return [c for c, m in zip(self.cands, self.masks) if m & own]

    def fits(self, board: Board, with_subsidy: bool) -> bool:
        """Whether the pool prices this board's routes: the same trains, objective and stations
        (each of the board's stations among the pool's)."""
        return (with_subsidy == self.with_subsidy and all(t.requires_token for t in board.trains)
                and tuple(t.spec_key() for t in train_classes(board.trains)[0]) == self.classes
                and all(nid in self.station_bits for nid, n in board.nodes.items() if n.tokened_by_company))


def _mask(c: Candidate, bit: dict[str, int]) -> int:
    m = 0
    for nid in c.nodes:
        m |= bit.get(nid, 0)
    return m


class SharedWork:
    """`SolveOptions.prepared` for one scenario: the shared leg graph, and the token pool's
    candidates where they price the scenario's board."""

    def __init__(self, graph: LegGraph | None, pool: TokenPool | None = None) -> None:
        self.graph = graph
        self.pool = pool
        self.used_pool = False

    def leg_graph(self, board: Board) -> LegGraph:
        return self.graph if self.graph is not None else build_leg_graph(board)

    def candidate_routes(self, board: Board, graph: LegGraph, classes, cap: int = 2_000_000,  # noqa: ANN001
                         deadline: float | None = None, walk_deadline: float | None = None,
                         cancel: CancelToken | None = None, best_only: bool = False,
                         stats: dict[str, float] | None = None, with_subsidy: bool = True,
                         lazy=None) -> tuple[list[Candidate], bool]:  # noqa: ANN001
        """`solver.routes.candidates.candidate_routes`, answered from the pool when it fits."""
        if self.pool is not None and self.pool.complete and self.pool.fits(board, with_subsidy):
            cands = self.pool.for_board(board)
            self.used_pool = True
            if stats is not None:
                stats["routes_walked"] = float(len(cands))
            return cands, True
        return candidate_routes(board, graph, classes, cap, deadline, walk_deadline, cancel, best_only, stats,
                                with_subsidy, lazy)
