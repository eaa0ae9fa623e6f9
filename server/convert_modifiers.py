"""Mapping of the modifiers between the protocol and the solver's model.

A protobuf Modifier is turned into the snapshot's JSON form and read by the same strict parser
as a snapshot (`solver.modifiers.parse`), so both inputs obey one set of checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from routemax.v1 import routemax_pb2 as pb
from solver.errors import BoardError
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
from solver.modifiers.model import STOP_REVENUE, SUM

COUNTS = {pb.STOP_COUNT_ONCE: "once", pb.STOP_COUNT_PER_HEX: "per_hex", pb.STOP_COUNT_PER_STOP: "per_stop"}
AWARDS = {pb.AWARD_MOST_VISITED_STOPS: "most_visited_stops", pb.AWARD_LAST: "last"}
TYPES = {"stop_bonus": "StopBonus", "combo_bonus": "ComboBonus", "best_route_bonus": "BestRouteBonus",
         "required_route": "RequiredRoute", "drop_lowest_route": "DropLowestRoute"}


def _bonus_value(v: pb.BonusValue) -> Any:
    which = v.WhichOneof("value")
    return v.amount if which == "amount" else STOP_REVENUE if which == "stop_revenue" and v.stop_revenue else None


def _as_json(msg: pb.Modifier, where: str) -> dict[str, Any]:
    kind = msg.WhichOneof("kind")
    if kind not in TYPES:
        raise BoardError(f"{where}.kind", f"a modifier needs a kind ({', '.join(TYPES)}); got none or an unknown one")
    out: dict[str, Any] = {"type": TYPES[kind], "source": msg.source, "label": msg.label}
    if kind == "stop_bonus":
        m = msg.stop_bonus
        out.update(hexes={h: _bonus_value(v) for h, v in m.hexes.items()}, count=COUNTS.get(m.count),
                   endpoint=m.endpoint)
    elif kind == "combo_bonus":
        m = msg.combo_bonus
        which = m.WhichOneof("amount")
        out.update(sets=[dict(s.hexes) for s in m.sets],
                   amount=m.fixed if which == "fixed" else SUM if which == "sum" and m.sum else None)
    elif kind == "best_route_bonus":
        m = msg.best_route_bonus
        out["award"] = AWARDS.get(m.award)
        which = m.WhichOneof("bonus")
        if which:
            out[which] = getattr(m, which)
        if m.requires_hexes:
            out["requires_hexes"] = list(m.requires_hexes)
    elif kind == "required_route":
        out.update(endpoint_hexes=list(msg.required_route.endpoint_hexes), error=msg.required_route.error)
    else:
        out["min_routes"] = msg.drop_lowest_route.min_routes
    return out


def modifiers_from_proto(msgs: Sequence[pb.Modifier], where: str = "board.modifiers") -> tuple[Modifier, ...]:
    """The model modifiers of a protobuf board; BoardError names the field."""
    return modifiers_from_json([_as_json(m, f"{where}[{i}]") for i, m in enumerate(msgs)], where)


def modifier_to_proto(m: Modifier) -> pb.Modifier:
    msg = pb.Modifier(source=m.source, label=m.label)
    if isinstance(m, StopBonus):
        msg.stop_bonus.count = {v: k for k, v in COUNTS.items()}[m.count]
        msg.stop_bonus.endpoint = m.endpoint
        for h, v in m.hexes:
            if v == STOP_REVENUE:
                msg.stop_bonus.hexes[h].stop_revenue = True
            else:
                msg.stop_bonus.hexes[h].amount = int(v)
    elif isinstance(m, ComboBonus):
        for s in m.sets:
            msg.combo_bonus.sets.add().hexes.update(dict(s))
        if m.amount == SUM:
            msg.combo_bonus.sum = True
        else:
            msg.combo_bonus.fixed = int(m.amount)
    elif isinstance(m, BestRouteBonus):
        msg.best_route_bonus.award = {v: k for k, v in AWARDS.items()}[m.award]
        msg.best_route_bonus.requires_hexes.extend(m.requires_hexes)
        if m.per_visited_stop:
            msg.best_route_bonus.per_visited_stop = m.per_visited_stop
        else:
            msg.best_route_bonus.amount = m.amount
    elif isinstance(m, RequiredRoute):
        msg.required_route.endpoint_hexes.extend(m.endpoint_hexes)
        msg.required_route.error = m.error
    elif isinstance(m, DropLowestRoute):
        msg.drop_lowest_route.min_routes = m.min_routes
    return msg


def bonus_line_to_proto(line: BonusLine) -> pb.BonusLine:
    return pb.BonusLine(label=line.label, amount=line.amount, source=line.source)
