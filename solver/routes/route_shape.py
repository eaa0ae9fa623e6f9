"""What a route walk gives and obeys: a walked route (`RouteShape`) and the nodes a walk may use (`WalkRules`),
shared by the Python walk (`walk`) and the compiled one (`walk_native`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from solver.model.board import NODE_KINDS
from solver.model.legs import Leg


@dataclass(frozen=True)
class WalkRules:
    """Which nodes a route walk may use: as stops at all, in the middle, as first and last stop."""

    visitable: frozenset[str]
    passable: frozenset[str]
    starts: frozenset[str]
    ends: frozenset[str]
    one_per_hex: bool = False


class RouteShape(NamedTuple):
    """A walked route before pricing: a tuple (the walk makes many, and unpacks them in its hot loops)."""

    nodes: tuple[str, ...]
    legs: tuple[Leg, ...]
    mask: int  # the track it occupies, as bits
    crossings: int  # hex crossings
    cost: int  # visit cost (on a walk with a list train's `ReachBound`: its count of the limiting row's stops)
    token: bool  # whether a stop has the company's token
    kinds: int  # the visit cost per node kind (`walk.kind_code`)


CHECK_EVERY = 1024  # route-walk steps between looks at the clock and the cancel token
KIND_BITS = 20  # a route's visit cost of one kind stays below 2**20 (MAX_NODES x MAX_VISIT_COST)
KIND_SHIFT = {k: KIND_BITS * i for i, k in enumerate(NODE_KINDS)}  # a route's visit cost per kind, KIND_BITS a kind
