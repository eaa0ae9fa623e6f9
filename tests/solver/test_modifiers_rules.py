"""Each modifier type on small hand-built boards: the evaluator's pricing and run rules, and the
optimiser's exact answer (which the evaluator re-checks inside `solve`)."""

from __future__ import annotations

from typing import Any

import pytest

from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.errors import BoardError
from solver.model.results import ClaimedRoute, SolveOptions
from solver.modifiers.settle import best_last_winners
from solver.optimiser import solve
from tests.support.boards import BoardBuilder, line


class Row:
    """A row of one-city hexes `<prefix>0..n` joined by straight track, inside a builder."""

    def __init__(self, b: BoardBuilder, prefix: str, revenues: list[int], token_at: int | None = 0) -> None:
        self.hexes = [f"{prefix}{i}" for i in range(len(revenues))]
        line(b, self.hexes)
        self.cities: list[str] = []
        self.ins: list[str | None] = []
        self.outs: list[str | None] = []
        for i, (h, rev) in enumerate(zip(self.hexes, revenues)):
            self.cities.append(b.city(h, rev, token=(i == token_at)))
            self.ins.append(b.path(h, 1, self.cities[-1]) if i > 0 else None)
            self.outs.append(b.path(h, self.cities[-1], 4) if i < len(revenues) - 1 else None)

    def claim(self, train: str, first: int, last: int) -> ClaimedRoute:
        """The route from city `first` to city `last` (either direction) along the row."""
        step = 1 if last > first else -1
        idx = list(range(first, last + step, step))
        legs = [[self.outs[min(a, b)], self.ins[max(a, b)]] for a, b in zip(idx, idx[1:])]
        return ClaimedRoute(train=train, nodes=[self.cities[i] for i in idx], legs=legs)  # type: ignore[misc]


def board(b: BoardBuilder, *mods: dict[str, Any]) -> Board:
    snap = b.snapshot()
    snap["modifiers"] = list(mods)
    snap["revenue_model"] = "modifiers"
    return board_from_snapshot(snap)


def stop_bonus(hexes: dict[str, Any], count: str = "once", **more: Any) -> dict[str, Any]:
    return {"type": "StopBonus", "source": "priv", "label": "Bonus", "hexes": hexes, "count": count, **more}


def optimum(bd: Board) -> int:
    res = solve(bd, SolveOptions(time_limit_s=20))
    assert res.status == "OPTIMAL"
    return res.revenue


# ---------------------------------------------------------------- StopBonus


def test_stop_bonus_once_takes_the_first_hit_in_route_order() -> None:
    b = BoardBuilder()
    row = Row(b, "H", [10, 20, 30])
    b.train("3-0", 3)
    bd = board(b, stop_bonus({"H1": 30, "H2": 50}))
    ahead = evaluate(bd, [row.claim("3-0", 0, 2)])
    assert ahead.legal and ahead.revenue == 60 + 30
    assert [line.as_dict() for line in ahead.routes[0].bonuses] == [{"label": "Bonus", "amount": 30, "source": "priv"}]
    assert ahead.routes[0].as_dict()["bonuses"][0]["amount"] == 30
    back = evaluate(bd, [row.claim("3-0", 2, 0)])
    assert back.revenue == 60 + 50
    res = solve(bd, SolveOptions())
    assert res.revenue == 110 and res.routes[0].nodes[0] == row.cities[2]  # the optimiser runs it backwards


@pytest.mark.parametrize("target", ["revenue", "subsidy"])
def test_a_stop_that_pays_once_keeps_its_bonus_on_every_route(target: str) -> None:
    """StopPaysOnce zeroes a stop's own revenue on a later route, never a bonus on it (FORMAT.md: "modifier
    bonuses are unaffected"): a `stop_revenue` bonus is its own revenue on each route. H0-H1 then H1-H2."""
    b = BoardBuilder()
    row = Row(b, "H", [10, 20, 30], token_at=1)
    b.train("2-0", 2)
    b.train("2-1", 2)
    once = {"type": "StopPaysOnce", "source": "p", "label": "Pays once", "groups": False}
    bd = board(b, stop_bonus({"H1": "stop_revenue"}, target=target), once)
    run = evaluate(bd, [row.claim("2-0", 0, 1), row.claim("2-1", 1, 2)])
    assert run.legal
    assert [r.stop_revenues for r in run.routes] == [[10, 20], [0, 30]]
    if target == "revenue":
        assert [sum(x.amount for x in r.bonuses) for r in run.routes] == [20, 20]
        assert (run.revenue, run.subsidy) == (100, 0)
    else:
        assert [r.subsidy for r in run.routes] == [20, 20]
        assert (run.revenue, run.subsidy) == (60, 40)
    res = solve(bd, SolveOptions(time_limit_s=20))  # the optimiser prices the run alike (`recheck` inside)
    assert res.status == "OPTIMAL" and res.revenue + res.subsidy == 100


