"""Protocol revision "modifiers v2": every v2 type and field through protobuf and back, bad protobuf
values named by field, the row multiplier 0, and the subsidy in responses and on the command line."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from routemax_cli.cli import evaluation_json, solve_json, with_subsidy
from server.convert import board_from_proto, board_to_proto, evaluate_response, solve_response
from server.convert_modifiers import modifier_to_proto, modifiers_from_proto
from solver.input.snapshot import board_from_snapshot
from solver.model.errors import BoardError
from solver.model.results import Evaluation, PricedRoute, SolveResult, Status
from solver.modifiers import modifiers_from_json
from solver.modifiers.model import RouteRule, StopBonus
from tests.conftest import CORPUS
from tests.support.fuzz.checks import model_key

EXAMPLES = sorted((CORPUS / "examples").glob("*.json"))
MINE_SUBSIDY = CORPUS / "examples" / "1837_bank_a803_MS_mine_subsidy_route_rules.json"


def _wire(msg: Any) -> Any:
    """The message as a peer receives it (serialised and parsed again)."""
    return type(msg).FromString(msg.SerializeToString())


@cache
def corpus_modifiers() -> list[dict[str, Any]]:
    """Every distinct modifier (as JSON) of every corpus position."""
    seen: dict[str, dict[str, Any]] = {}
    for path in sorted(CORPUS.glob("*/*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    for m in json.loads(line).get("modifiers") or []:
                        seen.setdefault(json.dumps(m, sort_keys=True), m)
    return list(seen.values())


# -- lossless: model -> proto -> model ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_round_trips_through_the_protocol(path: Path) -> None:
    board = board_from_snapshot(json.loads(path.read_text()))
    again = board_from_proto(_wire(board_to_proto(board)))
    assert again.modifiers == board.modifiers
    assert model_key(again) == model_key(board)


def test_every_distinct_corpus_modifier_round_trips() -> None:
    raw = corpus_modifiers()
    kinds = {m["type"] for m in raw}
    assert {"StopBonus", "ComboBonus", "CountedStops", "RouteRule", "BestRouteBonus", "RequiredRoute",
            "DropLowestRoute", "RouteSetRule", "OverlapRule", "StopPaysOnce"} <= kinds
    mods = modifiers_from_json(raw)
    back = modifiers_from_proto([_wire(modifier_to_proto(m)) for m in mods])
    for m, b in zip(mods, back, strict=True):
        assert b == m


V2 = [
    {"type": "StopBonus", "source": "coal", "label": "Mine (paid as subsidy)",
     "hexes": {"A13": "-stop_revenue", "B32": -15}, "count": "per_stop"},
    {"type": "StopBonus", "source": "coal", "label": "Mine revenue", "hexes": {"A13": "stop_revenue"},
     "count": "per_stop", "target": "subsidy"},
    {"type": "StopBonus", "source": "mine", "label": "Mine", "hexes": {"C20": 10}, "count": "per_hex",
     "scope": "path_hexes"},
    {"type": "StopBonus", "source": "modern_trains", "label": "Modern 8-train",
     "nodes": {"E15.city0": 20, "H9.city1": "-stop_revenue"}, "count": "per_stop", "trains": ["8"],
     "scope": "visited", "endpoint": True},
    {"type": "ComboBonus", "source": "ENX", "label": "Egg Nog Express", "scope": "visited",
     "sets": [{"F7": 0}, {"C10": -5}], "amount": -40, "exclusive": "east_west", "trains": []},
    {"type": "CountedStops", "source": "compute_stops", "label": "Mandatory stops first",
     "method": "mandatory_first", "trains": ["5+5E"]},
    {"type": "RouteRule", "source": "x", "label": "none selected", "rule": "min_stops", "hexes": [], "kinds": [],
     "exclude_nodes": ["G17.town0"], "count": 0, "scope": "candidates", "error": ""},
    {"type": "RouteRule", "source": "x", "label": "ends", "rule": "max_stops", "kinds": ["town", "halt"],
     "count": 0, "scope": "endpoints", "error": "Route cannot begin/end in a town"},
    {"type": "RouteRule", "source": "revenue_for", "label": "One stop per hex", "rule": "no_hex_revisit",
     "error": "Route visits same hex twice"},
    {"type": "RouteRule", "source": "coal_marker", "label": "Virginia Coalfields", "rule": "forbidden_hexes",
     "hexes": ["K11"], "scope": "path_hexes", "error": "route to Virginia Coalfields requires Coal Marker"},
    {"type": "BestRouteBonus", "source": "ST", "label": "Sleeper Train", "per_visited_stop": 10,
     "stop_kinds": ["city"], "award": "first_max", "trains": ["4", "5"]},
    {"type": "BestRouteBonus", "source": "CH", "label": "Conductor's Hat", "per_distinct": 10,
     "distinct_hex_values": {"B3": "#CE95C3", "D5": "#F7FFB6"}, "award": "first_max", "stop_kinds": []},
    {"type": "BestRouteBonus", "source": "CH", "label": "zero", "per_distinct": 0,
     "distinct_hex_values": {"B3": "#CE95C3"}, "award": "last"},
    {"type": "RequiredRoute", "source": "connection_run", "label": "Connection run", "endpoint_hexes": ["E12"],
     "error": "home to destination", "trains": ["2"]},
    {"type": "RouteSetRule", "source": "check_overlap", "label": "Yellow Milano", "rule": "max_routes_visiting",
     "hexes": ["F8"], "count": 0, "error": "Cannot visit Yellow Milano more than once", "trains": ["2"]},
    {"type": "OverlapRule", "source": "check_overlap", "label": "Routes may share track", "scope": "route"},
    {"type": "OverlapRule", "source": "train_type", "label": "Passenger / freight track", "scope": "pools",
     "pools": [["2", "4"], ["3/5"]]},
    {"type": "StopPaysOnce", "source": "stop_on_other_route", "label": "Stop pays once", "groups": True},
    {"type": "StopPaysOnce", "source": "stop_on_other_route", "label": "Stop pays once"},
]


@pytest.mark.parametrize("raw", V2, ids=lambda m: f"{m['type']}-{m['label']}")
def test_every_v2_field_round_trips(raw: dict[str, Any]) -> None:
    (model,) = modifiers_from_json([raw])
    (back,) = modifiers_from_proto([_wire(modifier_to_proto(model))])
    assert back == model


def test_absent_and_empty_lists_stay_apart() -> None:
    every, none = modifiers_from_json([{**V2[0], "label": "every"}, {**V2[0], "label": "none", "trains": []}])
    assert every.trains is None and none.trains == ()
    msgs = [_wire(modifier_to_proto(every)), _wire(modifier_to_proto(none))]
    assert not msgs[0].HasField("trains") and msgs[1].HasField("trains") and not msgs[1].trains.names
    assert [m.trains for m in modifiers_from_proto(msgs)] == [None, ()]
    rule = modifiers_from_json([V2[6]])[0]
    assert isinstance(rule, RouteRule) and rule.hexes == () and rule.kinds == ()
    anyhex = modifiers_from_json([V2[7]])[0]
    assert isinstance(anyhex, RouteRule) and anyhex.hexes is None
    assert modifiers_from_proto([_wire(modifier_to_proto(rule)), _wire(modifier_to_proto(anyhex))]) == (rule, anyhex)


def test_unspecified_enums_mean_the_format_defaults() -> None:
    msg = pb.Modifier(source="s", label="l")
    msg.stop_bonus.hexes["D6"].amount = -10
    msg.stop_bonus.count = pb.STOP_COUNT_ONCE
    rule = pb.Modifier(source="s", label="l")
    rule.route_rule.rule = pb.ROUTE_RULE_KIND_NO_HEX_REVISIT
    count = pb.Modifier(source="s", label="l")
    count.route_rule.rule = pb.ROUTE_RULE_KIND_MIN_STOPS
    count.route_rule.count = 2
    combo = pb.Modifier(source="s", label="l")
    combo.combo_bonus.sets.add().hexes["A1"] = 10
    combo.combo_bonus.sum = True
    bonus, revisit, min_stops, combo_bonus = modifiers_from_proto([msg, rule, count, combo])
    assert isinstance(bonus, StopBonus) and (bonus.scope, bonus.target, bonus.trains) == ("counted", "revenue", None)
    assert bonus.hexes == (("D6", -10),)
    assert isinstance(revisit, RouteRule) and revisit.scope == "visited" and revisit.hexes is None
    assert isinstance(min_stops, RouteRule) and min_stops.scope == "counted"
    assert combo_bonus.scope == "counted" and combo_bonus.exclusive == ""  # type: ignore[union-attr]


# -- bad protobuf values, named by field -------------------------------------------------------------------------------

def _mod(kind: str, fill: Callable[[Any], None], **common: Any) -> pb.Modifier:
    msg = pb.Modifier(source="s", label="l", **common)
    getattr(msg, kind).SetInParent()
    fill(getattr(msg, kind))
    return msg


def _stop(m: pb.StopBonus) -> None:
    m.hexes["D6"].amount = 10
    m.count = pb.STOP_COUNT_ONCE


def _combo(m: pb.ComboBonus) -> None:
    m.sets.add().hexes["A1"] = 10
    m.sum = True


def _rule(m: pb.RouteRule) -> None:
    m.rule = pb.ROUTE_RULE_KIND_MIN_STOPS
    m.count = 1
    m.error = "e"


def _set_rule(m: pb.RouteSetRule) -> None:
    m.rule = pb.ROUTE_SET_RULE_KIND_MAX_ROUTES_VISITING
    m.hexes.append("F8")
    m.count = 1


def _best(m: pb.BestRouteBonus) -> None:
    m.award = pb.AWARD_FIRST_MAX
    m.per_visited_stop = 10


def _then(*fills: Callable[[Any], None]) -> Callable[[Any], None]:
    def run(m: Any) -> None:
        for f in fills:
            f(m)
    return run


def _setattr(key: str, value: Any) -> Callable[[Any], None]:
    return lambda m: setattr(m, key, value)


def _minus_false(m: pb.StopBonus) -> None:
    m.nodes["E15.city0"].minus_stop_revenue = False


def _nodes_on_path_hexes(m: pb.StopBonus) -> None:
    del m.hexes["D6"]
    m.nodes["E15.city0"].amount = 20
    m.scope = pb.STOP_SCOPE_PATH_HEXES


def _both_tables(m: pb.StopBonus) -> None:
    m.nodes["E15.city0"].amount = 20


BAD: list[tuple[str, pb.Modifier, str, str]] = [
    # (case, message, field, a word of the message)
    ("StopBonus unknown scope", _mod("stop_bonus", _then(_stop, _setattr("scope", 99))),
     "board.modifiers[0].stop_bonus.scope", "unknown StopScope value 99"),
    ("StopBonus scope of another type", _mod("stop_bonus", _then(_stop, _setattr("scope", pb.STOP_SCOPE_ENDPOINTS))),
     "board.modifiers[0].stop_bonus.scope", "endpoints"),
    ("StopBonus unknown target", _mod("stop_bonus", _then(_stop, _setattr("target", 7))),
     "board.modifiers[0].stop_bonus.target", "unknown BonusTarget value 7"),
    ("StopBonus nodes with path_hexes", _mod("stop_bonus", _then(_stop, _nodes_on_path_hexes)),
     "board.modifiers[0].stop_bonus.nodes", "hexes"),
    ("StopBonus hexes and nodes", _mod("stop_bonus", _then(_stop, _both_tables)),
     "board.modifiers[0].stop_bonus.hexes", "exactly one"),
    ("StopBonus minus_stop_revenue false", _mod("stop_bonus", _then(_stop, _minus_false, lambda m: m.ClearField(
        "hexes"))), "board.modifiers[0].stop_bonus.nodes.E15.city0", "integer"),
    ("StopBonus too negative", _mod("stop_bonus", _then(_stop, lambda m: setattr(m.hexes["D6"], "amount", -10**6))),
     "board.modifiers[0].stop_bonus.hexes.D6", "-100,000"),
    ("ComboBonus unknown scope", _mod("combo_bonus", _then(_combo, _setattr("scope", 42))),
     "board.modifiers[0].combo_bonus.scope", "unknown StopScope value 42"),
    ("ComboBonus path_hexes", _mod("combo_bonus", _then(_combo, _setattr("scope", pb.STOP_SCOPE_PATH_HEXES))),
     "board.modifiers[0].combo_bonus.scope", "counted, visited"),
    ("CountedStops no method", _mod("counted_stops", lambda m: None),
     "board.modifiers[0].counted_stops.method", "mandatory_first"),
    ("CountedStops unknown method", _mod("counted_stops", _setattr("method", 5)),
     "board.modifiers[0].counted_stops.method", "unknown CountMethod value 5"),
    ("RouteRule no rule", _mod("route_rule", _then(_rule, _setattr("rule", 0))),
     "board.modifiers[0].route_rule.rule", "min_stops"),
    ("RouteRule unknown rule", _mod("route_rule", _then(_rule, _setattr("rule", 9))),
     "board.modifiers[0].route_rule.rule", "unknown RouteRuleKind value 9"),
    ("RouteRule unknown scope", _mod("route_rule", _then(_rule, _setattr("scope", 77))),
     "board.modifiers[0].route_rule.scope", "unknown StopScope value 77"),
    ("RouteRule min_stops without count", _mod("route_rule", _then(_rule, lambda m: m.ClearField("count"))),
     "board.modifiers[0].route_rule.count", "count"),
    ("RouteRule count on forbidden_hexes", _mod("route_rule", _then(
        _rule, _setattr("rule", pb.ROUTE_RULE_KIND_FORBIDDEN_HEXES), lambda m: m.hexes.names.append("K11"))),
     "board.modifiers[0].route_rule.count", "not a field"),
    ("RouteRule forbidden_hexes no hexes", _mod("route_rule", _then(
        _rule, lambda m: m.ClearField("count"), _setattr("rule", pb.ROUTE_RULE_KIND_FORBIDDEN_HEXES),
        lambda m: m.hexes.SetInParent())), "board.modifiers[0].route_rule.hexes", "non-empty"),
    ("RouteRule unknown kind", _mod("route_rule", _then(_rule, lambda m: m.kinds.names.append("village"))),
     "board.modifiers[0].route_rule.kinds[0]", "village"),
    ("RouteRule path_hexes on min_stops", _mod("route_rule", _then(
        _rule, _setattr("scope", pb.STOP_SCOPE_PATH_HEXES))), "board.modifiers[0].route_rule.scope", "path_hexes"),
    ("RouteSetRule no rule", _mod("route_set_rule", _then(_set_rule, _setattr("rule", 0))),
     "board.modifiers[0].route_set_rule.rule", "max_routes_visiting"),
    ("RouteSetRule unknown rule", _mod("route_set_rule", _then(_set_rule, _setattr("rule", 3))),
     "board.modifiers[0].route_set_rule.rule", "unknown RouteSetRuleKind value 3"),
    ("RouteSetRule no hexes", _mod("route_set_rule", _then(_set_rule, lambda m: m.ClearField("hexes"))),
     "board.modifiers[0].route_set_rule.hexes", "non-empty"),
    ("OverlapRule no scope", _mod("overlap_rule", lambda m: None),
     "board.modifiers[0].overlap_rule.scope", "run, route, pools"),
    ("OverlapRule unknown scope", _mod("overlap_rule", _setattr("scope", 12)),
     "board.modifiers[0].overlap_rule.scope", "unknown OverlapScope value 12"),
    ("OverlapRule pools without scope pools", _mod("overlap_rule", _then(
        _setattr("scope", pb.OVERLAP_SCOPE_ROUTE), lambda m: m.pools.add().names.append("2"))),
     "board.modifiers[0].overlap_rule.pools", "pools"),
    ("OverlapRule pools not disjoint", _mod("overlap_rule", _then(
        _setattr("scope", pb.OVERLAP_SCOPE_POOLS), lambda m: m.pools.add().names.extend(["2", "3"]),
        lambda m: m.pools.add().names.append("3"))), "board.modifiers[0].overlap_rule.pools[1]", "disjoint"),
    ("OverlapRule scope pools, no pools", _mod("overlap_rule", _setattr("scope", pb.OVERLAP_SCOPE_POOLS)),
     "board.modifiers[0].overlap_rule.pools", "non-empty"),
    ("OverlapRule with trains", _mod("overlap_rule", _setattr("scope", pb.OVERLAP_SCOPE_RUN),
                                     trains=pb.NameList(names=["2"])), "board.modifiers[0].trains", "every train"),
    ("StopPaysOnce with trains", _mod("stop_pays_once", lambda m: None, trains=pb.NameList()),
     "board.modifiers[0].trains", "every train"),
    ("DropLowestRoute with trains", _mod("drop_lowest_route", _setattr("min_routes", 3),
                                         trains=pb.NameList(names=["2"])), "board.modifiers[0].trains", "every train"),
    ("trains with an empty name", _mod("stop_bonus", _stop, trains=pb.NameList(names=["2", ""])),
     "board.modifiers[0].trains[1]", "train name"),
    ("BestRouteBonus unknown award", _mod("best_route_bonus", _then(_best, _setattr("award", 99))),
     "board.modifiers[0].best_route_bonus.award", "unknown Award value 99"),
    ("BestRouteBonus per_distinct without values", _mod("best_route_bonus", _then(
        _best, _setattr("per_distinct", 10))), "board.modifiers[0].best_route_bonus.distinct_hex_values", "together"),
    ("BestRouteBonus values without per_distinct", _mod("best_route_bonus", _then(
        _best, lambda m: m.distinct_hex_values.update({"B3": "red"}))),
     "board.modifiers[0].best_route_bonus.distinct_hex_values", "together"),
    ("BestRouteBonus unknown stop kind", _mod("best_route_bonus", _then(
        _best, lambda m: m.stop_kinds.names.append("village"))),
     "board.modifiers[0].best_route_bonus.stop_kinds[0]", "village"),
    ("BonusValue unset", _mod("stop_bonus", _then(_stop, lambda m: m.hexes["D6"].ClearField("value"))),
     "board.modifiers[0].stop_bonus.hexes.D6", "integer"),
]


@pytest.mark.parametrize(("msg", "field", "word"), [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_protobuf_values_name_their_field(msg: pb.Modifier, field: str, word: str) -> None:
    with pytest.raises(BoardError) as err:
        modifiers_from_proto([_wire(msg)])
    assert err.value.field == field, err.value
    assert word in err.value.message, err.value


def test_the_field_names_the_right_modifier_of_several() -> None:
    good = modifier_to_proto(modifiers_from_json([V2[0]])[0])
    bad = _mod("route_rule", _then(_rule, _setattr("scope", 77)))
    with pytest.raises(BoardError) as err:
        modifiers_from_proto([good, good, bad])
    assert err.value.field == "board.modifiers[2].route_rule.scope"


@pytest.mark.parametrize(("msg", "field"), [
    (_mod("stop_bonus", _then(_stop, _setattr("target", 7))), "board.modifiers[2].stop_bonus.target"),
    (_mod("overlap_rule", _setattr("scope", 12)), "board.modifiers[2].overlap_rule.scope"),
    (_mod("route_set_rule", _then(_set_rule, _setattr("rule", 0))), "board.modifiers[2].route_set_rule.rule"),
])
def test_bad_v2_values_are_invalid_argument_over_grpc(stub, msg: pb.Modifier, field: str) -> None:
    board = board_to_proto(board_from_snapshot(json.loads(MINE_SUBSIDY.read_text())))
    del board.modifiers[2:]
    board.modifiers.append(msg)
    with pytest.raises(grpc.RpcError) as err:
        stub.Evaluate(pb.EvaluateRequest(board=board))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field in err.value.details()


OFF_MAP = [  # each names the hex Z99, which no board of these tests has
    ({"type": "StopBonus", "hexes": {"Z99": 10}, "count": "once"}, "hexes"),
    ({"type": "ComboBonus", "sets": [{"{on}": 10}, {"Z99": 10}], "amount": "sum"}, "sets[1]"),
    ({"type": "RouteSetRule", "rule": "max_routes_visiting", "hexes": ["{on}", "Z99"], "count": 1}, "hexes"),
    ({"type": "RequiredRoute", "endpoint_hexes": ["{on}", "Z99"]}, "endpoint_hexes"),
    ({"type": "RouteRule", "rule": "forbidden_hexes", "hexes": ["Z99"]}, "hexes"),
]


@pytest.mark.parametrize(("raw", "field"), OFF_MAP, ids=[r["type"] for r, _f in OFF_MAP])
def test_a_modifier_on_a_hex_the_map_lacks_is_refused(stub, raw: dict[str, Any], field: str) -> None:
    """`hexes` is the whole map: a bonus or a rule on another hex is a mistake, refused naming it, in a snapshot
    and over gRPC (a required run to nowhere priced every run at 0 before)."""
    snap = json.loads(MINE_SUBSIDY.read_text())
    on = snap["hexes"][0]["id"]
    mod = json.loads(json.dumps({"source": "s", "label": "l", **raw}).replace("{on}", on))
    board = board_from_snapshot(snap)
    where = f"modifiers[{len(snap.get('modifiers') or [])}].{field}"
    with pytest.raises(BoardError) as err:
        board_from_snapshot({**snap, "modifiers": [*(snap.get("modifiers") or []), mod]})
    assert err.value.field == where and "Z99" in err.value.message
    msg = board_to_proto(board)
    msg.modifiers.append(modifier_to_proto(modifiers_from_json([mod])[0]))
    with pytest.raises(grpc.RpcError) as rpc:
        stub.Solve(pb.SolveRequest(board=msg), timeout=60)
    assert rpc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert where in rpc.value.details() and "Z99" in rpc.value.details()


# -- the distance row multiplier 0 ----------------------------------------------------------------------------------

def _plus_train_board() -> Any:
    snap = json.loads(MINE_SUBSIDY.read_text())
    goods = next(t for t in snap["trains"] if t.get("distance_unit") == "stops_by_type")
    goods["distance"][0]["multiplier"] = 0  # towns x0 (18FL 3E)
    return board_from_snapshot(snap)


def test_row_multiplier_zero_round_trips() -> None:
    board = _plus_train_board()
    rows = next(t.rows for t in board.trains if t.rows)
    assert rows[0].multiplier == 0 and rows[1].multiplier == 1
    msg = _wire(board_to_proto(board))
    sent = next(t for t in msg.trains if t.distance.HasField("stops_by_type")).distance.stops_by_type.rows
    assert sent[0].HasField("row_multiplier") and sent[0].row_multiplier == 0
    assert not sent[1].HasField("row_multiplier") and sent[1].multiplier == 1
    assert model_key(board_from_proto(msg)) == model_key(board)


def test_row_multiplier_overrides_multiplier_when_set() -> None:
    msg = board_to_proto(board_from_snapshot(json.loads(MINE_SUBSIDY.read_text())))
    rows = next(t for t in msg.trains if t.distance.HasField("stops_by_type")).distance.stops_by_type.rows
    rows[0].multiplier, rows[1].multiplier = 0, 3  # unset row_multiplier: multiplier, 0 read as 1
    rows[1].row_multiplier = 2
    got = next(t.rows for t in board_from_proto(msg).trains if t.rows)
    assert [r.multiplier for r in got] == [1, 2]
    rows[0].row_multiplier = -1
    with pytest.raises(BoardError) as err:
        board_from_proto(msg)
    assert err.value.field.endswith(".multiplier") and "trains[" in err.value.field


# -- the subsidy in responses ------------------------------------------------------------------------------------------

def _priced(revenue: int, subsidy: int) -> PricedRoute:
    return PricedRoute(train="1G-3", nodes=["C23.city0", "C21.city0"], legs=[], stop_revenues=[revenue, 0],
                       revenue=revenue, subsidy=subsidy)


def test_responses_carry_the_subsidy() -> None:
    ev = Evaluation(legal=True, revenue=280, routes=[_priced(240, 0), _priced(40, 25)], findings=[], subsidy=25)
    resp = _wire(evaluate_response(ev))
    assert resp.subsidy == 25 and [r.subsidy for r in resp.routes] == [0, 25] and resp.revenue == 280
    result = SolveResult(revenue=280, status=Status.OPTIMAL, bound=305, routes=ev.routes, evaluation=ev, subsidy=25)
    solved = _wire(solve_response(result))
    assert solved.subsidy == 25 and [r.subsidy for r in solved.routes] == [0, 25]
    assert _wire(evaluate_response(Evaluation(legal=True, revenue=0, routes=[], findings=[]))).subsidy == 0


def test_command_line_json_and_text_show_the_subsidy() -> None:
    ev = Evaluation(legal=True, revenue=280, routes=[_priced(240, 0), _priced(40, 25)], findings=[], subsidy=25)
    out = evaluation_json("x", ev)
    assert out["subsidy"] == 25 and [r["subsidy"] for r in out["routes"]] == [0, 25]
    result = SolveResult(revenue=280, status=Status.OPTIMAL, bound=305, routes=ev.routes, evaluation=ev, subsidy=25)
    solved = json.loads(json.dumps(solve_json("x", {}, result)))
    assert solved["subsidy"] == 25 and [r["subsidy"] for r in solved["routes"]] == [0, 25]
    plain = SolveResult(revenue=10, status=Status.OPTIMAL, bound=10, routes=[_priced(10, 0)])
    assert solve_json("x", {}, plain)["subsidy"] == 0
    assert evaluation_json("x", Evaluation(legal=True, revenue=0, routes=[], findings=[]))["subsidy"] == 0
    assert with_subsidy(280, 25) == "280 + subsidy 25" and with_subsidy(280, 0) == "280"


def _claims(snap: dict[str, Any]) -> list[pb.ClaimedRoute]:
    return [pb.ClaimedRoute(train=r["train"], nodes=r["nodes"], legs=[pb.Leg(paths=leg) for leg in r["legs"]])
            for r in snap["engine"]["routes"]]


def test_grpc_evaluate_returns_the_1837_mine_subsidy(stub) -> None:
    """The engine's recorded run of the 1837 example: 280 revenue, and the goods train's mine (C21,
    25) paid as subsidy besides it (needs the evaluator's v2 pricing)."""
    snap = json.loads(MINE_SUBSIDY.read_text())
    for request in (pb.EvaluateRequest(board=board_to_proto(board_from_snapshot(snap)), routes=_claims(snap)),
                    pb.EvaluateRequest(snapshot_json=json.dumps(snap), routes=_claims(snap))):
        resp = stub.Evaluate(request)
        assert resp.legal, [f.message for f in resp.findings]
        assert resp.revenue == snap["engine"]["routes_revenue"] == 280
        assert [r.revenue for r in resp.routes] == [r["revenue"] for r in snap["engine"]["routes"]]
        assert resp.subsidy == snap["engine"]["routes_subsidy"] == 25
        assert [r.subsidy for r in resp.routes] == [0, 0, 25]


def test_grpc_solve_reports_the_run_subsidy(stub) -> None:
    snap = json.loads(MINE_SUBSIDY.read_text())
    solved = stub.Solve(pb.SolveRequest(board=board_to_proto(board_from_snapshot(snap)), time_limit_s=30))
    assert solved.status == pb.OPTIMAL
    assert solved.subsidy == sum(r.subsidy for r in solved.routes)
    assert solved.revenue + solved.subsidy >= snap["engine"]["routes_revenue"] + snap["engine"]["routes_subsidy"]
