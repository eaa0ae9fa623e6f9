"""The board model the rules read: hexes, nodes, paths, trains and the operating company.

Plain dataclasses, independent of any wire format. `solver.input.snapshot` fills them from a
corpus snapshot; `server.convert` fills them from the protobuf board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

NODE_KINDS = ("city", "town", "offboard", "junction", "halt", "pass")
TRACK_GAUGES = ("broad", "narrow", "dual")
DISTANCE_UNITS = ("stops", "stops_by_type", "hexes", "none", "express", "flood")
TRAIN_CLASSES = ("", "freight", "passenger")
UNLIMITED = 999


@dataclass(frozen=True)
class PathEnd:
    """One end of a path: a hex edge (0..5) or a node id in the same hex."""

    edge: int | None = None
    node: str | None = None

    @property
    def is_edge(self) -> bool:
        return self.edge is not None


@dataclass(frozen=True)
class Path:
    """A track segment inside one hex."""

    id: str
    hex: str
    a: PathEnd
    b: PathEnd
    track: str = "broad"
    lanes: tuple[tuple[int, int], tuple[int, int]] = ((1, 0), (1, 0))
    terminal: bool = False
    ignore: bool = False
    ignore_gauge_walk: bool = False

    def lane_at(self, end: PathEnd) -> tuple[int, int]:
        """The `(width, index)` lane at the given end of this path."""
        return self.lanes[0] if end == self.a else self.lanes[1]

    def other(self, end: PathEnd) -> PathEnd:
        return self.b if end == self.a else self.a


@dataclass
class Token:
    corp: str
    status: str = "active"
    type: str = "normal"


@dataclass
class Node:
    """A revenue location or junction."""

    id: str
    hex: str
    kind: str
    revenue: int = 0
    revenue_by_train: dict[str, int] = field(default_factory=dict)
    visit_cost: int = 1
    route: str = "mandatory"
    groups: tuple[str, ...] = ()
    slots: int = 0
    tokens: list[Token | None] = field(default_factory=list)
    blocks: bool = False
    terminal: bool = False
    tokened_by_company: bool = False
    near_edge: int | float | None = None  # a half edge (5.5) places a town between two edges
    sig: str = ""
    klass: str = ""  # 1871sc: "freight" (square), "passenger" (round) or "" (both)
    token_class: str = ""  # 1871sc: the class of the company's token here ("" when unclassed)
    country: str = ""  # 1839: the foreign country of an off-board
    exchange_owner: str = ""  # 1839: the company whose exchange marker is here
    extra: dict[str, Any] = field(default_factory=dict)


def route_may_pass(node: Node) -> bool:
    """Whether a route may pass through this stop (a blocking or terminal stop only ends a route)."""
    return not (node.terminal or node.blocks)


@dataclass
class Hex:
    id: str
    neighbors: dict[int, str] = field(default_factory=dict)
    nodes: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    tile: str = ""
    color: str = ""
    framed: bool = False
    location: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DistanceRow:
    """One row of an n+m or "+" train: node kinds it accepts, how many pay, how many it may visit."""

    kinds: tuple[str, ...]
    pay: int
    visit: int
    multiplier: int = 1


@dataclass(frozen=True)
class Train:
    """A train that runs at most one route."""

    id: str
    name: str
    unit: str = "stops"
    distance: int = 2
    rows: tuple[DistanceRow, ...] = ()
    multiplier: int = 1
    local: bool = False
    requires_token: bool = True
    klass: str = ""  # 1871sc train class: "freight" or "passenger" ("" serves every node)
    by_hex: bool = False  # express trains: pay the best `distance` hexes rather than stops
    extra: tuple[tuple[str, Any], ...] = ()

    def spec_key(self) -> tuple:
        """Trains with equal keys are interchangeable for routing and revenue."""
        return (self.name, self.unit, self.distance, self.rows, self.multiplier, self.local,
                self.requires_token, self.klass, self.by_hex, self.extra)


@dataclass
class Board:
    """Everything a route rule reads about one position."""

    ruleset: str
    company: str
    hexes: dict[str, Hex]
    nodes: dict[str, Node]
    paths: dict[str, Path]
    trains: list[Train]
    phase: str = ""
    layout: str = "pointy"
    company_tokens: list[tuple[str, str]] = field(default_factory=list)
    company_type: str = "corporation"  # or "minor"
    source: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)  # ruleset request options (1839 privates, ...)
    modifiers: tuple = ()  # game-specific route rules as data (solver.modifiers.model)
    revenue_model: str = ""  # the snapshot's `revenue_model` ("generic", "modifiers", ...), "" when not given
    extra: dict[str, Any] = field(default_factory=dict)
    # the legs walked on boards read before with one `HexReuse` (`solver.model.walk_memo.BoardWalks`), or None
    walks: Any = field(default=None, compare=False, repr=False)
    # the claimed legs checked on this board (`solver.model.leg_checks.LegChecks`), or None: never copied
    leg_checks: Any = field(default=None, init=False, compare=False, repr=False)
    # what a ruleset keeps of this board between its requests on it, bound to its track like `leg_checks`, or None:
    # never copied (`solver.rulesets.r_1873.candidates.company_routes`)
    ruleset_memo: Any = field(default=None, init=False, compare=False, repr=False)

    def holds_track_of(self, other: Any) -> bool:
        """Whether this board holds the very hexes, nodes and paths dicts `other` holds (a board, or a memo kept
        beside one: a board made from it with `replace` and other ones does not)."""
        return self.hexes is other.hexes and self.nodes is other.nodes and self.paths is other.paths

    def train(self, train_id: str) -> Train:
        for t in self.trains:
            if t.id == train_id:
                return t
        raise KeyError(train_id)

    def label(self) -> str:
        """A short name of the position for messages: title, fixture and action."""
        s = self.source
        if not s:
            return f"{self.ruleset} board, company {self.company}"
        return f"{s.get('title', '?')} {s.get('fixture', '?')} action {s.get('action_id', '?')}"