def test_a_stop_that_pays_once_and_less_than_nothing_is_refused() -> None:
    """With a stop paying less than nothing, what a route adds to a run may exceed what it earns alone (another
    route paid that stop first), which every bound of the StopPaysOnce search assumes it never does: the optimiser
    answered below the optimum (a sweep of boards with negative stops) and now refuses the board, naming it."""
    b = BoardBuilder()
    row = Row(b, "H", [10, -20, 30], token_at=0)
    b.train("3-0", 3)
    b.train("2-1", 2)
    once = {"type": "StopPaysOnce", "source": "p", "label": "Pays once", "groups": False}
    bd = board(b, once)
    assert evaluate(bd, [row.claim("3-0", 0, 2)]).revenue == 20  # the evaluator still prices runs
    with pytest.raises(BoardError, match=r"StopPaysOnce: .* pays less than nothing") as err:
        solve(bd, SolveOptions(time_limit_s=20))
    assert err.value.field == "modifiers"


def _two_stop_hex() -> tuple[BoardBuilder, list[str], list[list[str]]]:
    """H0 city (token) - H1 city and town - H2 city, one route through all four stops."""
    b = BoardBuilder()
    line(b, ["H0", "H1", "H2"])
    c0 = b.city("H0", 10, token=True)
    c1, t1 = b.city("H1", 20), b.town("H1", 10)
    c2 = b.city("H2", 30)
    legs = [[b.path("H0", c0, 4), b.path("H1", 1, c1)], [b.path("H1", c1, t1)],
            [b.path("H1", t1, 4), b.path("H2", 1, c2)]]
    b.train("4-0", 4)
    return b, [c0, c1, t1, c2], legs


def test_stop_bonus_per_hex_and_per_stop() -> None:
    b, nodes, legs = _two_stop_hex()
    claim = [ClaimedRoute("4-0", nodes, legs)]
    assert evaluate(board(b, stop_bonus({"H1": 15, "H2": 5}, "per_hex")), claim).revenue == 70 + 15 + 5
    assert evaluate(board(b, stop_bonus({"H1": 15, "H2": 5}, "per_stop")), claim).revenue == 70 + 15 + 15 + 5
    assert evaluate(board(b, stop_bonus({"H1": 15, "H2": 5}, "once")), claim).revenue == 70 + 15
    assert evaluate(board(b, stop_bonus({"H1": "stop_revenue"}, "per_stop")), claim).revenue == 70 + 20 + 10
    assert optimum(board(b, stop_bonus({"H1": 15, "H2": 5}, "per_stop"))) == 105


def test_two_stop_bonuses_each_add_a_line() -> None:
    b, nodes, legs = _two_stop_hex()
    bd = board(b, stop_bonus({"H1": 15}), {**stop_bonus({"H2": 7}), "label": "Port", "source": "port"})
    ev = evaluate(bd, [ClaimedRoute("4-0", nodes, legs)])
    assert [(x.label, x.amount) for x in ev.routes[0].bonuses] == [("Bonus", 15), ("Port", 7)]
    assert ev.routes[0].revenue == 70 + 22 == ev.revenue


def test_endpoint_stop_revenue_pays_the_end_stop_twice() -> None:
    b = BoardBuilder()
    row = Row(b, "H", [10, 40, 30, 20])
    b.train("2-0", 2)
    b.train("4-0", 4)
    bd = board(b, stop_bonus({"H2": "stop_revenue"}, endpoint=True))
    assert evaluate(bd, [row.claim("4-0", 0, 3)]).revenue == 100  # H2 in the middle: no bonus
    assert evaluate(bd, [row.claim("4-0", 0, 2)]).revenue == 80 + 30
    assert evaluate(bd, [row.claim("2-0", 1, 2)]).legal is False  # no token on that route
    assert optimum(bd) == 110  # 4-train H0-H2 with the bonus beats H0-H3 (100); the 2-train has no token left


def test_bonus_stop_displaces_a_higher_paying_stop_for_a_list_train() -> None:
    """A 2/3 train (visits 3, 2 pay) on H0 (token, 10) - H1 (50) - H2 (20, bonus 40): the paying pair
    holds the token; H0+H1 = 60 but H0+H2 = 30 + 40 = 70, so H2 pays instead of H1."""
    b = BoardBuilder()
    row = Row(b, "H", [10, 50, 20])
    b.train("2/3-0", [{"nodes": ["city", "offboard"], "pay": 2, "visit": 3}], name="2/3")
    bd = board(b, stop_bonus({"H2": 40}))
    ev = evaluate(bd, [row.claim("2/3-0", 0, 2)])
    assert ev.legal and ev.revenue == 70
    assert ev.routes[0].stop_revenues == [10, 0, 20]
    assert optimum(bd) == 70
    plain = evaluate(board(b), [row.claim("2/3-0", 0, 2)])
    assert plain.revenue == 60 and plain.routes[0].stop_revenues == [10, 50, 0]


