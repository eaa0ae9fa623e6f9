"""What-if in the library: every scenario's answer equals a separate Solve of the board changed by
hand (in snapshot JSON, read again), the advisors rank as separate Solves do, and a scenario that
is not legal is reported with its field while the others go on."""

from __future__ import annotations

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.errors import BoardError
from solver.model.results import SolveOptions, SolveResult, Status
from solver.optimiser import solve
from solver.routes.leg_graph import build_leg_graph
from solver.whatif import Scenario, WhatIfOptions, run_whatif
from solver.whatif.shared import pool_prices_hold
from solver.whatif.tokens import placements
from tests.support.boards import BoardBuilder, line
from tests.support.stress_boards import stress_snapshots
from tests.support.whatif_boards import snapshot, train_named, with_token, with_trains

LIMIT = 60.0


def _solve_raw(raw: dict) -> SolveResult:
    return solve(board_from_snapshot(raw), SolveOptions(time_limit_s=LIMIT))


def _income(r: SolveResult) -> int:
    return r.revenue + r.subsidy


@pytest.mark.parametrize("key", ["1846", "1870", "1830", "1873"])
def test_every_token_placement_equals_a_solve_of_the_board_changed_by_hand(key: str) -> None:
    raw = snapshot(key)
    board = board_from_snapshot(raw)
    result = run_whatif(board, [], WhatIfOptions(time_limit_s=600), tokens=True)
    nodes = placements(board, build_leg_graph(board))
    assert nodes, "the position offers no token placement"
    assert result.base.revenue == _solve_raw(raw).revenue
    answers = {a.scenario.tokens[0]: a for a in result.scenarios}
    assert sorted(answers) == sorted(nodes)
    expected = {}
    for node_id in nodes:
        alone = _solve_raw(with_token(raw, node_id))
        a = answers[node_id]
        assert (a.revenue, a.status, a.bound) == (alone.revenue, alone.status, alone.bound), node_id
        assert a.status == Status.OPTIMAL
        assert a.delta == _income(alone) - _income(result.base.result)
        expected[node_id] = a.delta
    deltas = [a.delta for a in result.scenarios]
    assert deltas == sorted(deltas, reverse=True)
    assert {a.scenario.tokens[0]: a.delta for a in result.scenarios} == expected


def test_a_token_that_opens_routes_gains_on_some_position() -> None:
    """Not every placement is worth 0: on this 1846 position some stations add revenue."""
    result = run_whatif(board_from_snapshot(snapshot("1846one")), [], WhatIfOptions(time_limit_s=600), tokens=True)
    assert max(a.delta for a in result.scenarios) > 0


@pytest.mark.parametrize("key", ["1846one", "1870", "1830"])
def test_train_advisor_ranks_as_separate_solves(key: str) -> None:
    raw = snapshot(key)
    board = board_from_snapshot(raw)
    held = board.trains[0].name
    result = run_whatif(board, [], WhatIfOptions(time_limit_s=600), trains=[held, "D", "3+3", "5=6H"])
    base = _income(result.base.result)
    weakest = min(board.trains, key=lambda t: (sum(r.revenue for r in result.base.routes if r.train == t.id),
                                               board.trains.index(t))).id
    offers = {held: train_named(raw, held, "extra-1"),
              "D": {"id": "extra-1", "name": "D", "distance": 999},
              "3+3": {"id": "extra-1", "name": "3+3", "distance_unit": "stops_by_type",
                      "distance": [{"nodes": ["city", "offboard"], "pay": 3, "visit": 3},
                                   {"nodes": ["town", "halt"], "pay": 3, "visit": 3}]},
              "5=6H": {"id": "extra-1", "name": "5", "distance": 6, "distance_unit": "hexes"}}
    expected = {}
    for spec, train in offers.items():
        expected[("add_train", spec, "")] = _income(_solve_raw(with_trains(raw, add=[train]))) - base
        expected[("replace_train", spec, weakest)] = \
            _income(_solve_raw(with_trains(raw, add=[train], remove=(weakest,)))) - base
    got = {(a.scenario.describe()["kind"], a.scenario.describe()["train"], a.scenario.describe().get("replaces", "")):
           a.delta for a in result.scenarios}
    assert got == expected
    assert [a.delta for a in result.scenarios] == sorted(expected.values(), reverse=True)


