"""A raw snapshot object as a protobuf Board, field for field, without any checks of the solver's own,
so that both input paths can be fed the same (possibly bad) board. None when the protocol cannot
carry it (a value of another type, a null, a number outside int32, a train multiplier of 0, which the
protocol reads as 1, ...)."""

from __future__ import annotations

from typing import Any

from routemax.v1 import routemax_pb2 as pb
from server.convert_modifiers import modifier_to_proto
from solver.model.errors import BoardError
from solver.modifiers.parse import modifiers_from_json

INT32 = 2**31 - 1


class NotCarried(Exception):
    """The protocol has no way to say this."""


def _int(v: Any, zero_ok: bool = True) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not -INT32 - 1 <= v <= INT32 or (v == 0 and not zero_ok):
        raise NotCarried
    return v


def _str(v: Any) -> str:
    if not isinstance(v, str):
        raise NotCarried
    return v


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise NotCarried
    return v


def _obj(v: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise NotCarried
    return v


def _list(v: Any) -> list[Any]:
    if not isinstance(v, list):
        raise NotCarried
    return v


def _not_carried() -> Any:
    raise NotCarried


def _get(raw: dict[str, Any], key: str, default: Any) -> Any:
    if key in raw and raw[key] is None:
        raise NotCarried
    return raw.get(key, default)


def _end(v: Any, target: pb.PathEnd) -> None:
    if isinstance(v, bool):
        raise NotCarried
    if isinstance(v, int):
        target.edge = _int(v)
    else:
        target.node = _str(v)


def _node(raw: dict[str, Any], msg: pb.Node) -> None:
    raw = _obj(raw)
    msg.id, msg.kind = _str(_get(raw, "id", "")), _str(_get(raw, "kind", ""))
    msg.revenue = _int(_get(raw, "revenue", 0))
    for k, v in _obj(_get(raw, "revenue_by_train", {})).items():
        msg.revenue_by_train[k] = _int(v)
    if "visit_cost" in raw:
        msg.visit_cost = _int(_get(raw, "visit_cost", 1))
    msg.route = _str(_get(raw, "route", ""))
    msg.groups.extend(_str(g) for g in _list(_get(raw, "groups", [])))
    msg.slots = _int(_get(raw, "slots", 0))
    for t in _list(_get(raw, "tokens", [])):
        slot = msg.tokens.add()
        if t is not None:
            t = _obj(t)
            slot.token.CopyFrom(pb.Token(corp=_str(_get(t, "corp", "")), status=_str(_get(t, "status", "")),
                                         type=_str(_get(t, "type", ""))))
    for key in ("blocks", "terminal", "tokened_by_company"):
        setattr(msg, key, _bool(_get(raw, key, False)))
    edge = raw.get("near_edge")
    if isinstance(edge, float) and (edge * 2).is_integer() and edge != int(edge):
        msg.near_edge_halves = _int(int(edge * 2))  # a town between two edges
    elif edge is not None:
        msg.near_edge = _int(int(edge) if isinstance(edge, float) and edge.is_integer() else edge)
    for key, field in (("sig", "sig"), ("class", "train_class"), ("token_class", "token_class"),
                       ("country", "country"), ("exchange_owner", "exchange_owner")):
        setattr(msg, field, _str(_get(raw, key, "")))


def _path(raw: dict[str, Any], msg: pb.Path) -> None:
    raw = _obj(raw)
    msg.id, msg.track = _str(_get(raw, "id", "")), _str(_get(raw, "track", ""))
    if "a" not in raw or "b" not in raw:
        raise NotCarried
    _end(raw["a"], msg.a)
    _end(raw["b"], msg.b)
    lanes = _list(_get(raw, "lanes", []))
    if lanes:
        if len(lanes) != 2:
            raise NotCarried
        for pair in lanes:
            pair = _list(pair)
            if len(pair) != 2:
                raise NotCarried
            msg.lanes.add(width=_int(pair[0]), index=_int(pair[1]))
    for key in ("terminal", "ignore", "ignore_gauge_walk"):
        setattr(msg, key, _bool(_get(raw, key, False)))


def _train(raw: dict[str, Any], msg: pb.Train) -> None:
    raw = _obj(raw)
    msg.id, msg.name = _str(_get(raw, "id", "")), _str(_get(raw, "name", ""))
    if "super" in raw:
        msg.super_train = _str(raw["super"]) or _not_carried()  # "" reads as absent
    if "diesel" in raw:
        msg.diesel = _bool(raw["diesel"])
    if "type" in raw:
        msg.type = _str(raw["type"]) or _not_carried()
    unit, dist = _str(_get(raw, "distance_unit", "stops")), _get(raw, "distance", None)
    if unit == "stops_by_type":
        for r in _list(dist):
            r = _obj(r)
            row = msg.distance.stops_by_type.rows.add(kinds=[_str(k) for k in _list(_get(r, "nodes", []))],
                                                      pay=_int(_get(r, "pay", 0)))
            row.row_multiplier = _int(_get(r, "multiplier", 1))  # 0 included (a row that pays nothing)
            if "visit" in r:
                row.visit = _int(_get(r, "visit", 0))
        if not msg.distance.stops_by_type.rows:
            raise NotCarried
    elif unit in ("stops", "hexes"):
        setattr(msg.distance, unit, _int(dist))
    elif unit == "express":
        msg.distance.express.stops = _int(dist)
    elif unit == "none":
        msg.distance.no_limit.SetInParent()
        msg.distance.no_limit.distance = _int(dist)
    else:
        raise NotCarried
    msg.multiplier = _int(_get(raw, "multiplier", 1), zero_ok=False)
    msg.local, msg.by_hex = _bool(_get(raw, "local", False)), _bool(_get(raw, "by_hex", False))
    msg.requires_token = _bool(_get(raw, "requires_token", True))
    msg.train_class = _str(_get(raw, "class", ""))


def board_from_raw(raw: dict[str, Any]) -> pb.Board | None:
    """The protobuf form of a raw snapshot object, or None when the protocol cannot carry it."""
    try:
        return _board(raw)
    except NotCarried:
        return None


def _board(raw: dict[str, Any]) -> pb.Board:
    raw = _obj(raw)
    if raw.get("format") != "18xx-route-snapshot/1" or {"h1873", "options", "super_trains"} & set(raw):
        raise NotCarried
    msg = pb.Board(ruleset=_str(_get(raw, "ruleset", "")), layout=_str(_get(raw, "layout", "")),
                   revenue_model=_str(_get(raw, "revenue_model", "")))
    msg.phase.name = _str(_get(_obj(_get(raw, "phase", {})), "name", ""))
    company = _obj(_get(raw, "company", {}))
    msg.company.id, msg.company.type = _str(_get(company, "id", "")), _str(_get(company, "type", ""))
    home = company.get("home")
    if home is not None:
        msg.company.home.extend(_str(h) for h in ([home] if isinstance(home, str) else _list(home)))
    for t in _list(_get(company, "tokens", [])):
        t = _obj(t)
        msg.company.tokens.add(hex=_str(_get(t, "hex", "")), node=_str(_get(t, "node", "")))
    source = _obj(_get(raw, "source", {}))
    msg.source.title, msg.source.fixture = _str(_get(source, "title", "")), _str(_get(source, "fixture", ""))
    if "action_id" in source:
        msg.source.action_id = _int(_get(source, "action_id", 0))
    if "position" in source:
        msg.source.position = _int(_get(source, "position", 0))
    if "axes" in raw:
        axes = _obj(_get(raw, "axes", {}))
        if set(axes) != {"x", "y"}:
            raise NotCarried
        msg.axes = f"x={_str(axes['x'])},y={_str(axes['y'])}"
    for t in _list(_get(raw, "trains", [])):
        _train(t, msg.trains.add())
    for h in _list(_get(raw, "hexes", [])):
        h = _obj(h)
        if "h1873" in h or any(isinstance(n, dict) and "h1873" in n for n in _list(_get(h, "nodes", []))):
            raise NotCarried
        hm = msg.hexes.add(id=_str(_get(h, "id", "")), tile=_str(_get(h, "tile", "")),
                           color=_str(_get(h, "color", "")), framed=_bool(_get(h, "framed", False)),
                           location=_str(_get(h, "location", "")))
        for e, other in _obj(_get(h, "neighbors", {})).items():
            if not e.lstrip("-").isdigit() or e != str(int(e)):
                raise NotCarried
            hm.neighbors[_int(int(e))] = _str(other)
        for n in _list(_get(h, "nodes", [])):
            _node(n, hm.nodes.add())
        for p in _list(_get(h, "paths", [])):
            _path(p, hm.paths.add())
    if "modifiers" in raw:
        try:
            mods = modifiers_from_json(raw["modifiers"])
        except BoardError:
            raise NotCarried from None
        msg.modifiers.extend(modifier_to_proto(m) for m in mods)
    return msg