def test_plus_train_counts_every_town_for_a_bonus() -> None:
    """A 2+ train (2 cities pay, towns free): a per-stop bonus on the towns' hex counts each town."""
    b, nodes, legs = _two_stop_hex()
    b.trains = []
    b.train("2+-0", [{"nodes": ["city", "offboard"], "pay": 2, "visit": 2}, {"nodes": ["town"], "pay": 99,
                                                                              "visit": 99}], name="2+")
    bd = board(b, stop_bonus({"H1": 5}, "per_stop"))
    ev = evaluate(bd, [ClaimedRoute("2+-0", [nodes[0], nodes[1], nodes[2]], legs[:2])])
    assert ev.legal and ev.revenue == 40 + 10


# ---------------------------------------------------------------- ComboBonus


def test_combo_bonus_sum_and_fixed_amount() -> None:
    b = BoardBuilder()
    row = Row(b, "H", [10, 20, 30, 40])
    b.train("4-0", 4)
    b.train("2-0", 2)
    combo = {"type": "ComboBonus", "source": "east_west", "label": "E/W", "sets": [{"H0": 20, "H1": 5}, {"H3": 50}]}
    full = [row.claim("4-0", 0, 3)]
    assert evaluate(board(b, {**combo, "amount": "sum"}), full).revenue == 100 + 20 + 50
    assert evaluate(board(b, {**combo, "amount": 100}), full).revenue == 200
    assert evaluate(board(b, {**combo, "amount": 100}), [row.claim("4-0", 0, 2)]).revenue == 60  # no east end
    # the first stop in route order matches a set: walked from H3, H1 (5) comes before H0 (20)
    sets_rev = {**combo, "amount": "sum", "sets": [{"H0": 20, "H1": 5}, {"H2": 1}]}
    assert evaluate(board(b, sets_rev), [row.claim("4-0", 3, 0)]).revenue == 100 + 5 + 1
    assert evaluate(board(b, sets_rev), [row.claim("4-0", 0, 3)]).revenue == 100 + 20 + 1
    assert optimum(board(b, {**combo, "amount": "sum"})) == 170


# ---------------------------------------------------------------- BestRouteBonus


def _two_rows(mods: list[dict[str, Any]]) -> tuple[Board, Row, Row]:
    b = BoardBuilder()
    x = Row(b, "X", [10, 10, 10])
    y = Row(b, "Y", [30, 30])
    b.train("3-0", 3)
    b.train("3-1", 3)
    return board(b, *mods), x, y


def test_best_route_bonus_most_visited_stops() -> None:
    mail = {"type": "BestRouteBonus", "source": "MAIL", "label": "Mail", "per_visited_stop": 10,
            "award": "most_visited_stops"}
    bd, x, y = _two_rows([mail])
    ev = evaluate(bd, [y.claim("3-0", 0, 1), x.claim("3-1", 0, 2)])
    assert ev.revenue == 60 + 30 + 30
    assert ev.routes[1].bonuses[0].amount == 30 and not ev.routes[0].bonuses
    tie = evaluate(bd, [y.claim("3-1", 0, 1), x.claim("3-0", 0, 1)])  # 2 stops each: the greater train id
    assert tie.routes[0].train == "3-1" and tie.routes[0].bonuses[0].amount == 20 and tie.revenue == 60 + 20 + 20
    assert optimum(bd) == 120


def test_best_route_bonus_last_with_required_hexes() -> None:
    pan = {"type": "BestRouteBonus", "source": "pan", "label": "Pan", "amount": 40, "requires_hexes": ["Y0", "Y1"],
           "award": "last"}
    lee = {"type": "BestRouteBonus", "source": "lee", "label": "Lee", "amount": 20, "requires_hexes": ["X2"],
           "award": "last"}
    bd, x, y = _two_rows([pan, lee])
    ev = evaluate(bd, [y.claim("3-0", 0, 1), x.claim("3-1", 0, 1)])
    assert ev.revenue == 60 + 20 + 40  # X0-X1 does not reach X2
    ev = evaluate(bd, [x.claim("3-1", 0, 2), y.claim("3-0", 1, 0)])
    assert [b.label for b in ev.routes[0].bonuses] == ["Lee"] and ev.revenue == 90 + 60
    assert optimum(bd) == 150


def _two_varying_last_awards() -> list[dict[str, Any]]:
    per_stop = {"type": "BestRouteBonus", "source": "a", "label": "Stops", "per_visited_stop": 10, "award": "last"}
    colours = {"type": "BestRouteBonus", "source": "b", "label": "Colours", "per_distinct": 25, "award": "last",
               "distinct_hex_values": {"Y0": "red", "Y1": "blue", "X0": "green"}}
    return [per_stop, colours]


