"""The candidate pricer prices the reverse of a route only where a bonus can tell the directions apart.

Cross-check on the random modifier boards of tests/test_bruteforce.py (and the same boards with every
bonus value made equal, where no bonus depends on the order): for every route shape and train, the
pricer's values and direction equal those of pricing both directions in full.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from solver.board import Board, Train
from solver.candidates import build_leg_graph, enumerate_routes
from solver.modifiers.candidate_values import CandidatePricer, candidate_pricer
from solver.modifiers.route_value import route_value
from solver.snapshot import board_from_snapshot, read_positions
from tests.conftest import CORPUS
from tests.test_bruteforce import MOD_SEEDS, make_snapshot_modifiers


def _both_ways(pricer: CandidatePricer, train: Train, nodes: Sequence[str]) -> tuple[list[int], bool] | None:
    """The reference: both directions priced in full, the reverse only when it pays strictly more."""
    board = pricer.board
    if pricer.bonuses is None or not pricer.bonuses.touches([board.nodes[n] for n in nodes]):
        return None
    ahead = route_value(board, train, nodes, pricer.bonuses)
    back = route_value(board, train, nodes[::-1], pricer.bonuses)
    best, reverse = (back, True) if back.total > ahead.total else (ahead, False)
    return best.stop_revenues + [b.amount for b in best.bonuses], reverse


def _uniform(snap: dict) -> dict:
    """The snapshot with one value for every StopBonus hex and every ComboBonus set entry."""
    out = copy.deepcopy(snap)
    for m in out["modifiers"]:
        if m["type"] == "StopBonus":
            m["hexes"] = {h: 20 for h in m["hexes"]}
        elif m["type"] == "ComboBonus":
            m["sets"] = [{h: 30 for h in s} for s in m["sets"]]
    return out


def _check(board: Board) -> tuple[int, int]:
    """Compare the pricer with the reference on every shape; (routes priced, routes reversed)."""
    pricer = candidate_pricer(board)
    assert pricer is not None
    shapes, complete = enumerate_routes(board, build_leg_graph(board), board.trains, cap=20_000)
    priced = reversed_ = 0
    for shape in shapes:
        for train in board.trains:
            got, want = pricer.price(train, shape[0]), _both_ways(pricer, train, shape[0])
            assert got == want, (board.source, shape[0], train.name)
            priced += got is not None
            reversed_ += bool(got and got[1])
    return priced, reversed_


def test_pricer_matches_both_directions_on_random_modifier_boards() -> None:
    order_free = priced = reversed_ = 0
    for seed in range(MOD_SEEDS):
        snap = make_snapshot_modifiers(seed)
        for variant in (snap, _uniform(snap)):
            board = board_from_snapshot(variant)
            pricer = candidate_pricer(board)
            order_free += bool(pricer and pricer.bonuses and pricer.order_free)
            p, r = _check(board)
            priced += p
            reversed_ += r
    # a meaningful mix: many boards skip the reverse, many routes are priced, some pay more reversed
    assert order_free >= MOD_SEEDS // 4
    assert priced >= 1000
    assert reversed_ >= 20


def test_order_matters_for_a_first_hit_with_differing_values() -> None:
    snap = make_snapshot_modifiers(0)
    hexes = [h["id"] for h in snap["hexes"] if h["nodes"]][:2]
    snap["modifiers"] = [{"type": "StopBonus", "source": "s", "label": "S", "hexes": {hexes[0]: 10, hexes[1]: 40},
                          "count": "once"}]
    pricer = candidate_pricer(board_from_snapshot(snap))
    assert pricer is not None and not pricer.order_free
    snap["modifiers"][0]["count"] = "per_stop"
    pricer = candidate_pricer(board_from_snapshot(snap))
    assert pricer is not None and pricer.order_free


def _corpus_boards(title: str, every: int) -> list[Board]:
    files = sorted((CORPUS / title).glob("*.jsonl.gz"))
    raws = [p.raw for f in files for p in read_positions(f) if p.raw is not None and p.raw.get("modifiers")]
    return [board_from_snapshot(r) for r in raws[::every]]


def test_pricer_matches_both_directions_on_corpus_boards_with_bonuses() -> None:
    """1846 (east-west sums, list trains), 1870 (end-stop revenue) and 1856: real tables and trains."""
    priced = 0
    for title, every in (("1846", 12), ("1870", 12), ("1856", 8)):
        for board in _corpus_boards(title, every):
            priced += _check(board)[0]
    assert priced >= 1000