def test_scenarios_combine_changes_and_match_hand_edits() -> None:
    """Trains removed and tokens placed in one scenario; modifiers removed; each equals its hand edit."""
    raw = snapshot("1846")
    board = board_from_snapshot(raw)
    node = placements(board, build_leg_graph(board))[0]
    source = board.modifiers[0].source
    scenarios = [Scenario(label="both", remove_trains=(board.trains[0].id,), tokens=(node,)),
                 Scenario(label="no bonus", remove_modifiers=(source,))]
    result = run_whatif(board, scenarios, WhatIfOptions(time_limit_s=600))
    by_label = {a.scenario.label: a for a in result.scenarios}
    both = _solve_raw(with_trains(with_token(raw, node), remove=(board.trains[0].id,)))
    assert (by_label["both"].revenue, by_label["both"].status) == (both.revenue, both.status)
    no_bonus = dict(raw, modifiers=[m for m in raw["modifiers"] if m["source"] != source])
    assert by_label["no bonus"].revenue == _solve_raw(no_bonus).revenue
    assert by_label["both"].scenario.describe() == {"kind": "custom", "remove_trains": [board.trains[0].id],
                                                    "tokens": [node], "label": "both"}


def test_laying_a_tile_equals_the_board_with_that_tile() -> None:
    """A track scenario: the hex of a station replaced by the same hex without one of its paths."""
    raw = snapshot("1830")
    board = board_from_snapshot(raw)
    base = solve(board, SolveOptions(time_limit_s=LIMIT))
    used = base.routes[0].legs[0].paths[0]
    hex_raw = next(h for h in raw["hexes"] if any(p["id"] == used for p in h.get("paths", [])))
    changed_hex = dict(hex_raw, paths=[p for p in hex_raw["paths"] if p["id"] != used])
    result = run_whatif(board, [Scenario(hexes=(changed_hex,))], WhatIfOptions(time_limit_s=600))
    by_hand = dict(raw, hexes=[changed_hex if h["id"] == hex_raw["id"] else h for h in raw["hexes"]])
    alone = _solve_raw(by_hand)
    answer = result.scenarios[0]
    assert (answer.revenue, answer.status) == (alone.revenue, alone.status)
    assert answer.revenue < base.revenue


def test_illegal_scenarios_name_their_field_and_the_others_go_on() -> None:
    raw = snapshot("1846")
    board = board_from_snapshot(raw)
    full = next(n.id for n in board.nodes.values() if n.kind == "city" and n.tokens and None not in n.tokens
                and not n.tokened_by_company)
    own = next(n.id for n in board.nodes.values() if n.tokened_by_company)
    scenarios = [Scenario(tokens=(full,)), Scenario(add_trains=("Zeppelin",)), Scenario(remove_trains=("nope",)),
                 Scenario(tokens=("B99.city0",)), Scenario(tokens=(own,)), Scenario(remove_modifiers=("nobody",)),
                 Scenario(hexes=({"id": "ZZ99", "nodes": [], "paths": []},)), Scenario(add_trains=("D",))]
    result = run_whatif(board, scenarios, WhatIfOptions(time_limit_s=600))
    errors = {a.index: (a.error_field, a.error) for a in result.scenarios if not a.ok}
    assert errors[0][0] == "scenarios[0].tokens[0]" and "full" in errors[0][1]
    assert errors[1][0] == "scenarios[1].add_trains[0]" and "unknown train 'Zeppelin'" in errors[1][1]
    assert errors[2][0] == "scenarios[2].remove_trains[0]"
    assert errors[3][0] == "scenarios[3].tokens[0]" and "unknown node" in errors[3][1]
    assert errors[4][0] == "scenarios[4].tokens[0]" and "already has a station" in errors[4][1]
    assert errors[5][0] == "scenarios[5].remove_modifiers[0]"
    assert errors[6][0] == "scenarios[6].hexes[ZZ99].id"
    assert [a.index for a in result.scenarios if a.ok] == [7]
    assert result.scenarios[0].delta > 0
    assert result.scenarios[-1].as_dict()["status"] == "INVALID"


def test_a_malformed_train_offer_is_bad_input() -> None:
    with pytest.raises(BoardError) as err:
        run_whatif(board_from_snapshot(snapshot("1830")), [], trains=["5=fast"])
    assert err.value.field == "trains[0]"