def test_two_last_awards_go_to_one_route_when_both_routes_qualify_for_both() -> None:
    """X0-X2 earns Stops 30 and Colours 25, Y0-Y1 earns 20 and 50. Whichever runs last takes both awards,
    so the best run order puts Y last (90 + 70), never 30 + 50: the old optimiser claimed 170 and the
    evaluator found 145 for its order."""
    bd, x, y = _two_rows(_two_varying_last_awards())
    y_last = evaluate(bd, [x.claim("3-0", 0, 2), y.claim("3-1", 0, 1)])
    assert y_last.revenue == 90 + 20 + 50 and not y_last.routes[0].bonuses
    x_last = evaluate(bd, [y.claim("3-1", 0, 1), x.claim("3-0", 0, 2)])
    assert x_last.revenue == 90 + 30 + 25
    res = solve(bd, SolveOptions(time_limit_s=20))
    assert res.status == "OPTIMAL" and res.revenue == res.bound == 160
    assert [b.label for b in res.routes[-1].bonuses] == ["Stops", "Colours"]


def test_a_route_that_misses_one_award_lets_the_awards_split() -> None:
    """Without X0 the X route earns no Colours, so Stops may go to it and Colours to Y in either order."""
    bd, x, y = _two_rows(_two_varying_last_awards())
    split = evaluate(bd, [y.claim("3-1", 0, 1), x.claim("3-0", 1, 2)])
    assert split.revenue == 80 + 20 + 50  # X1-X2 is last for Stops (20 = Y's 20): Y keeps Colours
    assert optimum(bd) == 160


def test_the_best_run_splits_two_last_awards_over_routes_that_do_not_both_qualify_for_both() -> None:
    """With a third row Z0-Z1 (35, no Colours), Y and Z earn 95 + Stops 20 + Colours 50 = 165, which beats
    X and Y (90 + 70). A model that let X take Stops 30 and Y Colours 50 would pick X and Y for 170, which no
    run order pays."""
    b = BoardBuilder()
    x, y, z = Row(b, "X", [10, 10, 10]), Row(b, "Y", [30, 30]), Row(b, "Z", [20, 15])
    b.train("3-0", 3)
    b.train("3-1", 3)
    bd = board(b, *_two_varying_last_awards())
    assert evaluate(bd, [z.claim("3-0", 0, 1), y.claim("3-1", 0, 1)]).revenue == 165
    assert evaluate(bd, [x.claim("3-0", 0, 2), y.claim("3-1", 0, 1)]).revenue == 160
    res = solve(bd, SolveOptions(time_limit_s=20))
    assert res.status == "OPTIMAL" and res.revenue == res.bound == 165
    assert {r.nodes[0] for r in res.routes} | {r.nodes[-1] for r in res.routes} == {*y.cities, *z.cities}


def test_three_last_awards_whose_bonus_varies_are_refused_by_the_optimiser() -> None:
    third = {"type": "BestRouteBonus", "source": "c", "label": "More", "per_visited_stop": 5, "award": "last"}
    bd, _, _ = _two_rows([*_two_varying_last_awards(), third])
    with pytest.raises(BoardError, match="at most 2 BestRouteBonus"):
        solve(bd, SolveOptions(time_limit_s=20))


def test_best_last_winners_reads_the_run_order_precedence() -> None:
    """Two awards cannot split over two routes that qualify for both; three awards whose winners each
    follow another winner (a cycle, every pair fine) are unreachable too."""
    assert best_last_winners([[30, 20], [25, 50]]) == (70, [1, 1])
    assert best_last_winners([[30, 20], [0, 50]]) == (80, [0, 1])  # route 0 misses award 1: 0 then 1
    cyclic = [[9, 1, 0], [0, 9, 1], [1, 0, 9]]  # winner k would follow route k - 1
    assert best_last_winners(cyclic)[0] == 9 + 9 + 1  # two 9s, the third award to a route already won
    assert best_last_winners([[0, 0], [40, 0]]) == (40, [None, 0])


# ---------------------------------------------------------------- an award in the choice of paying stops

TOLL = {"type": "StopBonus", "source": "toll", "label": "Toll", "hexes": {"X0": -10, "X1": -20}, "count": "per_hex",
        "scope": "path_hexes"}


def _mail(award: str) -> dict[str, Any]:
    return {"type": "BestRouteBonus", "source": "mail", "label": "Mail", "per_visited_stop": 20, "award": award}


