"""Read a snapshot's `modifiers` list strictly: every wrong value is a BoardError naming its field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.errors import BoardError
from solver.jsonread import kind_of
from solver.limits import MAX_HEXES, MAX_ID_LENGTH, MAX_MODIFIERS, MAX_REVENUE, MAX_TRAINS
from solver.modifiers.model import (
    AWARDS,
    STOP_COUNTS,
    STOP_REVENUE,
    SUM,
    BestRouteBonus,
    BonusValue,
    ComboBonus,
    DropLowestRoute,
    Modifier,
    RequiredRoute,
    StopBonus,
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


def _hex_map(value: Any, where: str, allow_stop_revenue: bool) -> tuple[tuple[str, Any], ...]:
    if not isinstance(value, dict) or not value or len(value) > MAX_HEXES:
        raise BoardError(where, f"must be a non-empty object of at most {MAX_HEXES:,} hex id -> bonus, "
                                f"got {kind_of(value)}")
    out = []
    for hex_id, bonus in value.items():
        if not isinstance(hex_id, str) or not hex_id or len(hex_id) > MAX_ID_LENGTH:
            raise BoardError(where, f"keys must be hex ids, got {kind_of(hex_id)}")
        if allow_stop_revenue and isinstance(bonus, str) and bonus == STOP_REVENUE:
            out.append((hex_id, STOP_REVENUE))
        else:
            out.append((hex_id, _int(bonus, f"{where}.{hex_id}")))
    return tuple(sorted(out))  # order carries no meaning: hits are taken in route order


def _check_keys(raw: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in raw:
        if key not in COMMON + allowed:
            raise BoardError(f"{where}.{key}", f"unknown field of a {raw['type']} modifier")


def _stop_bonus(raw: dict[str, Any], where: str) -> StopBonus:
    _check_keys(raw, ("hexes", "count", "endpoint"), where)
    count = raw.get("count")
    if not isinstance(count, str) or count not in STOP_COUNTS:
        raise BoardError(f"{where}.count", f"must be one of {', '.join(STOP_COUNTS)}, got {kind_of(count)}")
    hexes: tuple[tuple[str, BonusValue], ...] = _hex_map(raw.get("hexes"), f"{where}.hexes", True)
    return StopBonus(source=_str(raw, "source", where), label=_str(raw, "label", where), hexes=hexes,
                     count=count, endpoint=_bool(raw, "endpoint", where))


def _combo_bonus(raw: dict[str, Any], where: str) -> ComboBonus:
    _check_keys(raw, ("sets", "amount"), where)
    sets = raw.get("sets")
    if not isinstance(sets, list) or not sets or len(sets) > MAX_HEXES:
        raise BoardError(f"{where}.sets", f"must be a non-empty list of hex sets, got {kind_of(sets)}")
    parsed = tuple(_hex_map(s, f"{where}.sets[{i}]", False) for i, s in enumerate(sets))
    amount = raw.get("amount")
    if not (isinstance(amount, str) and amount == SUM):
        amount = _int(amount, f"{where}.amount")
    return ComboBonus(source=_str(raw, "source", where), label=_str(raw, "label", where), sets=parsed,
                      amount=amount)


def _best_route_bonus(raw: dict[str, Any], where: str) -> BestRouteBonus:
    _check_keys(raw, ("award", "per_visited_stop", "amount", "requires_hexes"), where)
    award = raw.get("award")
    if not isinstance(award, str) or award not in AWARDS:
        raise BoardError(f"{where}.award", f"must be one of {', '.join(AWARDS)}, got {kind_of(award)}")
    if ("per_visited_stop" in raw) == ("amount" in raw):
        raise BoardError(f"{where}.amount", "give exactly one of amount and per_visited_stop")
    per_stop = _int(raw["per_visited_stop"], f"{where}.per_visited_stop") if "per_visited_stop" in raw else 0
    amount = _int(raw["amount"], f"{where}.amount") if "amount" in raw else 0
    return BestRouteBonus(source=_str(raw, "source", where), label=_str(raw, "label", where), award=award,
                          per_visited_stop=per_stop, amount=amount,
                          requires_hexes=_hex_list(raw, "requires_hexes", where, False))


def _required_route(raw: dict[str, Any], where: str) -> RequiredRoute:
    _check_keys(raw, ("endpoint_hexes", "error"), where)
    return RequiredRoute(source=_str(raw, "source", where), label=_str(raw, "label", where),
                         endpoint_hexes=_hex_list(raw, "endpoint_hexes", where, True),
                         error=_str(raw, "error", where, default="a required route is missing"))


def _drop_lowest(raw: dict[str, Any], where: str) -> DropLowestRoute:
    _check_keys(raw, ("min_routes",), where)
    return DropLowestRoute(source=_str(raw, "source", where), label=_str(raw, "label", where),
                           min_routes=_int(raw.get("min_routes"), f"{where}.min_routes", minimum=1,
                                           maximum=MAX_TRAINS))


PARSERS: dict[str, Callable[[dict[str, Any], str], Modifier]] = {
    "StopBonus": _stop_bonus, "ComboBonus": _combo_bonus, "BestRouteBonus": _best_route_bonus,
    "RequiredRoute": _required_route, "DropLowestRoute": _drop_lowest,
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