def test_a_short_deadline_gives_every_scenario_an_answer_with_a_bound() -> None:
    board = board_from_snapshot(snapshot("1870"))
    result = run_whatif(board, [], WhatIfOptions(time_limit_s=0.05), tokens=True, trains=["D"])
    for a in result.all:
        assert a.ok
        assert a.status in (Status.OPTIMAL, Status.FEASIBLE)
        assert a.bound >= a.revenue + a.result.subsidy or a.status == Status.OPTIMAL


@pytest.mark.parametrize("key", ["1846", "1870"])
def test_scenarios_solved_in_parallel_answer_as_one_at_a_time(key: str) -> None:
    """Two workers (threads, one deadline) give every scenario the same answer as one worker."""
    board = board_from_snapshot(snapshot(key))
    one = run_whatif(board, [], WhatIfOptions(time_limit_s=600), tokens=True, trains=["5", "D"])
    two = run_whatif(board, [], WhatIfOptions(time_limit_s=600, workers=2), tokens=True, trains=["5", "D"])
    assert len(one.scenarios) >= 3

    def answers(r):  # noqa: ANN001, ANN202
        return sorted((repr(a.scenario), a.revenue, a.status, a.bound, a.delta) for a in r.scenarios)
    assert answers(two) == answers(one)
    assert [a.delta for a in two.scenarios] == sorted((a.delta for a in two.scenarios), reverse=True)


def test_a_station_that_opens_a_larger_paying_set_worth_less_is_priced_without_the_pool() -> None:
    """Stops paying less than nothing: a list train pays its largest set of stops that earns something (FORMAT.md),
    so a station at H0 lets the set {H0, H1, H2} (5 + 8 + 3) count where the board's own station H4 keeps H0 out,
    and the route earns less on the pool board (one station in every placement) than on the board itself. The
    shared token pool priced the unchanged board at 6 where it earns 8; such boards get no pool."""
    b = BoardBuilder()
    hexes = [f"H{i}" for i in range(5)]
    line(b, hexes)
    stops = []
    for i, (kind, revenue) in enumerate([("city", 5), ("town", 8), ("city", 3), ("town", -15), ("city", -5)]):
        h = hexes[i]
        stops.append(b.city(h, revenue, token=i == 4) if kind == "city" else b.town(h, revenue))
        if i:
            b.path(h, 1, stops[-1])
        if i < 4:
            b.path(h, stops[-1], 4)
    b.train("t-0", [{"nodes": ["city"], "pay": 2, "visit": 3}, {"nodes": ["town"], "pay": 3, "visit": 4}], name="2+3")
    board = board_from_snapshot(b.snapshot())
    assert not pool_prices_hold(board)
    direct = solve(board, SolveOptions(time_limit_s=20))
    shared = run_whatif(board, [Scenario(label="H0", tokens=(stops[0],))], WhatIfOptions(share=True))
    alone = run_whatif(board, [Scenario(label="H0", tokens=(stops[0],))], WhatIfOptions(share=False))
    assert shared.base.result.revenue == alone.base.result.revenue == direct.revenue == 8
    assert [s.delta for s in shared.scenarios] == [s.delta for s in alone.scenarios]


def test_scenarios_whose_turn_comes_after_the_cutoff_are_not_solved() -> None:
    """A call's deadline too short for every scenario (the service's `cutoff_s`): the base is answered, and the
    scenarios whose turn comes later say so (an error naming `time_limit_s`) instead of running past it."""
    board = board_from_snapshot(stress_snapshots("1870")[0])
    short = run_whatif(board, [], WhatIfOptions(time_limit_s=0.02, cutoff_s=0.03), tokens=True, trains=["5", "D"])
    cut = [a for a in short.scenarios if a.error_field == "time_limit_s"]
    assert short.base.result is not None and cut and all(a.result is None and a.status == Status.UNKNOWN for a in cut)
    assert all(a.result is not None or a.error_field == "time_limit_s" for a in short.scenarios)
    roomy = run_whatif(board, [], WhatIfOptions(time_limit_s=0.02), tokens=True, trains=["5", "D"])
    assert all(a.result is not None for a in roomy.scenarios)  # without a cutoff every scenario is answered
    assert len(roomy.scenarios) == len(short.scenarios)