@pytest.mark.parametrize("award", ["last", "first_max", "most_visited_stops"])
def test_an_award_counts_in_a_list_trains_choice_of_paying_stops(award: str) -> None:
    """FORMAT.md: a list train pays the largest size of stops whose best value, an awarded BestRouteBonus
    included, is positive. X0-X1 pays 30 against a toll of 30: no size pays alone (the route is worth -30),
    but with the Mail award of 40 both stops pay: 30 - 30 + 40."""
    b = BoardBuilder()
    x = Row(b, "X", [20, 10])
    b.train("L-1", [{"nodes": ["city"], "pay": 2, "visit": 2}], name="L")
    bd = board(b, TOLL, _mail(award))
    ev = evaluate(bd, [x.claim("L-1", 0, 1)])
    assert ev.routes[0].stop_revenues == [20, 10] and ev.revenue == 40
    res = solve(bd, SolveOptions(time_limit_s=20))
    assert res.status == "OPTIMAL" and res.revenue == res.bound == 40


def _sleeper_board() -> tuple[Board, Row, Row]:
    """X0-X2 (three 10s) earns 10 + 10 - 40 with its pair bonus if X0 and X2 both pay; Y0-Y1 earns 60."""
    b = BoardBuilder()
    x, y = Row(b, "X", [10, 10, 10]), Row(b, "Y", [30, 30])
    b.train("L-1", [{"nodes": ["city"], "pay": 3, "visit": 3}], name="L")
    b.train("2-0", 2)
    pair = {"type": "ComboBonus", "source": "c", "label": "Pair", "sets": [{"X0": 0}, {"X2": 0}], "amount": -40}
    return board(b, pair, {**_mail("first_max"), "label": "Sleeper"}), x, y


def test_the_largest_bonus_wins_even_where_winning_lowers_its_route() -> None:
    """first_max: X0-X2 has the largest bonus (60) and so takes it, and the award makes all three stops pay:
    30 - 40 + 60 = 50, not the 20 + 60 it earns with two stops. So X0-X1 (bonus 40, tied with Y, which takes
    it) beats X0-X2: 20 + 60 + 40 = 120 against 50 + 60. The optimiser used to answer 140."""
    bd, x, y = _sleeper_board()
    assert evaluate(bd, [x.claim("L-1", 0, 2), y.claim("2-0", 0, 1)]).revenue == 110
    assert evaluate(bd, [y.claim("2-0", 0, 1), x.claim("L-1", 0, 1)]).revenue == 120
    res = solve(bd, SolveOptions(time_limit_s=20))
    assert res.status == "OPTIMAL" and res.revenue == res.bound == 120


def _tied_board(award: str, other: str, *more: dict[str, Any]) -> tuple[Board, Row, Row]:
    """X0-X1 (two 10s) pays one stop alone, its pair bonus of -30 with both; Y0-Y1 earns 60. Both visit two
    stops: Mail ties at 40."""
    b = BoardBuilder()
    x, y = Row(b, "X", [10, 10]), Row(b, "Y", [30, 30])
    b.train("L-1", [{"nodes": ["city"], "pay": 2, "visit": 2}], name="L")
    b.train(other, 2)
    pair = {"type": "ComboBonus", "source": "c", "label": "Pair", "sets": [{"X0": 0}, {"X1": 0}], "amount": -30}
    return board(b, pair, _mail(award), *more), x, y


@pytest.mark.parametrize(("award", "winner_first"), [("first_max", False), ("last", True)])
def test_a_tied_award_goes_where_it_earns_most_in_the_run_order(award: str, winner_first: bool) -> None:
    """On a tie the player's run order picks the winner (first_max: the first, last: the last): Y takes
    Mail (10 + 60 + 40), not X, which winning would make pay both stops (-10 + 40) for 90."""
    bd, x, y = _tied_board(award, "2-0")
    x_wins = [x.claim("L-1", 0, 1), y.claim("2-0", 0, 1)]
    assert evaluate(bd, x_wins if award == "first_max" else x_wins[::-1]).revenue == 90
    res = solve(bd, SolveOptions(time_limit_s=20))
    assert res.status == "OPTIMAL" and res.revenue == res.bound == 110
    assert [r.train for r in res.routes if r.bonuses and r.bonuses[-1].label == "Mail"] == ["2-0"]
    assert res.routes[-1 if winner_first else 0].train == "2-0"


@pytest.mark.parametrize(("other", "best"), [("2-0", 100), ("Z-0", 110)])
def test_a_tie_on_visited_stops_goes_to_the_greatest_train_id(other: str, best: int) -> None:
    """most_visited_stops: X and Y tie on two stops, so the greater train id wins. Against 2-0, L-1 wins
    and X then pays -10 + 40: running Y alone on L-1 is better (60 + 40). Against Z-0, Y wins: 110."""
    bd, _, _ = _tied_board("most_visited_stops", other)
    res = solve(bd, SolveOptions(time_limit_s=20))
    assert res.status == "OPTIMAL" and res.revenue == res.bound == best


