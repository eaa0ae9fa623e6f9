"""Where things go inside a hex: node positions, path curves and route polylines. Pure math."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from solver.model.board import Board, Hex, Path, PathEnd
from solver.render.geometry import HexGrid, Point, edge_angle, vertex_angle

LANE_GAP = 0.16  # lane spacing along an edge, in hex sizes
CURVE_SAMPLES = 10


@dataclass(frozen=True)
class HexFrame:
    """One hex placed on the map: its centre and the grid it belongs to."""

    grid: HexGrid
    centre: Point

    def at(self, angle: float, radius: float) -> Point:
        return self.centre[0] + radius * math.cos(angle), self.centre[1] + radius * math.sin(angle)

    def edge_point(self, edge: int, lane: tuple[int, int] = (1, 0)) -> Point:
        """Midpoint of an edge, moved along it for lane `(width, index)`."""
        mx, my = self.at(edge_angle(self.grid.layout, edge), self.grid.apothem)
        width, index = lane
        shift = (index - (width - 1) / 2.0) * LANE_GAP * self.grid.size
        tx, ty = self.grid.edge_tangent(edge)
        return mx + shift * tx, my + shift * ty

    def corners(self) -> list[Point]:
        return [self.at(vertex_angle(self.grid.layout, i), self.grid.size) for i in range(6)]


def node_exits(board: Board, hx: Hex) -> dict[str, list[int]]:
    """Per node of the hex, the edges its paths reach directly."""
    exits: dict[str, list[int]] = {nid: [] for nid in hx.nodes}
    for pid in hx.paths:
        path = board.paths.get(pid)
        if path is None:
            continue
        for end, other in ((path.a, path.b), (path.b, path.a)):
            if end.node in exits and other.edge is not None:
                exits[end.node].append(other.edge)
    return exits


def _pull(layout: str, edges: Sequence[int]) -> tuple[float, float]:
    """Sum of the unit vectors towards the given edges."""
    return (sum(math.cos(edge_angle(layout, e)) for e in edges),
            sum(math.sin(edge_angle(layout, e)) for e in edges))


def node_positions(board: Board, hx: Hex, frame: HexFrame) -> dict[str, Point]:
    """Positions of the hex's nodes: one node at the centre (a town with `near_edge` next to that edge);
    several on a ring, each turned as far as possible towards its own exits, never overlapping."""
    layout, ap = frame.grid.layout, frame.grid.apothem
    ids = list(hx.nodes)
    if not ids:
        return {}
    if len(ids) == 1:
        node = board.nodes.get(ids[0])
        if node is not None and node.near_edge is not None:
            return {ids[0]: frame.at(edge_angle(layout, node.near_edge), 0.55 * ap)}
        return {ids[0]: frame.centre}
    exits = node_exits(board, hx)
    pulls = []
    for nid in ids:
        node = board.nodes.get(nid)
        near = [node.near_edge] * 3 if node is not None and node.near_edge is not None else []
        pulls.append(_pull(layout, exits[nid] + near))
    k = len(ids)
    step = 2 * math.pi / k
    best: tuple[float, float, tuple[int, ...]] | None = None
    orders = list(itertools.permutations(range(k))) if k <= 5 else [tuple(range(k))]
    for turn in range(24):
        base = math.radians(15 * turn)
        for order in orders:
            score = -sum(px * math.cos(base + step * slot) + py * math.sin(base + step * slot)
                         for (px, py), slot in zip(pulls, order))
            if best is None or score < best[0] - 1e-9:
                best = (score, base, order)
    assert best is not None
    _, base, order = best
    radius = (0.5 if k == 2 else 0.56) * ap
    return {nid: frame.at(base + step * slot, radius) for nid, slot in zip(ids, order)}


def free_direction(layout: str, exits: Sequence[int], avoid: Sequence[float] = ()) -> float:
    """The corner direction farthest from every exit edge (and from the `avoid` angles)."""
    taken = [edge_angle(layout, e) for e in exits] + list(avoid)
    best_angle, best_gap = vertex_angle(layout, 0), -1.0
    for corner in range(6):
        a = vertex_angle(layout, corner)
        gap = min((abs((a - t + math.pi) % (2 * math.pi) - math.pi) for t in taken), default=math.pi)
        if gap > best_gap + 1e-9:
            best_angle, best_gap = a, gap
    return best_angle


def _end_point(end: PathEnd, lane: tuple[int, int], frame: HexFrame, nodes: dict[str, Point]) -> Point:
    if end.edge is not None:
        return frame.edge_point(end.edge, lane)
    return nodes.get(end.node or "", frame.centre)


def path_curve(path: Path, frame: HexFrame, nodes: dict[str, Point]) -> tuple[Point, Point, Point, Point]:
    """Cubic Bézier control points of a path from end `a` to end `b`."""
    p0 = _end_point(path.a, path.lanes[0], frame, nodes)
    p3 = _end_point(path.b, path.lanes[1], frame, nodes)
    chord = math.dist(p0, p3)

    def handle(end: PathEnd, p: Point, other: Point) -> Point:
        if end.edge is None:
            return p[0] + (other[0] - p[0]) / 3.0, p[1] + (other[1] - p[1]) / 3.0
        nx, ny = frame.grid.edge_normal(end.edge)
        reach = 0.45 * chord
        return p[0] - nx * reach, p[1] - ny * reach

    return p0, handle(path.a, p0, p3), handle(path.b, p3, p0), p3


def sample(curve: tuple[Point, Point, Point, Point], n: int = CURVE_SAMPLES) -> list[Point]:
    """`n + 1` points along a cubic Bézier, ends included."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = curve
    pts = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        pts.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    return pts


def orient(pieces: Sequence[list[Point]], start: Point | None = None) -> list[list[Point]]:
    """Turn each sampled path so it begins where the previous one ended (the first one where `start` is)."""
    out: list[list[Point]] = []
    cursor = start
    for i, pts in enumerate(pieces):
        if cursor is None and i + 1 < len(pieces):
            nxt = pieces[i + 1]
            end_gap = min(math.dist(pts[-1], nxt[0]), math.dist(pts[-1], nxt[-1]))
            start_gap = min(math.dist(pts[0], nxt[0]), math.dist(pts[0], nxt[-1]))
            oriented = pts if end_gap <= start_gap else pts[::-1]
        elif cursor is None:
            oriented = pts
        else:
            oriented = pts if math.dist(cursor, pts[0]) <= math.dist(cursor, pts[-1]) else pts[::-1]
        out.append(list(oriented))
        cursor = oriented[-1]
    return out


def join(pieces: Sequence[list[Point]]) -> list[Point]:
    """One polyline from consecutive pieces, dropping repeated joint points."""
    out: list[Point] = []
    for pts in pieces:
        if out and pts and math.dist(out[-1], pts[0]) < 1e-6:
            pts = pts[1:]
        out.extend(pts)
    return out


def offset(points: Sequence[Point], shift: float) -> list[Point]:
    """The polyline moved sideways by `shift` (positive: to the left of the direction of travel)."""
    if not shift or len(points) < 2:
        return list(points)
    out = []
    last = len(points) - 1
    for i, (x, y) in enumerate(points):
        ax, ay = points[max(i - 1, 0)]
        bx, by = points[min(i + 1, last)]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy) or 1.0
        out.append((x + shift * dy / norm, y - shift * dx / norm))
    return out


def route_shift(rank: int, step: float) -> float:
    """Sideways shift of the `rank`-th route on one path: 0, +1, -2, +3, ... steps. Distinct magnitudes keep
    routes apart on shared track whichever way each one runs."""
    return step * rank * (1 if rank % 2 else -1)
