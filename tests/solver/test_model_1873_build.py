"""The 1873 model states its track and network constraints from per-route tables (`Model1873._forbid_shared_track`,
`_meetings`): on the 64 real positions, its CP-SAT model is the very model the direct statements give (the generic
`forbid_shared_track` over every literal; each cut's bridges found by comparing every route's unblocked stops)."""

from __future__ import annotations

import pytest

from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.results import Objective
from solver.packing.pack import forbid_shared_track
from solver.routes.leg_graph import mask_bits
from solver.rulesets.r_1873.candidates import leg_graph_1873, route_shapes
from solver.rulesets.r_1873.model import Model1873
from solver.rulesets.r_1873.view import harzbahn
from tests.conftest import CORPUS

POSITIONS = [p for f in sorted((CORPUS / "1873").glob("*.jsonl.gz")) for p in read_positions(f)]


class DirectModel(Model1873):
    """The model with its constraints stated directly, route by route and pair by pair."""

    def _no_shared_track(self) -> None:
        forbid_shared_track(self.model, (("mining", mask_bits(shape.mask), self.x[(r, si)])
                                         for r, shape in enumerate(self.mining) for si in range(len(self.supers))))
        forbid_shared_track(self.model, (("diesel", mask_bits(shape.mask), self.y[r])
                                         for r, shape in enumerate(self.diesel) if self.has_diesel))

    def add_network_cut(self, si: int, component: set[int]) -> None:
        if len(component) >= self._route_limit(si):
            return
        unblocked = [frozenset(n for n in sh.nodes if not self.board.nodes[n].blocks) for sh in self.shapes(si)]
        reach = frozenset().union(*(unblocked[r] for r in component))
        bridges = [self.lit(q, si) for q in range(len(unblocked)) if q not in component and unblocked[q] & reach]
        apart = [self.lit(r, si).negated() for r in component]
        self.model.add_bool_or(apart + bridges + [self.more_than(si, len(component)).negated()])


def _proto(model: Model1873) -> str:
    return str(model.model.Proto())


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.source.rsplit("/", 1)[-1])
def test_model_is_the_direct_model(position) -> None:
    board = board_from_snapshot(position.raw)
    ctx = harzbahn(board)
    graph = leg_graph_1873(board)
    mining = route_shapes(board, ctx, graph, False)[0] if ctx.mining_trains else []
    diesel = route_shapes(board, ctx, graph, True)[0] if ctx.diesel_train else []
    for objective in (Objective.RULEBOOK, Objective.REVENUE_ONLY):
        built, direct = (kind(board, ctx, mining, diesel, objective) for kind in (Model1873, DirectModel))
        assert _proto(built) == _proto(direct)
        for si in [*range(len(built.supers)), *([-1] if built.y else [])]:  # cuts over networks of several routes
            routes = range(len(built.shapes(si)))
            for component in ({*routes[:2]}, {*routes[1::3]}, set(routes[::2])):
                built.add_network_cut(si, component)
                direct.add_network_cut(si, component)
        assert _proto(built) == _proto(direct)
        assert len(built.model.Proto().constraints) > 0