AWARDS = ["last", "first_max", "most_visited_stops"]
TWO_CITIES = [{"nodes": ["city"], "pay": 2, "visit": 2}]
PAIR_X = {"type": "ComboBonus", "source": "c", "label": "Pair", "sets": [{"X0": 0}, {"X1": 0}], "amount": -30}


def _solved(bd: Board) -> int:
    res = solve(bd, SolveOptions(time_limit_s=20))
    assert res.status == "OPTIMAL" and res.bound == res.revenue
    return res.revenue


@pytest.mark.parametrize("award", AWARDS)
def test_the_winner_runs_the_way_round_that_earns_most_with_the_award(award: str) -> None:
    """Once-bonuses of -30 at X0 and -20 at X1 (the first hit only): neither way pays without the award, and
    with it X1-X0 earns 40 (20 - 20 + 40) where X0-X1 earns 30. The answer runs it X1-X0 (it claimed 40 and
    ran X0-X1 before)."""
    b = BoardBuilder()
    x = Row(b, "X", [10, 10])
    b.train("L-1", TWO_CITIES, name="L")
    bd = board(b, stop_bonus({"X0": -30, "X1": -20}), _mail(award))
    assert evaluate(bd, [x.claim("L-1", 0, 1)]).revenue == 30
    assert evaluate(bd, [x.claim("L-1", 1, 0)]).revenue == 40
    assert _solved(bd) == 40


@pytest.mark.parametrize(("award", "best"), [("last", 40), ("first_max", 40), ("most_visited_stops", 30)])
def test_two_trains_on_the_same_stops_in_their_own_pools(award: str, best: int) -> None:
    """OverlapRule pools: L-1 and 2-0 both run X0-X1 (10, 10, the pair -30). L-1 pays one stop (10), 2-0 both
    (-10). The award goes to the 2-0's run where the order may give it: 10 - 10 + 40; the answer must move the
    2-0's claim, not L-1's on the same stops. With most_visited_stops the tie goes to L-1 (the greater id),
    which then pays both stops (-10 + 40): one route alone earns as much, 30."""
    b = BoardBuilder()
    Row(b, "X", [10, 10])
    b.train("L-1", TWO_CITIES, name="L")
    b.train("2-0", 2)
    pools = {"type": "OverlapRule", "source": "o", "label": "Pools", "scope": "pools", "pools": [["L"], ["2"]]}
    bd = board(b, PAIR_X, _mail(award), pools)
    assert _solved(bd) == best


def test_a_tie_goes_to_a_class_whose_greatest_id_is_above_the_other_routes_ids() -> None:
    """3/5 trains 4-0 and 4-2 (cities only), a 4 train 4-1. X0-X1 on a 3/5 and Y0-Y1 (a city and a town) on
    the 4 tie on visited stops: the 3/5 route may run as 4-0, so the 4's 4-1 wins, and X earns 10 (it would
    pay -10 + 40 as the winner): 10 + 60 + 40. Ranking classes by their greatest id alone gave 100."""
    b = BoardBuilder()
    x = Row(b, "X", [10, 10])
    line(b, ["Y0", "Y1"])
    y0, y1 = b.city("Y0", 30, token=True), b.town("Y1", 30)
    y_legs = [[b.path("Y0", y0, 4), b.path("Y1", 1, y1)]]
    b.train("4-0", TWO_CITIES, name="3/5")
    b.train("4-1", 2, name="4")
    b.train("4-2", TWO_CITIES, name="3/5")
    bd = board(b, PAIR_X, _mail("most_visited_stops"))
    y_run = ClaimedRoute(train="4-1", nodes=[y0, y1], legs=y_legs)
    assert evaluate(bd, [x.claim("4-0", 0, 1), y_run]).revenue == 110
    assert evaluate(bd, [x.claim("4-2", 0, 1), y_run]).revenue == 90
    assert _solved(bd) == 110


@pytest.mark.parametrize("award", AWARDS)
@pytest.mark.parametrize("rule", ["mandatory_first", "min_stops"])
def test_a_route_legal_only_as_the_award_winner_is_a_candidate(award: str, rule: str) -> None:
    """X0-X1 pays -10 with both stops and so counts one stop: CountedStops mandatory_first then finds no
    paying choice, a RouteRule asking for two counted cities is broken. With the award of 40 both stops
    count: the route is legal and earns 30. It was no candidate (the optimiser answered 0)."""
    b = BoardBuilder()
    x = Row(b, "X", [10, 10])
    b.train("L-1", [{"nodes": ["city"], "pay": 3 if rule == "mandatory_first" else 2, "visit": 3}], name="L")
    extra = {"type": "CountedStops", "source": "cs", "label": "Mandatory", "method": "mandatory_first"} \
        if rule == "mandatory_first" else \
        {"type": "RouteRule", "source": "r", "label": "Two cities", "rule": "min_stops", "kinds": ["city"],
         "count": 2, "scope": "counted", "error": "two cities"}
    assert not evaluate(board(b, PAIR_X, extra), [x.claim("L-1", 0, 1)]).legal
    bd = board(b, PAIR_X, _mail(award), extra)
    ev = evaluate(bd, [x.claim("L-1", 0, 1)])
    assert ev.legal and ev.revenue == 30
    assert _solved(bd) == 30


