"""What the renderer draws for one route, and ways to build it from recorded or solved routes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.model.errors import BoardError


@dataclass(frozen=True)
class RouteDrawing:
    """One route to draw over the map."""

    train: str  # train id
    nodes: tuple[str, ...]  # stop node ids in order
    legs: tuple[tuple[str, ...], ...]  # per leg, the path ids in order
    stop_revenues: tuple[int, ...] = ()
    revenue: int = 0
    findings: tuple[str, ...] = ()  # evaluator messages for this route (shown in the legend)
    bad_legs: tuple[int, ...] = ()  # indexes of legs that are illegal or blocked (drawn marked)


def from_recorded(raw: Mapping[str, Any]) -> list[RouteDrawing]:
    """The recorded routes of a snapshot (`raw["recorded"]["routes"]`); none when nothing was recorded."""
    recorded = raw.get("recorded") or {}
    routes = recorded.get("routes") or []
    out = []
    for i, r in enumerate(routes):
        where = f"recorded.routes[{i}]"
        if not isinstance(r, Mapping):
            raise BoardError(where, "must be an object")
        legs = r.get("legs") or []
        if not isinstance(legs, list) or not all(isinstance(leg, list) for leg in legs):
            raise BoardError(where + ".legs", "must be a list of path id lists")
        out.append(RouteDrawing(train=str(r.get("train", "")), nodes=tuple(r.get("nodes") or ()),
                                legs=tuple(tuple(leg) for leg in legs), revenue=int(r.get("revenue") or 0)))
    return out


def from_priced(routes: Iterable[Any], findings: Sequence[Any] = ()) -> list[RouteDrawing]:
    """Drawings of priced routes (objects with `train`, `nodes`, `legs` of `.paths`, `stop_revenues`,
    `revenue`), with the messages of evaluator findings (`.route`, `.message`) attached per route."""
    out = []
    for i, r in enumerate(routes):
        mine = tuple(f.message for f in findings if getattr(f, "route", -1) == i)
        out.append(RouteDrawing(train=r.train, nodes=tuple(r.nodes), legs=tuple(tuple(leg.paths) for leg in r.legs),
                                stop_revenues=tuple(r.stop_revenues), revenue=int(r.revenue), findings=mine))
    return out
