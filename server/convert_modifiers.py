"""Mapping of the modifiers between the protocol and the solver's model.

A protobuf Modifier is turned into the snapshot's JSON form and read by the same strict parser
as a snapshot (`solver.modifiers.parse`), so both inputs obey one set of checks. An enum value the
server does not know becomes a string the parser rejects by field; an unspecified enum leaves the
JSON key out, so the FORMAT default applies (or, where there is none, the parser says it is missing).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from routemax.v1 import routemax_pb2 as pb
from solver.model.errors import BoardError
from solver.modifiers import (
    BestRouteBonus,
    BonusLine,
    ComboBonus,
    DropLowestRoute,
    Modifier,
    RequiredRoute,
    StopBonus,
    modifiers_from_json,
)
from solver.modifiers.model import (
    MINUS_STOP_REVENUE,
    STOP_REVENUE,
    SUM,
    CountedStops,
    OverlapRule,
    RouteRule,
    RouteSetRule,
    StopPaysOnce,
)

COUNTS = {pb.STOP_COUNT_ONCE: "once", pb.STOP_COUNT_PER_HEX: "per_hex", pb.STOP_COUNT_PER_STOP: "per_stop"}
AWARDS = {pb.AWARD_MOST_VISITED_STOPS: "most_visited_stops", pb.AWARD_LAST: "last",
          pb.AWARD_FIRST_MAX: "first_max"}
SCOPES = {pb.STOP_SCOPE_COUNTED: "counted", pb.STOP_SCOPE_VISITED: "visited", pb.STOP_SCOPE_PATH_HEXES: "path_hexes",
          pb.STOP_SCOPE_ENDPOINTS: "endpoints", pb.STOP_SCOPE_CANDIDATES: "candidates"}
TARGETS = {pb.BONUS_TARGET_REVENUE: "revenue", pb.BONUS_TARGET_SUBSIDY: "subsidy"}
METHODS = {pb.COUNT_METHOD_MANDATORY_FIRST: "mandatory_first"}
RULES = {pb.ROUTE_RULE_KIND_MIN_STOPS: "min_stops", pb.ROUTE_RULE_KIND_MAX_STOPS: "max_stops",
         pb.ROUTE_RULE_KIND_NO_HEX_REVISIT: "no_hex_revisit", pb.ROUTE_RULE_KIND_FORBIDDEN_HEXES: "forbidden_hexes"}
SET_RULES = {pb.ROUTE_SET_RULE_KIND_MAX_ROUTES_VISITING: "max_routes_visiting"}
OVERLAPS = {pb.OVERLAP_SCOPE_RUN: "run", pb.OVERLAP_SCOPE_ROUTE: "route", pb.OVERLAP_SCOPE_POOLS: "pools"}
TYPES = {"stop_bonus": "StopBonus", "combo_bonus": "ComboBonus", "best_route_bonus": "BestRouteBonus",
         "required_route": "RequiredRoute", "drop_lowest_route": "DropLowestRoute", "counted_stops": "CountedStops",
         "route_rule": "RouteRule", "route_set_rule": "RouteSetRule", "overlap_rule": "OverlapRule",
         "stop_pays_once": "StopPaysOnce"}
KINDS = {v: k for k, v in TYPES.items()}
COMMON_FIELDS = ("source", "label", "trains", "type")  # fields of Modifier itself, not of its kind


def _enum(out: dict[str, Any], key: str, number: int, names: dict[int, str], enum: EnumTypeWrapper) -> None:
    """Set out[key] from an enum: 0 (unspecified) leaves it out (the default, or missing where there
    is none); a number this server does not know becomes a string the parser rejects naming the field."""
    if number:
        out[key] = names.get(number, f"unknown {enum.DESCRIPTOR.name} value {number}")


def _bonus_value(v: pb.BonusValue) -> Any:
    which = v.WhichOneof("value")
    if which == "amount":
        return v.amount
    if which == "stop_revenue" and v.stop_revenue:
        return STOP_REVENUE
    if which == "minus_stop_revenue" and v.minus_stop_revenue:
        return MINUS_STOP_REVENUE
    return None  # unset, or a false flag: the parser names the key


def _names(msg: Any, key: str, out: dict[str, Any]) -> None:
    """A NameList field: unset stays absent, set (even with no names) is the list."""
    if msg.HasField(key):
        out[key] = list(getattr(msg, key).names)


def _stop_bonus(m: pb.StopBonus, out: dict[str, Any]) -> None:
    if m.hexes or not m.nodes:
        out["hexes"] = {h: _bonus_value(v) for h, v in m.hexes.items()}
    if m.nodes:
        out["nodes"] = {n: _bonus_value(v) for n, v in m.nodes.items()}
    _enum(out, "count", m.count, COUNTS, pb.StopCount)
    out["endpoint"] = m.endpoint
    _enum(out, "scope", m.scope, SCOPES, pb.StopScope)  # the parser says which scopes a type accepts
    _enum(out, "target", m.target, TARGETS, pb.BonusTarget)


def _combo_bonus(m: pb.ComboBonus, out: dict[str, Any]) -> None:
    which = m.WhichOneof("amount")
    out.update(sets=[dict(s.hexes) for s in m.sets],
               amount=m.fixed if which == "fixed" else SUM if which == "sum" and m.sum else None)
    _enum(out, "scope", m.scope, SCOPES, pb.StopScope)
    if m.exclusive:
        out["exclusive"] = m.exclusive


def _best_route_bonus(m: pb.BestRouteBonus, out: dict[str, Any]) -> None:
    _enum(out, "award", m.award, AWARDS, pb.Award)
    which = m.WhichOneof("bonus")
    if which:
        out[which] = getattr(m, which)
    if m.requires_hexes:
        out["requires_hexes"] = list(m.requires_hexes)
    _names(m, "stop_kinds", out)
    if m.distinct_hex_values:
        out["distinct_hex_values"] = dict(m.distinct_hex_values)


def _route_rule(m: pb.RouteRule, out: dict[str, Any]) -> None:
    _enum(out, "rule", m.rule, RULES, pb.RouteRuleKind)
    _enum(out, "scope", m.scope, SCOPES, pb.StopScope)
    if m.HasField("error"):
        out["error"] = m.error
    if m.HasField("count"):
        out["count"] = m.count
    _names(m, "kinds", out)
    _names(m, "hexes", out)
    if m.exclude_nodes:
        out["exclude_nodes"] = list(m.exclude_nodes)


def _route_set_rule(m: pb.RouteSetRule, out: dict[str, Any]) -> None:
    _enum(out, "rule", m.rule, SET_RULES, pb.RouteSetRuleKind)
    out.update(hexes=list(m.hexes), count=m.count)
    if m.HasField("error"):
        out["error"] = m.error


def _overlap_rule(m: pb.OverlapRule, out: dict[str, Any]) -> None:
    _enum(out, "scope", m.scope, OVERLAPS, pb.OverlapScope)
    if m.pools:
        out["pools"] = [list(p.names) for p in m.pools]


def _as_json(msg: pb.Modifier, where: str) -> dict[str, Any]:
    kind = msg.WhichOneof("kind")
    if kind not in TYPES:
        raise BoardError(f"{where}.kind", f"a modifier needs a kind ({', '.join(TYPES)}); got none or an unknown one")
    out: dict[str, Any] = {"type": TYPES[kind], "source": msg.source, "label": msg.label}
    _names(msg, "trains", out)
    m = getattr(msg, kind)
    if kind == "stop_bonus":
        _stop_bonus(m, out)
    elif kind == "combo_bonus":
        _combo_bonus(m, out)
    elif kind == "best_route_bonus":
        _best_route_bonus(m, out)
    elif kind == "required_route":
        out.update(endpoint_hexes=list(m.endpoint_hexes), error=m.error)
    elif kind == "drop_lowest_route":
        out["min_routes"] = m.min_routes
    elif kind == "counted_stops":
        _enum(out, "method", m.method, METHODS, pb.CountMethod)
    elif kind == "route_rule":
        _route_rule(m, out)
    elif kind == "route_set_rule":
        _route_set_rule(m, out)
    elif kind == "overlap_rule":
        _overlap_rule(m, out)
    else:
        out["groups"] = m.groups
    return out


_AT = re.compile(r"^(?P<at>.*\[(?P<i>\d+)\])\.(?P<rest>.*)$")


def _proto_field(field: str, where: str, msgs: Sequence[pb.Modifier]) -> str:
    """The parser's field path (JSON names) with the modifier's kind put in, so that it names the
    protobuf field: `board.modifiers[2].count` -> `board.modifiers[2].stop_bonus.count`."""
    found = _AT.match(field)
    if not found or found["at"] != f"{where}[{found['i']}]" or int(found["i"]) >= len(msgs):
        return field
    rest = found["rest"]
    if re.split(r"[.\[]", rest, maxsplit=1)[0] in COMMON_FIELDS:
        return field
    return f"{found['at']}.{msgs[int(found['i'])].WhichOneof('kind')}.{rest}"


def modifiers_from_proto(msgs: Sequence[pb.Modifier], where: str = "board.modifiers") -> tuple[Modifier, ...]:
    """The model modifiers of a protobuf board; BoardError names the field."""
    raw = [_as_json(m, f"{where}[{i}]") for i, m in enumerate(msgs)]
    try:
        return modifiers_from_json(raw, where)
    except BoardError as exc:
        raise BoardError(_proto_field(exc.field, where, msgs), exc.message) from None


def _set_names(target: pb.NameList, names: tuple[str, ...] | None) -> None:
    """A NameList field: None leaves it unset; a tuple (even an empty one) sets it."""
    if names is not None:
        target.SetInParent()
        target.names.extend(names)


def _set_value(target: pb.BonusValue, v: Any) -> None:
    if v == STOP_REVENUE:
        target.stop_revenue = True
    elif v == MINUS_STOP_REVENUE:
        target.minus_stop_revenue = True
    else:
        target.amount = int(v)


def _code(names: dict[int, str], value: str) -> int:
    return {v: k for k, v in names.items()}[value]


def modifier_to_proto(m: Modifier) -> pb.Modifier:
    """The protobuf form of a model modifier (lossless: modifiers_from_proto gives it back)."""
    msg = pb.Modifier(source=m.source, label=m.label)
    _set_names(msg.trains, getattr(m, "trains", None))
    if isinstance(m, StopBonus):
        sb = msg.stop_bonus
        sb.count = _code(COUNTS, m.count)
        sb.endpoint = m.endpoint
        for h, v in m.hexes:
            _set_value(sb.hexes[h], v)
        for n, v in m.nodes:
            _set_value(sb.nodes[n], v)
        if m.scope != "counted":
            sb.scope = _code(SCOPES, m.scope)
        if m.target != "revenue":
            sb.target = _code(TARGETS, m.target)
    elif isinstance(m, ComboBonus):
        for s in m.sets:
            msg.combo_bonus.sets.add().hexes.update(dict(s))
        if m.amount == SUM:
            msg.combo_bonus.sum = True
        else:
            msg.combo_bonus.fixed = int(m.amount)
        if m.scope != "counted":
            msg.combo_bonus.scope = _code(SCOPES, m.scope)
        msg.combo_bonus.exclusive = m.exclusive
    elif isinstance(m, BestRouteBonus):
        b = msg.best_route_bonus
        b.award = _code(AWARDS, m.award)
        b.requires_hexes.extend(m.requires_hexes)
        if m.per_visited_stop:
            b.per_visited_stop = m.per_visited_stop
        elif m.per_distinct or m.distinct_hex_values:
            b.per_distinct = m.per_distinct
        else:
            b.amount = m.amount
        _set_names(b.stop_kinds, m.stop_kinds)
        b.distinct_hex_values.update(dict(m.distinct_hex_values))
    elif isinstance(m, RequiredRoute):
        msg.required_route.endpoint_hexes.extend(m.endpoint_hexes)
        msg.required_route.error = m.error
    elif isinstance(m, DropLowestRoute):
        msg.drop_lowest_route.min_routes = m.min_routes
    elif isinstance(m, CountedStops):
        msg.counted_stops.method = _code(METHODS, m.method)
    elif isinstance(m, RouteRule):
        r = msg.route_rule
        r.rule, r.scope, r.error = _code(RULES, m.rule), _code(SCOPES, m.scope), m.error
        if m.rule in ("min_stops", "max_stops"):
            r.count = m.count
        _set_names(r.kinds, m.kinds)
        _set_names(r.hexes, m.hexes)
        r.exclude_nodes.extend(m.exclude_nodes)
    elif isinstance(m, RouteSetRule):
        s = msg.route_set_rule
        s.rule, s.count, s.error = _code(SET_RULES, m.rule), m.count, m.error
        s.hexes.extend(m.hexes)
    elif isinstance(m, OverlapRule):
        msg.overlap_rule.scope = _code(OVERLAPS, m.scope)
        for pool in m.pools:
            msg.overlap_rule.pools.add().names.extend(pool)
    elif isinstance(m, StopPaysOnce):
        msg.stop_pays_once.groups = m.groups
    return msg


def bonus_line_to_proto(line: BonusLine) -> pb.BonusLine:
    return pb.BonusLine(label=line.label, amount=line.amount, source=line.source)