def test_a_board_with_award_changes_and_two_awards_is_refused() -> None:
    bd, _, _ = _tied_board("first_max", "2-0", {**_mail("last"), "label": "Express", "source": "express"})
    with pytest.raises(BoardError, match="one BestRouteBonus"):
        solve(bd, SolveOptions(time_limit_s=20))


# ---------------------------------------------------------------- RequiredRoute and DropLowestRoute


REQUIRED = {"type": "RequiredRoute", "source": "connection_run", "label": "Connection run",
            "endpoint_hexes": ["X0", "X1"], "error": "At least one train has to run from home to destination"}


def _three_rows(mods: list[dict[str, Any]]) -> tuple[Board, Row, Row, Row]:
    b = BoardBuilder()
    x = Row(b, "X", [10, 10])
    y = Row(b, "Y", [50, 50])
    z = Row(b, "Z", [40, 40])
    for i in range(3):
        b.train(f"2-{i}", 2)
    return board(b, *mods), x, y, z


def test_required_route_is_a_hard_finding_and_a_side_constraint() -> None:
    b = BoardBuilder()
    x = Row(b, "X", [10, 10])
    y = Row(b, "Y", [50, 50])
    b.train("2-0", 2)
    bd = board(b, REQUIRED)
    ev = evaluate(bd, [y.claim("2-0", 0, 1)])
    assert not ev.legal
    assert [(f.code, f.hard) for f in ev.findings] == [("REQUIRED_ROUTE_MISSING", True)]
    assert REQUIRED["error"] in ev.findings[0].message
    assert evaluate(bd, [x.claim("2-0", 1, 0)]).legal
    assert evaluate(bd, []).legal  # no route at all needs no connection run
    assert optimum(bd) == 20  # the one train must make the connection run
    assert optimum(board(b)) == 100


def test_drop_lowest_route() -> None:
    drop = {"type": "DropLowestRoute", "source": "civil_war", "label": "Civil War", "min_routes": 2}
    bd, x, y, z = _three_rows([drop])
    ev = evaluate(bd, [y.claim("2-0", 0, 1), z.claim("2-1", 0, 1)])
    assert ev.legal and ev.revenue == 100
    assert [(line.amount, line.source) for line in ev.run_lines] == [(-80, "civil_war")]
    assert "Civil War" in ev.run_lines[0].label and "route 2 (train 2-1)" in ev.run_lines[0].label
    assert [r.revenue for r in ev.routes] == [100, 80]  # the routes keep their own revenue
    assert evaluate(bd, [y.claim("2-0", 0, 1)]).revenue == 100
    # three trains: all three routes with the lowest (X, 20) dropped beat any single route; this is
    # why "the best run of at most min_routes - 1 routes" is not the optimiser's model
    assert optimum(bd) == 100 + 80 + 20 - 20
    two_trains = BoardBuilder()
    Row(two_trains, "Y", [50, 50])
    Row(two_trains, "Z", [40, 40])
    two_trains.train("2-0", 2)
    two_trains.train("2-1", 2)
    assert optimum(board(two_trains, drop)) == 100
    assert optimum(board(two_trains, {**drop, "min_routes": 1})) == 100  # 100 + 80, the 80 dropped
    two_trains.trains.pop()
    assert optimum(board(two_trains, {**drop, "min_routes": 1})) == 0  # one train: its route is always dropped


@pytest.mark.parametrize("sacrifice", [0, -10])
def test_a_route_worth_nothing_or_less_may_be_the_dropped_one(sacrifice: int) -> None:
    """With the lowest route dropped from one route on, H1-H0 (80) alone earns nothing; beside it H1-H2, worth
    `sacrifice` after a StopBonus, is the route dropped: 80. The optimiser kept no route worth nothing or less."""
    drop = {"type": "DropLowestRoute", "source": "d", "label": "Drop", "min_routes": 1}
    b = BoardBuilder()
    row = Row(b, "H", [30, 50, 10], token_at=1)
    b.train("2-0", 2)
    b.train("2-1", 2)
    bd = board(b, drop, stop_bonus({"H2": sacrifice - 60}))
    ev = evaluate(bd, [row.claim("2-0", 1, 0), row.claim("2-1", 1, 2)])
    assert ev.legal and [r.revenue for r in ev.routes] == [80, sacrifice] and ev.revenue == 80
    assert evaluate(bd, [row.claim("2-0", 1, 0)]).revenue == 0
    assert optimum(bd) == 80


