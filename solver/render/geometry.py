"""Hex coordinates to pixels: centres, edge midpoints and corners for pointy and flat layouts.

Pure math. A hex id is the engine's letter-number coordinate (`"E18"`). The snapshot's `axes` say
which part is the horizontal grid index: `{"x": "number", "y": "letter"}` (the default for pointy
maps) or `{"x": "letter", "y": "number"}` (the default for flat maps). Letters count from `A` = 0,
numbers from 1 = 0; both grids are "doubled" (a neighbour sits two units away along the long axis),
so one unit is half a hex width on that axis.

Edges follow FORMAT.md: pointy 0 = SW, 1 = W, 2 = NW, 3 = NE, 4 = E, 5 = SE; flat 0 = S, 1 = SW,
2 = NW, 3 = N, 4 = NE, 5 = SE. Pixel y grows downwards (SVG).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from solver.model.errors import BoardError

SQRT3 = math.sqrt(3.0)
LAYOUTS = ("pointy", "flat")
AXIS_PARTS = ("letter", "number")
_COORD = re.compile(r"^([A-Z]+|[a-z]+)(-?\d+)$")

Point = tuple[float, float]


def default_axes(layout: str) -> dict[str, str]:
    """The engine's default axes for a layout."""
    if layout == "flat":
        return {"x": "letter", "y": "number"}
    return {"x": "number", "y": "letter"}


def letter_index(letters: str) -> int:
    """`A` = 0 ... `Z` = 25, `AA` = 26, ... (bijective base 26); lower case counts the other way, before
    `A` (`a` = -1, `b` = -2: the engine's rows and columns beyond a map's first, e.g. 1841's `a4`)."""
    if letters.islower():
        return -1 - letter_index(letters.upper())
    value = 0
    for ch in letters:
        value = value * 26 + (ord(ch) - ord("A") + 1)
    return value - 1


def edge_angle(layout: str, edge: int) -> float:
    """Direction (radians, SVG orientation: 0 = east, pi/2 = south) from a hex centre to the midpoint of `edge`."""
    base = 120.0 if layout == "pointy" else 90.0
    return math.radians((base + 60.0 * (edge % 6)) % 360.0)


def vertex_angle(layout: str, corner: int) -> float:
    """Direction from a hex centre to corner `corner`; corners `edge` and `edge + 1` bound edge `edge`."""
    return edge_angle(layout, corner) - math.radians(30.0)


@dataclass(frozen=True)
class HexGrid:
    """Pixel geometry of one map: `size` is the hex radius (centre to corner) in pixels."""

    layout: str = "pointy"
    axes_x: str = "number"
    axes_y: str = "letter"
    size: float = 40.0

    @classmethod
    def for_board(cls, layout: str, axes: Any = None, size: float = 40.0) -> HexGrid:
        """A grid for a board's layout and its snapshot `axes` (absent: the layout's default)."""
        if layout not in LAYOUTS:
            raise BoardError("layout", f"must be one of {', '.join(LAYOUTS)}, got {layout!r}")
        chosen = default_axes(layout)
        if axes is not None:
            if not isinstance(axes, dict):
                raise BoardError("axes", "must be an object with `x` and `y`")
            chosen = {**chosen, **axes}
        for key in ("x", "y"):
            if chosen[key] not in AXIS_PARTS:
                raise BoardError(f"axes.{key}", f"must be 'letter' or 'number', got {chosen[key]!r}")
        if chosen["x"] == chosen["y"]:
            raise BoardError("axes", "x and y must differ (one 'letter', one 'number')")
        return cls(layout=layout, axes_x=chosen["x"], axes_y=chosen["y"], size=float(size))

    @property
    def apothem(self) -> float:
        """Centre to edge midpoint."""
        return self.size * SQRT3 / 2.0

    def grid_xy(self, hex_id: str) -> tuple[int, int]:
        """The (x, y) grid indexes of a hex id, per the axes."""
        m = _COORD.match(hex_id)
        if not m:
            raise BoardError(f"hexes[{hex_id}].id", "not a letter-number coordinate such as 'E18' or 'a4'")
        parts = {"letter": letter_index(m.group(1)), "number": int(m.group(2)) - 1}
        return parts[self.axes_x], parts[self.axes_y]

    def centre(self, hex_id: str) -> Point:
        """Pixel centre of a hex."""
        x, y = self.grid_xy(hex_id)
        if self.layout == "pointy":
            return x * self.apothem, y * 1.5 * self.size
        return x * 1.5 * self.size, y * self.apothem

    def edge_midpoint(self, hex_id: str, edge: int) -> Point:
        """Pixel midpoint of one edge of a hex."""
        cx, cy = self.centre(hex_id)
        a = edge_angle(self.layout, edge)
        return cx + self.apothem * math.cos(a), cy + self.apothem * math.sin(a)

    def corners(self, hex_id: str) -> list[Point]:
        """The six corner points, corner `i` and `i + 1` bounding edge `i`."""
        cx, cy = self.centre(hex_id)
        return [(cx + self.size * math.cos(vertex_angle(self.layout, i)),
                 cy + self.size * math.sin(vertex_angle(self.layout, i))) for i in range(6)]

    def edge_corners(self, hex_id: str, edge: int) -> tuple[Point, Point]:
        """The two corners of an edge, in clockwise order around the hex."""
        pts = self.corners(hex_id)
        return pts[edge % 6], pts[(edge + 1) % 6]

    def edge_tangent(self, edge: int) -> Point:
        """Unit vector along an edge, clockwise around the hex (SVG orientation)."""
        a = edge_angle(self.layout, edge) + math.pi / 2.0
        return math.cos(a), math.sin(a)

    def edge_normal(self, edge: int) -> Point:
        """Unit vector from the centre towards an edge's midpoint."""
        a = edge_angle(self.layout, edge)
        return math.cos(a), math.sin(a)


def link_errors(grid: HexGrid, centres: dict[str, Point], links: dict[str, dict[int, str]]) -> int:
    """How many neighbour links (hex, edge -> hex) do not sit across that edge in `centres`."""
    bad = 0
    for hid, nbrs in links.items():
        if hid not in centres:
            continue
        cx, cy = centres[hid]
        for edge, other in nbrs.items():
            if other not in centres:
                continue
            nx, ny = grid.edge_normal(edge)
            ox, oy = centres[other]
            if math.hypot(cx + 2 * grid.apothem * nx - ox, cy + 2 * grid.apothem * ny - oy) > 1e-6 * grid.size:
                bad += 1
    return bad


def place_hexes(grid: HexGrid, links: dict[str, dict[int, str]]) -> dict[str, Point]:
    """Pixel centres of the hexes (keys of `links`, with their neighbour links).

    Hexes sit at their coordinates. Only when the neighbour links contradict the coordinates more
    often than a walk along the links would (a hand-made board whose ids do not follow the grid)
    are they placed by that walk, so that track still meets at the shared edges.
    """
    by_coords = {hid: grid.centre(hid) for hid in links}
    bad = link_errors(grid, by_coords, links)
    if not bad:
        return by_coords
    walked: dict[str, Point] = {}
    for root in links:
        if root in walked:
            continue
        walked[root] = by_coords[root]
        queue = [root]
        while queue:
            hid = queue.pop(0)
            cx, cy = walked[hid]
            for edge in sorted(links[hid]):
                other = links[hid][edge]
                if other in links and other not in walked:
                    nx, ny = grid.edge_normal(edge)
                    walked[other] = (cx + 2 * grid.apothem * nx, cy + 2 * grid.apothem * ny)
                    queue.append(other)
    return walked if link_errors(grid, walked, links) < bad else by_coords
