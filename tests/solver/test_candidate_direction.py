"""The candidate pricer prices the reverse of a route only where a bonus can tell the directions apart.

Cross-check on the random modifier boards of tests/solver/test_bruteforce.py (and the same boards with every
bonus value made equal, where no bonus depends on the order): for every route shape and train, the
pricer's values and direction equal those of pricing both directions in full, also when asked as the
candidate builder asks for a train that pays every stop (a list train too: `pays_every_stop`).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.board import Board, Train
from solver.model.legs import Leg
from solver.modifiers.candidate_values import ILLEGAL, CandidatePricer, candidate_pricer, pays_every_stop
from solver.modifiers.route_value import path_hexes_of, route_mods, route_value
from solver.routes.leg_graph import build_leg_graph
from solver.routes.pricing import stop_table
from solver.routes.walk import enumerate_routes, standard_walk_rules
from solver.rules.train_rules import route_stop_revenues, within_distance
from tests.conftest import CORPUS
from tests.solver.test_bruteforce import MOD_SEEDS, make_snapshot_modifiers


def _both_ways(pricer: CandidatePricer, train: Train, nodes: Sequence[str], legs: Sequence[Leg] = ()
               ) -> tuple[list[int], bool, int] | str | None:
    """The reference: both directions priced in full, the reverse only when it pays strictly more
    (revenue and subsidy); ILLEGAL when both break a route rule."""
    board = pricer.board
    mods = route_mods(board.modifiers)  # every per-route rule, those the walk enforces too
    if mods is None:  # only run rules: no route pricing of its own
        return None
    stops = [board.nodes[n] for n in nodes]
    hexes = path_hexes_of(legs, stops)
    ahead = route_value(board, train, nodes, mods, hexes)
    back = route_value(board, train, nodes[::-1], mods, hexes[::-1])
    legal = [(v, rev) for v, rev in ((ahead, False), (back, True)) if not v.findings]
    if not legal:
        return ILLEGAL
    best, reverse = max(legal, key=lambda e: (e[0].total + e[0].subsidy, not e[1]))
    subsidy = [best.subsidy] if best.subsidy else []
    return best.stop_revenues + [b.amount for b in best.bonuses] + subsidy, reverse, best.subsidy


def _uniform(snap: dict) -> dict:
    """The snapshot with one value for every StopBonus hex and every ComboBonus set entry."""
    out = copy.deepcopy(snap)
    for m in out["modifiers"]:
        if m["type"] == "StopBonus":
            m["hexes"] = {h: 20 for h in m["hexes"]}
        elif m["type"] == "ComboBonus":
            m["sets"] = [{h: 30 for h in s} for s in m["sets"]]
    return out


def _check(board: Board) -> tuple[int, int, int]:
    """Compare the pricer with the reference on every shape, also as the candidate builder asks it (with
    what each stop pays) for trains paying every stop; (routes priced, routes reversed, list-train routes
    priced from their stop table)."""
    pricer = candidate_pricer(board)
    assert pricer is not None
    shapes, complete = enumerate_routes(board, build_leg_graph(board), board.trains, cap=20_000,
                                        rules=standard_walk_rules(board, *pricer.walk_limits))
    priced = reversed_ = priced_paid = 0
    tables: dict[Train, dict[str, int]] = {}
    for shape in shapes:
        for train in board.trains:
            got, want = pricer.price(train, shape[0], legs=shape[1]), _both_ways(pricer, train, shape[0], shape[1])
            priced += got is not None
            usual = (route_stop_revenues(board, train, shape[0]), False, 0)  # no modifier applies: priced as usual
            got = usual if got is None else got
            want = usual if want is None else want
            assert got == want, (board.source, shape[0], train.name)
            if pays_every_stop(train, board) and within_distance(train, [board.nodes[n] for n in shape[0]], shape[3]):
                # as the candidate builder asks for a route the train may run: with what each stop pays
                paid = [tables.setdefault(train, stop_table(board, train))[n] for n in shape[0]]
                with_paid = pricer.price(train, shape[0], paid, legs=shape[1])
                assert (usual if with_paid is None else with_paid) == want, (board.source, shape[0], train.name)
                priced_paid += with_paid is not None and train.unit == "stops_by_type"
            reversed_ += bool(got and got != ILLEGAL and got[1])
    return priced, reversed_, priced_paid


def test_pricer_matches_both_directions_on_random_modifier_boards() -> None:
    order_free = priced = reversed_ = from_table = 0
    for seed in range(MOD_SEEDS):
        snap = make_snapshot_modifiers(seed)
        for variant in (snap, _uniform(snap)):
            board = board_from_snapshot(variant)
            pricer = candidate_pricer(board)
            views = [pricer.train_mods(t.name) for t in board.trains] if pricer else []
            order_free += bool(views and all(v is not None and v.mods.bonuses and v.order_free for v in views))
            p, r, t = _check(board)
            priced += p
            reversed_ += r
            from_table += t
    # a meaningful mix: many boards skip the reverse, many routes are priced, some pay more reversed
    assert order_free >= MOD_SEEDS // 4
    assert priced >= 1000
    assert reversed_ >= 20
    assert from_table >= 100  # the 2+ and 3+ trains pay every stop: priced from their stop table too


def test_order_matters_for_a_first_hit_with_differing_values() -> None:
    snap = make_snapshot_modifiers(0)
    hexes = [h["id"] for h in snap["hexes"] if h["nodes"]][:2]
    snap["modifiers"] = [{"type": "StopBonus", "source": "s", "label": "S", "hexes": {hexes[0]: 10, hexes[1]: 40},
                          "count": "once"}]
    board = board_from_snapshot(snap)
    pricer = candidate_pricer(board)
    assert pricer is not None and not pricer.train_mods(board.trains[0].name).order_free  # type: ignore[union-attr]
    snap["modifiers"][0]["count"] = "per_stop"
    board = board_from_snapshot(snap)
    pricer = candidate_pricer(board)
    assert pricer is not None and pricer.train_mods(board.trains[0].name).order_free  # type: ignore[union-attr]


def _corpus_boards(title: str, every: int) -> list[Board]:
    files = sorted((CORPUS / title).glob("*.jsonl.gz"))
    raws = [p.raw for f in files for p in read_positions(f) if p.raw is not None and p.raw.get("modifiers")]
    return [board_from_snapshot(r) for r in raws[::every]]


def test_pricer_matches_both_directions_on_corpus_boards_with_bonuses() -> None:
    """1846 (east-west sums, list trains), 1870 (end-stop revenue) and 1856: real tables and trains;
    vocabulary v2: path-hex bonuses and one stop per hex (1817), mines paid as subsidy and goods rules
    (1837), mandatory stops first (1867), exclusive combos (18 Los Angeles), candidates rules (18FL)."""
    priced = from_table = 0
    for title, every in (("1846", 12), ("1870", 12), ("1856", 8), ("1817", 20), ("1837", 20), ("1867", 20),
                         ("18LosAngeles1", 5), ("18FL", 10), ("1841", 20)):
        for board in _corpus_boards(title, every):
            p, _, t = _check(board)
            priced += p
            from_table += t
    assert priced >= 1000
    assert from_table >= 100  # 18FL's 4 and 3E, 1846's list trains
