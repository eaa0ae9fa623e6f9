"""Read a snapshot's `modifiers` list strictly: every wrong value is a BoardError naming its field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.model.board import NODE_KINDS
from solver.model.errors import BoardError
from solver.model.jsonread import kind_of
from solver.model.limits import MAX_HEXES, MAX_ID_LENGTH, MAX_MODIFIERS, MAX_REVENUE, MAX_TRAINS
from solver.modifiers.model import (
    AWARDS,
    COMBO_SCOPES,
    COUNT_METHODS,
    MINUS_STOP_REVENUE,
    OVERLAP_SCOPES,
    ROUTE_RULES,
    RULE_SCOPES,
    SET_RULES,
    STOP_COUNTS,
    STOP_REVENUE,
    STOP_SCOPES,
    SUM,
    TARGETS,
    BestRouteBonus,
    ComboBonus,
    CountedStops,
    DropLowestRoute,
    Modifier,
    OverlapRule,
    RequiredRoute,
    RouteRule,
    RouteSetRule,
    StopBonus,
    StopPaysOnce,
)

COMMON = ("type", "source", "label")


def _str(raw: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    if key not in raw and default is not None:
        return default
    value = raw.get(key)
    if not isinstance(value, str):
        raise BoardError(f"{where}.{key}", f"must be a string, got {kind_of(value)}")
    if len(value) > 10 * MAX_ID_LENGTH:
        raise BoardError(f"{where}.{key}", f"at most {10 * MAX_ID_LENGTH} characters allowed")
    return value


def _int(value: Any, where: str, minimum: int = 0, maximum: int = MAX_REVENUE) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BoardError(where, f"must be an integer, got {kind_of(value)}")
    if not minimum <= value <= maximum:
        raise BoardError(where, f"must be in {minimum:,}..{maximum:,}, got {kind_of(value)}")
    return value


def _bool(raw: dict[str, Any], key: str, where: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise BoardError(f"{where}.{key}", f"must be true or false, got {kind_of(value)}")
    return value


def _hex_list(raw: dict[str, Any], key: str, where: str, required: bool) -> tuple[str, ...]:
    if key not in raw and not required:
        return ()
    value = raw.get(key)
    if not isinstance(value, list) or (required and not value) or len(value) > MAX_HEXES:
        raise BoardError(f"{where}.{key}", f"must be a non-empty list of at most {MAX_HEXES:,} hex ids, "
                                           f"got {kind_of(value)}")
    for i, h in enumerate(value):
        if not isinstance(h, str) or not h or len(h) > MAX_ID_LENGTH:
            raise BoardError(f"{where}.{key}[{i}]", f"must be a hex id, got {kind_of(h)}")
    return tuple(value)


def _hex_map(value: Any, where: str, allow_stop_revenue: bool, negative: bool = False) -> tuple[tuple[str, Any], ...]:
    """A non-empty id -> value object: integers (negative ones too, with `negative`), and with
    `allow_stop_revenue` the strings "stop_revenue" and "-stop_revenue"."""
    if not isinstance(value, dict) or not value or len(value) > MAX_HEXES:
        raise BoardError(where, f"must be a non-empty object of at most {MAX_HEXES:,} id -> bonus, "
                                f"got {kind_of(value)}")
    out = []
    for key, bonus in value.items():
        if not isinstance(key, str) or not key or len(key) > MAX_ID_LENGTH:
            raise BoardError(where, f"keys must be ids, got {kind_of(key)}")
        if allow_stop_revenue and isinstance(bonus, str) and bonus in (STOP_REVENUE, MINUS_STOP_REVENUE):
            out.append((key, bonus))
        else:
            out.append((key, _int(bonus, f"{where}.{key}", minimum=-MAX_REVENUE if negative else 0)))
    return tuple(sorted(out))  # order carries no meaning: hits are taken in route order


def _check_keys(raw: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in raw:
        if key not in COMMON + allowed + ("trains",):
            raise BoardError(f"{where}.{key}", f"unknown field of a {raw['type']} modifier")


def _choice(raw: dict[str, Any], key: str, where: str, options: tuple[str, ...], default: str | None = None) -> str:
    if key not in raw and default is not None:
        return default
    value = raw.get(key)
    if not isinstance(value, str) or value not in options:
        raise BoardError(f"{where}.{key}", f"must be one of {', '.join(options)}, got {kind_of(value)}")
    return value


def _str_list(raw: dict[str, Any], key: str, where: str, what: str) -> tuple[str, ...] | None:
    """An optional list of ids (absent: None; `[]` stays empty)."""
    if key not in raw:
        return None
    value = raw[key]
    if not isinstance(value, list) or len(value) > MAX_HEXES:
        raise BoardError(f"{where}.{key}", f"must be a list of {what}, got {kind_of(value)}")
    for i, h in enumerate(value):
        if not isinstance(h, str) or not h or len(h) > MAX_ID_LENGTH:
            raise BoardError(f"{where}.{key}[{i}]", f"must be a {what[:-1]}, got {kind_of(h)}")
    return tuple(value)


def _trains(raw: dict[str, Any], where: str) -> tuple[str, ...] | None:
    """The `trains` field: train names the modifier applies to (absent: every train)."""
    return _str_list(raw, "trains", where, "train names")


def _stop_bonus(raw: dict[str, Any], where: str) -> StopBonus:
    _check_keys(raw, ("hexes", "nodes", "count", "endpoint", "scope", "target"), where)
    count = _choice(raw, "count", where, STOP_COUNTS)
    if ("hexes" in raw) == ("nodes" in raw):
        raise BoardError(f"{where}.hexes", "give exactly one of hexes and nodes")
    scope = _choice(raw, "scope", where, STOP_SCOPES, "counted")
    values = not scope == "path_hexes"  # path hexes are hexes: their values are integers
    key = "hexes" if "hexes" in raw else "nodes"
    if scope == "path_hexes" and key == "nodes":
        raise BoardError(f"{where}.nodes", "a path_hexes bonus is keyed by hexes")
    table = _hex_map(raw.get(key), f"{where}.{key}", values, negative=True)
    return StopBonus(source=_str(raw, "source", where), label=_str(raw, "label", where),
                     hexes=table if key == "hexes" else (), nodes=table if key == "nodes" else (),
                     count=count, endpoint=_bool(raw, "endpoint", where), scope=scope,
                     target=_choice(raw, "target", where, TARGETS, "revenue"), trains=_trains(raw, where))


def _combo_bonus(raw: dict[str, Any], where: str) -> ComboBonus:
    _check_keys(raw, ("sets", "amount", "scope", "exclusive"), where)
    sets = raw.get("sets")
    if not isinstance(sets, list) or not sets or len(sets) > MAX_HEXES:
        raise BoardError(f"{where}.sets", f"must be a non-empty list of hex sets, got {kind_of(sets)}")
    parsed = tuple(_hex_map(s, f"{where}.sets[{i}]", False, negative=True) for i, s in enumerate(sets))
    amount = raw.get("amount")
    if not (isinstance(amount, str) and amount == SUM):
        amount = _int(amount, f"{where}.amount", minimum=-MAX_REVENUE)
    exclusive = _str(raw, "exclusive", where, default="-") if "exclusive" in raw else ""
    if "exclusive" in raw and not exclusive:
        raise BoardError(f"{where}.exclusive", "must be a non-empty string")
    return ComboBonus(source=_str(raw, "source", where), label=_str(raw, "label", where), sets=parsed,
                      amount=amount, scope=_choice(raw, "scope", where, COMBO_SCOPES, "counted"),
                      exclusive=exclusive, trains=_trains(raw, where))


def _counted_stops(raw: dict[str, Any], where: str) -> CountedStops:
    _check_keys(raw, ("method",), where)
    return CountedStops(source=_str(raw, "source", where), label=_str(raw, "label", where),
                        method=_choice(raw, "method", where, COUNT_METHODS), trains=_trains(raw, where))


_RULE_FIELDS = {"min_stops": ("count", "kinds", "hexes", "exclude_nodes"),
                "max_stops": ("count", "kinds", "hexes", "exclude_nodes"),
                "no_hex_revisit": ("hexes",), "forbidden_hexes": ("hexes",)}


def _route_rule(raw: dict[str, Any], where: str) -> RouteRule:
    _check_keys(raw, ("rule", "scope", "error", "count", "kinds", "hexes", "exclude_nodes"), where)
    rule = _choice(raw, "rule", where, ROUTE_RULES)
    for key in ("count", "kinds", "hexes", "exclude_nodes"):
        if key in raw and key not in _RULE_FIELDS[rule]:
            raise BoardError(f"{where}.{key}", f"not a field of a {rule} rule")
    default_scope = "counted" if rule in ("min_stops", "max_stops") else "visited"
    scope = _choice(raw, "scope", where, RULE_SCOPES, default_scope)
    if scope == "path_hexes" and rule != "forbidden_hexes":
        raise BoardError(f"{where}.scope", "path_hexes goes with forbidden_hexes only")
    count = 0
    if rule in ("min_stops", "max_stops"):
        if "count" not in raw:
            raise BoardError(f"{where}.count", f"missing: a {rule} rule needs a count")
        count = _int(raw["count"], f"{where}.count", maximum=MAX_HEXES)
    hexes = _str_list(raw, "hexes", where, "hex ids")
    if rule == "forbidden_hexes" and not hexes:
        raise BoardError(f"{where}.hexes", "a forbidden_hexes rule needs a non-empty list of hex ids")
    kinds = _str_list(raw, "kinds", where, "node kinds")
    for i, k in enumerate(kinds or ()):
        if k not in NODE_KINDS:
            raise BoardError(f"{where}.kinds[{i}]", f"must be one of {', '.join(NODE_KINDS)}, got {kind_of(k)}")
    return RouteRule(source=_str(raw, "source", where), label=_str(raw, "label", where), rule=rule, scope=scope,
                     error=_str(raw, "error", where, default=f"the route breaks {rule}"), count=count, kinds=kinds,
                     hexes=hexes, exclude_nodes=_str_list(raw, "exclude_nodes", where, "node ids") or (),
                     trains=_trains(raw, where))


def _best_route_bonus(raw: dict[str, Any], where: str) -> BestRouteBonus:
    _check_keys(raw, ("award", "per_visited_stop", "amount", "requires_hexes", "stop_kinds", "per_distinct",
                      "distinct_hex_values"), where)
    award = _choice(raw, "award", where, AWARDS)
    given = [k for k in ("per_visited_stop", "amount", "per_distinct") if k in raw]
    if len(given) != 1:
        raise BoardError(f"{where}.amount", "give exactly one of amount, per_visited_stop and per_distinct")
    if ("per_distinct" in raw) != ("distinct_hex_values" in raw):
        raise BoardError(f"{where}.distinct_hex_values", "per_distinct and distinct_hex_values go together")
    values: tuple[tuple[str, str], ...] = ()
    if "distinct_hex_values" in raw:
        table = raw["distinct_hex_values"]
        if not isinstance(table, dict) or not table or len(table) > MAX_HEXES:
            raise BoardError(f"{where}.distinct_hex_values", f"must be a non-empty object of hex id -> value, "
                                                             f"got {kind_of(table)}")
        for h, v in table.items():
            if not h or len(h) > MAX_ID_LENGTH or not isinstance(v, str) or len(v) > MAX_ID_LENGTH:
                raise BoardError(f"{where}.distinct_hex_values.{h}", f"must be a string, got {kind_of(v)}")
        values = tuple(sorted(table.items()))
    kinds = _str_list(raw, "stop_kinds", where, "node kinds")
    for i, k in enumerate(kinds or ()):
        if k not in NODE_KINDS:
            raise BoardError(f"{where}.stop_kinds[{i}]", f"must be one of {', '.join(NODE_KINDS)}, got {kind_of(k)}")
    def num(key: str) -> int:
        return _int(raw[key], f"{where}.{key}") if key in raw else 0

    return BestRouteBonus(source=_str(raw, "source", where), label=_str(raw, "label", where), award=award,
                          per_visited_stop=num("per_visited_stop"), amount=num("amount"),
                          requires_hexes=_hex_list(raw, "requires_hexes", where, False), stop_kinds=kinds,
                          per_distinct=num("per_distinct"), distinct_hex_values=values, trains=_trains(raw, where))


def _required_route(raw: dict[str, Any], where: str) -> RequiredRoute:
    _check_keys(raw, ("endpoint_hexes", "error"), where)
    return RequiredRoute(source=_str(raw, "source", where), label=_str(raw, "label", where),
                         endpoint_hexes=_hex_list(raw, "endpoint_hexes", where, True),
                         error=_str(raw, "error", where, default="a required route is missing"),
                         trains=_trains(raw, where))


def _no_trains(raw: dict[str, Any], where: str) -> None:
    """`trains` on a type whose rule holds for the whole run: only every train is meaningful."""
    if "trains" in raw:
        raise BoardError(f"{where}.trains", f"a {raw['type']} holds for every train of the run; "
                                            "a trains list is not supported on it")


def _drop_lowest(raw: dict[str, Any], where: str) -> DropLowestRoute:
    _check_keys(raw, ("min_routes",), where)
    _no_trains(raw, where)
    return DropLowestRoute(source=_str(raw, "source", where), label=_str(raw, "label", where),
                           min_routes=_int(raw.get("min_routes"), f"{where}.min_routes", minimum=1,
                                           maximum=MAX_TRAINS))


def _route_set_rule(raw: dict[str, Any], where: str) -> RouteSetRule:
    _check_keys(raw, ("rule", "hexes", "count", "error"), where)
    return RouteSetRule(source=_str(raw, "source", where), label=_str(raw, "label", where),
                        rule=_choice(raw, "rule", where, SET_RULES), hexes=_hex_list(raw, "hexes", where, True),
                        count=_int(raw.get("count"), f"{where}.count", maximum=MAX_TRAINS),
                        error=_str(raw, "error", where, default="too many routes visit these hexes"),
                        trains=_trains(raw, where))


def _overlap_rule(raw: dict[str, Any], where: str) -> OverlapRule:
    _check_keys(raw, ("scope", "pools"), where)
    _no_trains(raw, where)
    scope = _choice(raw, "scope", where, OVERLAP_SCOPES)
    pools: list[tuple[str, ...]] = []
    if scope == "pools":
        value = raw.get("pools")
        if not isinstance(value, list) or not value or len(value) > MAX_TRAINS:
            raise BoardError(f"{where}.pools", f"must be a non-empty list of lists of train names, "
                                               f"got {kind_of(value)}")
        seen: set[str] = set()
        for i, pool in enumerate(value):
            names = _str_list({"p": pool}, "p", f"{where}.pools[{i}]", "train names")
            if names is None or not names:
                raise BoardError(f"{where}.pools[{i}]", "must be a non-empty list of train names")
            if seen & set(names):
                raise BoardError(f"{where}.pools[{i}]", f"pools must be disjoint: {sorted(seen & set(names))[0]!r} "
                                                        "is in two pools")
            seen |= set(names)
            pools.append(names)
    elif "pools" in raw:
        raise BoardError(f"{where}.pools", "pools go with scope 'pools' only")
    return OverlapRule(source=_str(raw, "source", where), label=_str(raw, "label", where), scope=scope,
                       pools=tuple(pools))


def _stop_pays_once(raw: dict[str, Any], where: str) -> StopPaysOnce:
    _check_keys(raw, ("groups",), where)
    _no_trains(raw, where)
    return StopPaysOnce(source=_str(raw, "source", where), label=_str(raw, "label", where),
                        groups=_bool(raw, "groups", where))


PARSERS: dict[str, Callable[[dict[str, Any], str], Modifier]] = {
    "StopBonus": _stop_bonus, "ComboBonus": _combo_bonus, "CountedStops": _counted_stops, "RouteRule": _route_rule,
    "BestRouteBonus": _best_route_bonus, "RequiredRoute": _required_route, "DropLowestRoute": _drop_lowest,
    "RouteSetRule": _route_set_rule, "OverlapRule": _overlap_rule, "StopPaysOnce": _stop_pays_once,
}


def modifiers_from_json(raw: Any, where: str = "modifiers") -> tuple[Modifier, ...]:
    """The modifiers of a snapshot's `modifiers` list (callers pass `[]` when the field is absent).
    Unknown types are rejected, never ignored."""
    if not isinstance(raw, list):
        raise BoardError(where, f"must be a list of modifiers, got {kind_of(raw)}")
    if len(raw) > MAX_MODIFIERS:
        raise BoardError(where, f"at most {MAX_MODIFIERS} modifiers allowed (limit), got {len(raw):,}")
    out: list[Modifier] = []
    for i, item in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise BoardError(at, f"must be an object, got {kind_of(item)}")
        kind = item.get("type")
        if not isinstance(kind, str) or kind not in PARSERS:
            raise BoardError(f"{at}.type", f"unknown modifier type {kind_of(kind)}; known: {', '.join(PARSERS)}")
        out.append(PARSERS[kind](item, at))
    return tuple(out)
