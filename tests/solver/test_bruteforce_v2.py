"""Randomized cross-check of modifiers vocabulary v2: the optimiser against `tests.support.bruteforce_modifiers_v2`.

Each seed takes a small random board of `tests.solver.test_bruteforce.make_snapshot` and adds one to three
random v2 modifiers (seed i % 10 always includes V2_KINDS[i % 10]) and sometimes list trains (2+,
3+, 2/3, a 3E with row multipliers) or `hexes` trains. The optimiser must find the brute force's
optimum (revenue + subsidy), prove it, and its routes must pass the evaluator at that value. The
mutation tests drop one run rule from the optimiser and require the cross-check to notice.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.errors import BoardError, EvaluatorDisagreement
from solver.model.results import SolveOptions
from solver.modifiers import packing_terms
from solver.optimiser import solve
from solver.rulesets.r_standard import solve as standard_solve
from tests.solver.test_bruteforce import NESTED_TRAINS, as_list_trains, make_snapshot
from tests.support.bruteforce import describe
from tests.support.bruteforce_modifiers_v2 import V2Result, brute_force_v2, judge_v2
from tests.support.crosscheck import CrossCheck, answer_problems, assert_batch, claims_of, solve_or_report

V2_SEEDS = 600
# seeds that once caught a bug (of the solver, or of the brute force: 401995), kept as named regressions
REGRESSIONS = {
    1306: "DropLowestRoute with a subsidy StopBonus: the drop takes the lowest route's revenue, never its subsidy",
    1006: "DropLowestRoute with a subsidy StopBonus: which route is lowest is read on revenue alone",
    90: "a path-hex StopBonus counted once depends on the route's direction",
    50780: "StopPaysOnce with a stop_revenue subsidy StopBonus: the evaluator zeroed the bonus of a stop counted "
           "before with its revenue (found by a sweep of new seeds)",
    62912: "CountedStops mandatory_first with an endpoint StopBonus: the hits were read with the mandatory stops "
           "first, not in route order (same sweep)",
    63220: "a path-hex StopBonus counted once on a route from one city of a hex to the other: the reversed route's "
           "first hits were taken as the forward ones reversed (same sweep)",
    64762: "a StopBonus on visited stops worth stop_revenue: a visited stop that does not count still has its own "
           "revenue for the train (same sweep)",
    70393: "DropLowestRoute: a route worth nothing may be the dropped one, and was never a candidate (same sweep)",
    412278: "OverlapRule route with StopPaysOnce: a second train may run the same route for its bonuses alone, and "
            "no copy of the route was a candidate (a later sweep)",
    414041: "the same, with a ComboBonus (a later sweep)",
    73971: "a list train's paying stops count an awarded BestRouteBonus (FORMAT.md): with a negative ComboBonus the "
           "largest size, worth nothing alone, pays with the award, and the winner earns less",
    301434: "the same with a RouteRule and exclusive ComboBonuses",
    418910: "the same with a -stop_revenue StopBonus and a RequiredRoute",
    807384: "the same, found again by a sweep",
    807534: "the same where no size pays without the award and a path-hex StopBonus makes the route worth less than "
            "nothing: winning raises its price",
    401995: "CountedStops mandatory_first with exactly P.pay mandatory stops worth nothing: the engine counts them as "
            "they are (its value check is for a choice of optional stops); the brute force called the route illegal",
}
BATCH = 20
SEARCH_LIMIT = 20_000  # route sets the brute force may try on one board
V2_KINDS = ("StopBonus", "ComboBonus", "CountedStops", "RouteRule", "BestRouteBonus", "RequiredRoute",
            "DropLowestRoute", "RouteSetRule", "OverlapRule", "StopPaysOnce")
TOWNS_FREE = {"nodes": ["town"], "pay": 99, "visit": 99}
LIST_TRAINS = {"2/3": [{"nodes": ["city", "offboard"], "pay": 2, "visit": 3}],
               "2+": [{"nodes": ["city", "offboard"], "pay": 2, "visit": 2}, TOWNS_FREE],
               "3+": [{"nodes": ["city", "offboard"], "pay": 3, "visit": 3}, TOWNS_FREE],
               "3E": [{"nodes": ["city", "offboard"], "pay": 3, "visit": 3, "multiplier": 2},
                      {"nodes": ["town"], "pay": 99, "visit": 99, "multiplier": 0}]}
MANDATORY_FIRST_OK = ("2+", "3+", "3E")  # P.visit == P.pay: the length check caps the mandatory stops
ONE_EACH = ("CountedStops", "BestRouteBonus", "OverlapRule", "StopPaysOnce")
NEG = (-10, -20)


def _trains_field(rng: random.Random, names: list[str]) -> dict[str, Any]:
    if rng.random() < 0.3:
        picked = rng.sample(names, rng.randint(1, len(names)))
        if rng.random() < 0.3:
            picked.append("9Z")  # a train the company does not own
        return {"trains": sorted(set(picked))}
    return {}


def _stop_bonus(rng: random.Random, snap: dict, hexes: list[str], all_hexes: list[str], names: list[str]) -> dict:
    out: dict[str, Any] = {"type": "StopBonus", "source": "s", "label": "Stop",
                           "count": rng.choice(("once", "per_hex", "per_stop"))}
    roll = rng.random()
    if roll < 0.25:  # every hex of the path, integer values keyed by hex
        out["scope"] = "path_hexes"
        out["hexes"] = {h: rng.choice((10, 20, 30) + NEG) for h in rng.sample(all_hexes, min(3, len(all_hexes)))}
    else:
        def val() -> int | str:
            r = rng.random()
            return "stop_revenue" if r < 0.2 else "-stop_revenue" if r < 0.35 else rng.choice((10, 20, 30, 50) + NEG)

        if rng.random() < 0.3:
            nodes = [n["id"] for h in snap["hexes"] for n in h["nodes"]]
            out["nodes"] = {n: val() for n in rng.sample(nodes, min(len(nodes), rng.randint(1, 3)))}
        else:
            out["hexes"] = {h: val() for h in rng.sample(hexes, min(len(hexes), rng.randint(1, 3)))}
        out["endpoint"] = rng.random() < 0.25
        if rng.random() < 0.25:
            out["target"] = "subsidy"
        elif rng.random() < 0.4:
            out["scope"] = rng.choice(("visited", "counted"))
    return out | _trains_field(rng, names)


def _combo(rng: random.Random, hexes: list[str], names: list[str], exclusive: str | None = None) -> dict:
    a, b = rng.sample(hexes, 2) if len(hexes) >= 2 else (hexes[0], hexes[0])
    sets = [{a: rng.choice((0, 10, 20))}, {b: rng.choice((0, 30, 40))}]
    if rng.random() < 0.5:
        sets[0][rng.choice(hexes)] = rng.choice((5, 25))
    out: dict[str, Any] = {"type": "ComboBonus", "source": "ew", "label": "E/W", "sets": sets,
                           "amount": "sum" if rng.random() < 0.5 else rng.choice((50, 100, -30))}
    if rng.random() < 0.4:
        out["scope"] = "visited"
    if exclusive:
        out["exclusive"] = exclusive
        return out
    return out | _trains_field(rng, names)


def _route_rule(rng: random.Random, snap: dict, hexes: list[str], names: list[str]) -> dict:
    rule = rng.choice(("min_stops", "max_stops", "no_hex_revisit", "forbidden_hexes"))
    out: dict[str, Any] = {"type": "RouteRule", "source": "r", "label": "Rule", "rule": rule, "error": "no"}
    some = rng.sample(hexes, min(len(hexes), rng.randint(1, 2)))
    if rule in ("min_stops", "max_stops"):
        out["scope"] = rng.choice(("counted", "visited", "endpoints", "candidates"))
        out["count"] = rng.randint(1, 2) if rule == "min_stops" else rng.randint(0, 1)
        if rng.random() < 0.5:
            out["kinds"] = rng.sample(["city", "town", "offboard"], rng.randint(1, 2))
        if rng.random() < 0.5 or "kinds" not in out:
            out["hexes"] = some
        if rng.random() < 0.2:
            nodes = [n["id"] for h in snap["hexes"] for n in h["nodes"]]
            out["exclude_nodes"] = rng.sample(nodes, 1)
    elif rule == "no_hex_revisit":
        out["scope"] = rng.choice(("visited", "counted", "candidates"))
        doubles = [h["id"] for h in snap["hexes"] if len(h["nodes"]) >= 2]
        if doubles and rng.random() < 0.5:
            out["hexes"] = rng.sample(doubles, 1)
    else:
        out["scope"] = rng.choice(("visited", "path_hexes", "counted", "candidates"))
        if out["scope"] == "path_hexes":
            out["hexes"] = rng.sample([h["id"] for h in snap["hexes"]], 1)
        else:
            out["hexes"] = some[:1]
    return out | _trains_field(rng, names)


def _best_route(rng: random.Random, hexes: list[str], names: list[str]) -> dict:
    out: dict[str, Any] = {"type": "BestRouteBonus", "source": "b", "label": "Best",
                           "award": rng.choice(("most_visited_stops", "last", "first_max", "first_max"))}
    roll = rng.random()
    if roll < 0.4:
        out["per_visited_stop"] = rng.choice((10, 20))
        if rng.random() < 0.5:
            out["stop_kinds"] = rng.sample(["city", "town", "offboard"], rng.randint(1, 2))
    elif roll < 0.7 and out["award"] != "most_visited_stops":
        out["per_distinct"] = rng.choice((10, 20))
        values = ["#A", "#B", "#C"]
        out["distinct_hex_values"] = {h: rng.choice(values) for h in rng.sample(hexes, min(len(hexes), 4))}
    else:
        out["amount"] = rng.choice((20, 40, 60))
    if rng.random() < 0.4:
        out["requires_hexes"] = rng.sample(hexes, min(len(hexes), rng.randint(1, 2)))
    return out | _trains_field(rng, names)


def _random_modifier(rng: random.Random, kind: str, snap: dict, names: list[str]) -> list[dict]:
    hexes = [h["id"] for h in snap["hexes"] if h["nodes"]]
    all_hexes = [h["id"] for h in snap["hexes"]]
    if kind == "StopBonus":
        return [_stop_bonus(rng, snap, hexes, all_hexes, names)]
    if kind == "ComboBonus":
        if rng.random() < 0.4:  # an exclusive pair: only the first that matches applies
            return [_combo(rng, hexes, names, "ew"), _combo(rng, hexes, names, "ew")]
        return [_combo(rng, hexes, names)]
    if kind == "CountedStops":
        return [{"type": "CountedStops", "source": "c", "label": "Mandatory", "method": "mandatory_first"}
                | _trains_field(rng, names)]
    if kind == "RouteRule":
        return [_route_rule(rng, snap, hexes, names)]
    if kind == "BestRouteBonus":
        return [_best_route(rng, hexes, names)]
    if kind == "RequiredRoute":
        return [{"type": "RequiredRoute", "source": "r", "label": "Run",
                 "endpoint_hexes": rng.sample(hexes, min(len(hexes), rng.randint(2, 3))), "error": "required"}]
    if kind == "DropLowestRoute":
        return [{"type": "DropLowestRoute", "source": "d", "label": "Drop", "min_routes": rng.randint(1, 3)}]
    if kind == "RouteSetRule":
        return [{"type": "RouteSetRule", "source": "o", "label": "Once", "rule": "max_routes_visiting",
                 "hexes": rng.sample(hexes, min(len(hexes), rng.randint(1, 2))), "count": rng.randint(0, 1),
                 "error": "too many"} | _trains_field(rng, names)]
    if kind == "OverlapRule":
        scope = rng.choice(("route", "pools", "pools", "run"))
        out: dict[str, Any] = {"type": "OverlapRule", "source": "o", "label": "Track", "scope": scope}
        if scope == "pools":
            shuffled = rng.sample(sorted(set(names)), len(set(names)))
            cut = rng.randint(1, max(1, len(shuffled)))
            out["pools"] = [p for p in (shuffled[:cut], shuffled[cut:] + ["9Z"]) if p]
        return [out]
    return [{"type": "StopPaysOnce", "source": "p", "label": "Pays once", "groups": rng.random() < 0.6}]


def make_snapshot_v2(seed: int) -> dict:
    """A small random board (`make_snapshot`) with v2 modifiers, list or hexes trains; never a combination
    the optimiser refuses (see module docstring of `solver.modifiers.packing_terms`)."""
    snap = make_snapshot(seed)
    rng = random.Random(seed * 104729 + 7)
    kinds = [V2_KINDS[seed % 10]] + [rng.choice(V2_KINDS) for _ in range(rng.randint(0, 2))]
    kinds = [k for i, k in enumerate(kinds) if k not in ONE_EACH or k not in kinds[:i]]
    if "DropLowestRoute" in kinds:  # not with BestRouteBonus or StopPaysOnce (the optimiser refuses them)
        if kinds[0] == "DropLowestRoute":
            kinds = [k for k in kinds if k not in ("BestRouteBonus", "StopPaysOnce")]
        elif "BestRouteBonus" in kinds or "StopPaysOnce" in kinds:
            kinds = [k for k in kinds if k != "DropLowestRoute"]
    once = "StopPaysOnce" in kinds
    if once:  # its optimiser is exact only when every stop of every route pays (no list trains)
        kinds = [k for k in kinds if k != "CountedStops"]
    trains = snap["trains"]
    if once:  # every stop pays the same to every train: plain numeric trains, no by-train values
        for t in trains:
            t["multiplier"] = 1
            if t["name"].endswith("x2"):
                t["name"] = t["name"][:-2]
        for h in snap["hexes"]:
            for n in h["nodes"]:
                n.pop("revenue_by_train", None)
        grouped = [n for h in snap["hexes"] for n in h["nodes"] if n.get("groups")]
        for n in grouped:
            n["revenue"] = grouped[0]["revenue"]
        plain = [n for h in snap["hexes"] for n in h["nodes"] if not n.get("groups") and n["kind"] != "offboard"]
        if not grouped and len(plain) >= 3 and rng.random() < 0.6:  # two stops sharing a group, paying alike
            a, b = rng.sample(plain, 2)
            a["groups"] = b["groups"] = ["S"]
            b["revenue"] = a["revenue"]
    for t in trains:
        roll = rng.random()
        if t["distance"] == 999 or t["multiplier"] != 1:
            continue
        if roll < 0.3 and not once:
            choices = MANDATORY_FIRST_OK if "CountedStops" in kinds else sorted(LIST_TRAINS)
            t["name"] = rng.choice(choices)
            t["distance"], t["distance_unit"] = LIST_TRAINS[t["name"]], "stops_by_type"
        elif roll < 0.5:
            t["distance"], t["distance_unit"] = rng.randint(1, 4), "hexes"
            t["name"] = f"H{t['distance']}"
    if "CountedStops" in kinds and not any(t["distance_unit"] == "stops_by_type" for t in trains):
        t = trains[0]
        t["name"], t["multiplier"] = rng.choice(MANDATORY_FIRST_OK), 1
        t["distance"], t["distance_unit"] = LIST_TRAINS[t["name"]], "stops_by_type"
    names = [t["name"] for t in trains]
    if any(t["name"] == "3E" for t in trains):  # the row multipliers, applied in revenue_by_train (FORMAT)
        for h in snap["hexes"]:
            for n in h["nodes"]:
                n.setdefault("revenue_by_train", {})["3E"] = 0 if n["kind"] == "town" else 2 * n["revenue"]
    mods: list[dict] = []
    for k in kinds:
        mods += _random_modifier(rng, k, snap, names)
    snap["modifiers"] = mods
    snap["revenue_model"] = "modifiers"
    return snap


def _brute(board: Any, snap: dict) -> V2Result:
    return brute_force_v2(board, snap["modifiers"])


V2_CHECK = CrossCheck(make_snapshot_v2, _brute)


def make_snapshot_v2_nested(seed: int) -> dict:
    """A board of `make_snapshot_v2` whose numeric and list trains are, each with odds of 4 in 5, one of
    `test_bruteforce.NESTED_TRAINS` (towns in two rows), unless a CountedStops or a StopPaysOnce is in force
    (neither is defined for such trains)."""
    snap = make_snapshot_v2(seed)
    if any(m["type"] in ("CountedStops", "StopPaysOnce") for m in snap["modifiers"]):
        return snap
    as_list_trains(snap, random.Random(seed * 7919 + 11), NESTED_TRAINS, 0.8)
    return snap


V2_NESTED_CHECK = CrossCheck(make_snapshot_v2_nested, _brute)
V2_NESTED_SEEDS = 300


def check_seed_v2(seed: int, check: CrossCheck = V2_CHECK) -> str | None:
    case = check.case(seed)
    board, brute = case.board, case.brute
    res, crash = solve_or_report(board, f"seed {seed}", describe)
    if res is None:
        return crash
    problems = answer_problems(board, res, brute.optimum, claims_of(res))
    problems = [p for p in problems if not p.startswith("revenue ")]
    if res.revenue + res.subsidy != brute.optimum:
        problems.insert(0, f"revenue {res.revenue} + subsidy {res.subsidy} != brute force {brute.optimum}")
    own, own_problems = judge_v2(board, case.snapshot["modifiers"],
                                 [(c.train, c.nodes, c.legs) for c in claims_of(res)])
    if own_problems or own != res.revenue + res.subsidy:
        problems.append(f"brute-force rules: value {own}, problems {own_problems}")
    if not problems:
        return None
    solver_routes = "; ".join(f"{r.train}: {' '.join(r.nodes)} = {r.revenue}" for r in res.routes)
    brute_routes = "; ".join(f"{tid}: {' '.join(r.nodes)} = {p.revenue}+{p.subsidy}" for tid, r, p in brute.assignment)
    return (f"seed {seed}: {'; '.join(problems)}\n  modifiers {case.snapshot['modifiers']}\n"
            f"  solver: {solver_routes}\n  brute force: {brute_routes}\n{describe(board)}")


@pytest.mark.parametrize("start", range(0, V2_SEEDS, BATCH), ids=lambda s: f"v2-seeds{s}-{s + BATCH - 1}")
def test_optimiser_matches_brute_force_v2(start: int) -> None:
    assert_batch(check_seed_v2, range(start, start + BATCH))


@pytest.mark.parametrize("start", range(0, V2_NESTED_SEEDS, BATCH), ids=lambda s: f"v2-nested{s}-{s + BATCH - 1}")
def test_optimiser_matches_brute_force_v2_with_towns_in_two_rows(start: int) -> None:
    assert_batch(lambda seed: check_seed_v2(seed, V2_NESTED_CHECK), range(start, start + BATCH))


def test_v2_boards_with_towns_in_two_rows_run_such_trains() -> None:
    """On many of those boards the brute force's optimum runs a nested-row train on a paying route that visits a
    town (the kind both rows take)."""
    towns = 0
    for seed in range(V2_NESTED_SEEDS):
        case = V2_NESTED_CHECK.case(seed)
        nested = {t.id for t in case.board.trains if t.name in NESTED_TRAINS}
        towns += any(tid in nested and p.revenue > 0 and any(case.board.nodes[n].kind == "town" for n in r.nodes)
                     for tid, r, p in case.brute.assignment)
    assert towns >= V2_NESTED_SEEDS // 5, towns


def make_snapshot_v2_negative(seed: int) -> dict:
    """A board of `make_snapshot_v2` where about a quarter of the stops pay less than nothing (snapshots allow
    it; FORMAT.md then takes a list train's largest paying set that earns something), without StopPaysOnce
    (refused with such stops)."""
    snap = make_snapshot_v2(seed)
    snap["modifiers"] = [m for m in snap["modifiers"] if m["type"] != "StopPaysOnce"]
    rng = random.Random(seed * 31 + 5)
    for n in (n for h in snap["hexes"] for n in h["nodes"]):
        if n["kind"] != "junction" and not n.get("groups") and not n.get("revenue_by_train") and rng.random() < 0.25:
            n["revenue"] = -rng.choice((10, 20, 30))
    return snap


V2_NEGATIVE_CHECK = CrossCheck(make_snapshot_v2_negative, _brute)
V2_NEGATIVE_SEEDS = 300


@pytest.mark.parametrize("start", range(0, V2_NEGATIVE_SEEDS, BATCH), ids=lambda s: f"v2-negative{s}-{s + BATCH - 1}")
def test_optimiser_matches_brute_force_v2_with_stops_paying_less_than_nothing(start: int) -> None:
    """The seeds 0-299 include boards the optimiser got wrong before a list train searched smaller paying sets."""
    assert_batch(lambda seed: check_seed_v2(seed, V2_NEGATIVE_CHECK), range(start, start + BATCH))


@pytest.mark.parametrize("seed", sorted(REGRESSIONS))
def test_former_solver_disagreements_v2(seed: int) -> None:
    """Seeds on which the optimiser once disagreed with the brute force (REGRESSIONS says how)."""
    assert check_seed_v2(seed) is None, REGRESSIONS[seed]


def test_generator_v2_is_deterministic() -> None:
    assert make_snapshot_v2(7) == make_snapshot_v2(7)
    assert make_snapshot_v2(7) != make_snapshot_v2(8)


def modifier_tags(m: dict) -> list[str]:
    """The v2 type and the fields of one modifier that the mix must cover."""
    t = m["type"]
    out = [t] + ([f"{t}.trains"] if "trains" in m else [])
    if t == "StopBonus":
        values = list((m.get("nodes") or m["hexes"]).values())
        out += ["StopBonus.nodes"] * ("nodes" in m) + ["StopBonus.negative"] * any(
            isinstance(v, int) and v < 0 for v in values)
        out += [f"StopBonus.{v}" for v in ("stop_revenue", "-stop_revenue") if v in values]
        out += [f"StopBonus.scope={m.get('scope', 'counted')}", f"StopBonus.count={m['count']}"]
        out += ["StopBonus.endpoint"] * bool(m.get("endpoint")) + ["StopBonus.subsidy"] * (m.get("target") == "subsidy")
    elif t == "ComboBonus":
        out += [f"ComboBonus.scope={m.get('scope', 'counted')}"] + ["ComboBonus.exclusive"] * ("exclusive" in m)
        out += ["ComboBonus.negative"] * (isinstance(m["amount"], int) and m["amount"] < 0)
    elif t == "RouteRule":
        out += [f"RouteRule.{m['rule']}", f"RouteRule.scope={m['scope']}"]
    elif t == "BestRouteBonus":
        out += [f"BestRouteBonus.award={m['award']}"] + [f"BestRouteBonus.{k}" for k in ("stop_kinds", "per_distinct")
                                                         if k in m]
    elif t == "OverlapRule":
        out.append(f"OverlapRule.scope={m['scope']}")
    elif t == "StopPaysOnce":
        out += ["StopPaysOnce.groups"] * bool(m["groups"])
    elif t == "CountedStops":
        out.append("CountedStops.mandatory_first")
    elif t == "RouteSetRule":
        out.append("RouteSetRule.max_routes_visiting")
    return out


MUST_CHANGE = (
    [f"{k}" for k in V2_KINDS]
    + ["StopBonus.nodes", "StopBonus.negative", "StopBonus.stop_revenue", "StopBonus.-stop_revenue",
       "StopBonus.scope=visited", "StopBonus.scope=path_hexes", "StopBonus.subsidy", "StopBonus.endpoint",
       "StopBonus.trains", "ComboBonus.scope=visited", "ComboBonus.exclusive", "ComboBonus.negative",
       "ComboBonus.trains", "RouteRule.min_stops", "RouteRule.max_stops", "RouteRule.no_hex_revisit",
       "RouteRule.forbidden_hexes", "RouteRule.scope=counted", "RouteRule.scope=visited",
       "RouteRule.scope=endpoints", "RouteRule.scope=path_hexes", "RouteRule.scope=candidates", "RouteRule.trains",
       "BestRouteBonus.award=first_max", "BestRouteBonus.award=last", "BestRouteBonus.award=most_visited_stops",
       "BestRouteBonus.stop_kinds", "BestRouteBonus.per_distinct", "BestRouteBonus.trains",
       "RouteSetRule.trains", "OverlapRule.scope=route", "OverlapRule.scope=pools", "StopPaysOnce.groups",
       "CountedStops.mandatory_first"])


def mix_figures(seeds: range) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Per tag: boards where it occurs, boards where dropping its modifier changes the optimum; and
    per train feature (hexes trains, list trains, row multipliers): boards / boards whose best run uses one."""
    occurs: dict[str, int] = {}
    changes: dict[str, int] = {}
    trains: dict[str, int] = {}
    for case in V2_CHECK.cases(seeds):
        mods = case.snapshot["modifiers"]
        for i, m in enumerate(mods):
            others = mods[:i] + mods[i + 1:]
            changed = brute_force_v2(case.board, others).optimum != case.brute.optimum
            for tag in set(modifier_tags(m)):
                occurs[tag] = occurs.get(tag, 0) + 1
                changes[tag] = changes.get(tag, 0) + changed
        ran = {t for t, _, _ in case.brute.assignment}
        for what, pick in (("hexes", lambda t: t.unit == "hexes"), ("list", lambda t: t.unit == "stops_by_type"),
                           ("row_multiplier", lambda t: any(r.multiplier != 1 for r in t.rows))):
            has = [t for t in case.board.trains if pick(t)]
            trains[what] = trains.get(what, 0) + bool(has)
            trains[what + " runs"] = trains.get(what + " runs", 0) + any(t.id in ran for t in has)
        trains["subsidy paid"] = trains.get("subsidy paid", 0) + any(p.subsidy for _, _, p in case.brute.assignment)
    return occurs, changes, trains


def test_v2_boards_are_a_meaningful_mix() -> None:
    """Every v2 type and field occurs and changes the optimum (dropping its modifier changes the brute
    force's optimum) on some boards; hexes, list and row-multiplier trains occur and run; subsidies are paid;
    the brute force stays small."""
    occurs, changes, trains = mix_figures(range(V2_SEEDS))
    missing = {k: (occurs.get(k, 0), changes.get(k, 0)) for k in MUST_CHANGE
               if occurs.get(k, 0) < 10 or changes.get(k, 0) < 2}
    assert not missing, missing
    assert all(changes[k] >= V2_SEEDS // 60 for k in V2_KINDS), changes
    assert trains["hexes runs"] >= V2_SEEDS // 10 and trains["list runs"] >= V2_SEEDS // 10, trains
    assert trains["row_multiplier runs"] >= 10 and trains["subsidy paid"] >= 5, trains
    paying = sum(1 for c in V2_CHECK.cases(range(V2_SEEDS)) if c.brute.optimum > 0)
    multi = sum(1 for c in V2_CHECK.cases(range(V2_SEEDS)) if len(c.brute.assignment) >= 2)
    assert paying >= V2_SEEDS * 0.6 and multi >= V2_SEEDS * 0.15, (paying, multi)
    assert max(c.brute.searched for c in V2_CHECK.cases(range(V2_SEEDS))) < SEARCH_LIMIT


# ---------------------------------------------------------------- mutations: each set-level rule dropped


def _without(attr: str, empty: Any) -> Callable[[pytest.MonkeyPatch], None]:
    def patch(mp: pytest.MonkeyPatch) -> None:
        real = packing_terms.RunTerms.__init__

        def init(self: Any, *args: Any, **kwargs: Any) -> None:
            real(self, *args, **kwargs)
            setattr(self, attr, empty)

        mp.setattr(packing_terms.RunTerms, "__init__", init)
    return patch


def _overlap_scope_dropped(scope: str) -> Callable[[pytest.MonkeyPatch], None]:
    def patch(mp: pytest.MonkeyPatch) -> None:
        real_rule, real_group = standard_solve.overlap_rule, standard_solve.overlap_group
        if scope == "route":  # the rule read as "run": no route shares track
            mp.setattr(standard_solve, "overlap_rule",
                       lambda mods: None if (r := real_rule(mods)) is not None and r.scope == "route" else r)
        else:  # pools ignored: one group for every train
            mp.setattr(standard_solve, "overlap_group",
                       lambda rule, name, i: "" if rule is not None and rule.scope == "pools" else
                       real_group(rule, name, i))
    return patch


MUTATIONS: dict[str, tuple[Callable[[dict], bool], Callable[[pytest.MonkeyPatch], None]]] = {
    "RouteSetRule": (lambda m: m["type"] == "RouteSetRule", _without("set_rules", [])),
    "RequiredRoute": (lambda m: m["type"] == "RequiredRoute", _without("required", [])),
    "BestRouteBonus": (lambda m: m["type"] == "BestRouteBonus", _without("best", [])),
    "DropLowestRoute": (lambda m: m["type"] == "DropLowestRoute", _without("drop_at", None)),
    "StopPaysOnce": (lambda m: m["type"] == "StopPaysOnce", _without("units", None)),
    "OverlapRule-route": (lambda m: m["type"] == "OverlapRule" and m["scope"] == "route",
                          _overlap_scope_dropped("route")),
    "OverlapRule-pools": (lambda m: m["type"] == "OverlapRule" and m["scope"] == "pools",
                          _overlap_scope_dropped("pools")),
}


@pytest.mark.parametrize("rule", sorted(MUTATIONS))
def test_crosscheck_catches_a_dropped_set_rule(rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With one run rule's constraint or term removed from the optimiser, the cross-check reports a
    disagreement (a wrong optimum, an illegal answer, or the optimiser's own EvaluatorDisagreement)."""
    has, patch = MUTATIONS[rule]
    seeds = [c.seed for c in V2_CHECK.cases(range(V2_SEEDS))
             if any(has(m) for m in c.snapshot["modifiers"])]
    assert len(seeds) >= 20, (rule, len(seeds))
    patch(monkeypatch)
    for seed in seeds:
        found = check_seed_v2(seed)
        if found is not None:
            assert "!= brute force" in found or "evaluator:" in found or EvaluatorDisagreement.__name__ in found, found
            return
    pytest.fail(f"dropping {rule} from the optimiser went unnoticed on {len(seeds)} seeds")


@pytest.mark.parametrize("mods, trains", [
    ([{"type": "StopPaysOnce", "source": "p", "label": "P"}], {"2+": LIST_TRAINS["2+"]}),
    ([{"type": "StopPaysOnce", "source": "p", "label": "P"}], {"2": 2, "2x2": 2}),
    ([{"type": "BestRouteBonus", "source": "b", "label": "B", "award": "most_visited_stops", "per_distinct": 10,
       "distinct_hex_values": {"A1": "x"}}], {"2": 2}),
    ([{"type": "DropLowestRoute", "source": "d", "label": "D", "min_routes": 2},
      {"type": "BestRouteBonus", "source": "b", "label": "B", "award": "first_max", "amount": 10}], {"2": 2}),
    ([{"type": "DropLowestRoute", "source": "d", "label": "D", "min_routes": 2},
      {"type": "StopPaysOnce", "source": "p", "label": "P"}], {"2": 2}),
], ids=["once-list", "once-by-train", "most-visited-distinct", "drop-best", "drop-once"])
def test_optimiser_refuses_what_it_does_not_search(mods: list[dict], trains: dict[str, Any]) -> None:
    """The combinations the generator avoids are refused with a BoardError, not priced wrongly."""
    snap = make_snapshot(3)
    snap["trains"] = [{"id": f"{name}-{i}", "name": name, "distance": d, "multiplier": 2 if "x2" in name else 1,
                       "distance_unit": "stops_by_type" if isinstance(d, list) else "stops", "requires_token": True}
                      for i, (name, d) in enumerate(trains.items())]
    snap["modifiers"], snap["revenue_model"] = mods, "modifiers"
    with pytest.raises(BoardError):
        solve(board_from_snapshot(snap), SolveOptions(time_limit_s=5))