@pytest.mark.parametrize("penalty", [-80, -70])
def test_a_dropped_route_keeps_its_subsidy(penalty: int) -> None:
    """H1-H0 (80) beside H1-H2 (60 + `penalty`, subsidy 15): the lower one is dropped, its subsidy stays: 80 + 15.
    Priced by its value alone (-5 with -80), the second route looked worthless beside a known 80."""
    drop = {"type": "DropLowestRoute", "source": "d", "label": "Drop", "min_routes": 2}
    b = BoardBuilder()
    row = Row(b, "H", [30, 50, 10], token_at=1)
    b.train("2-0", 2)
    b.train("2-1", 2)
    bd = board(b, drop, stop_bonus({"H2": penalty}), stop_bonus({"H2": 15}, target="subsidy"))
    ev = evaluate(bd, [row.claim("2-0", 1, 0), row.claim("2-1", 1, 2)])
    assert ev.legal and (ev.revenue, ev.subsidy) == (80, 15)
    res = solve(bd, SolveOptions(time_limit_s=20))
    assert res.status == "OPTIMAL" and (res.revenue, res.subsidy, res.bound) == (80, 15, 95)


def test_drop_lowest_with_a_required_route_that_is_the_lowest() -> None:
    """Three routes with the required one dropped (100 + 80 + 20 - 20 = 180) beat the best run of two
    routes that holds the required one (20 + 100 = 120)."""
    drop = {"type": "DropLowestRoute", "source": "civil_war", "label": "Civil War", "min_routes": 3}
    bd, x, y, z = _three_rows([drop, REQUIRED])
    ev = evaluate(bd, [x.claim("2-0", 0, 1), y.claim("2-1", 0, 1), z.claim("2-2", 0, 1)])
    assert ev.legal and ev.revenue == 180
    assert not evaluate(bd, [y.claim("2-1", 0, 1), z.claim("2-2", 0, 1)]).legal
    assert optimum(bd) == 180


def test_mandatory_first_picks_the_stops_that_put_a_bonus_stop_at_an_end() -> None:
    """CountedStops mandatory_first with an endpoint StopBonus on the city M: of the towns (30 first, then 10, 10)
    the two after M make it the first counted stop (10 + 20 + 10 + 100), worth more than the best-paying town."""
    b = BoardBuilder()
    hexes = ["H0", "H1", "H2", "H3"]
    line(b, hexes)
    ids, ins, outs = [], [], []
    for i, (h, (kind, rev)) in enumerate(zip(hexes, [("town", 30), ("city", 20), ("town", 10), ("town", 10)])):
        ids.append(b.city(h, rev, token=True) if kind == "city" else b.town(h, rev))
        ins.append(b.path(h, 1, ids[-1]) if i else None)
        outs.append(b.path(h, ids[-1], 4) if i < 3 else None)
    b.train("3-0", [{"nodes": ["city", "offboard"], "pay": 3, "visit": 3}, {"nodes": ["town"], "pay": 3, "visit": 3}])
    counted = {"type": "CountedStops", "source": "cs", "label": "Mandatory first", "method": "mandatory_first"}
    bd = board(b, counted, stop_bonus({"H1": 100}, endpoint=True))
    ev = evaluate(bd, [ClaimedRoute(train="3-0", nodes=ids, legs=[[outs[i], ins[i + 1]] for i in range(3)])])
    assert ev.legal and ev.routes[0].stop_revenues == [0, 20, 10, 10] and ev.revenue == 140
    assert optimum(bd) == 150  # the town 30 and M alone: M is an end there too (30 + 20 + 100)


@pytest.mark.parametrize("toll", [-30, -40])
def test_mandatory_first_counts_exactly_pay_mandatory_stops_whatever_they_earn(toll: int) -> None:
    """CountedStops mandatory_first: with exactly `pay` mandatory stops the engine counts them as they are
    (1867 `compute_stops` checks the value of a choice of optional stops only), so X0-X1, two cities for a
    train paying two, is legal at 10 + 20 + toll, even at nothing or less; with three paying places the
    same route must fill one with an optional stop, finds none, and is illegal."""
    counted = {"type": "CountedStops", "source": "cs", "label": "Mandatory", "method": "mandatory_first"}
    for pay, legal in ((2, True), (3, False)):
        b = BoardBuilder()
        x = Row(b, "X", [10, 20])
        b.train("L-1", [{"nodes": ["city"], "pay": pay, "visit": 3}, {"nodes": ["town"], "pay": 0, "visit": 9}],
                name="L")
        bd = board(b, counted, {**PAIR_X, "amount": toll})
        ev = evaluate(bd, [x.claim("L-1", 0, 1)])
        assert ev.legal is legal
        if legal:
            assert ev.revenue == 30 + toll and ev.routes[0].stop_revenues == [10, 20]
        assert optimum(bd) == 0  # running nothing earns more than a route worth nothing or less
