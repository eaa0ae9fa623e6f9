"""The laid-out map: hex frames, node positions, sampled track, and the crop. Pure math, no drawing."""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.model.board import Board
from solver.model.errors import BoardError
from solver.render.geometry import HexGrid, Point, place_hexes
from solver.render.track import HexFrame, node_positions, path_curve, sample

HEX_SIZE = 50.0  # hex radius in pixels
MARGIN = 12.0


@dataclass
class Scene:
    """Everything the drawing needs to know about where things are."""

    board: Board
    grid: HexGrid
    frames: dict[str, HexFrame]  # the hexes drawn: those with track or nodes, and empty ones inside the crop
    busy: list[str]  # hexes with track or nodes, in board order
    nodes: dict[str, Point] = field(default_factory=dict)
    curves: dict[str, tuple[Point, Point, Point, Point]] = field(default_factory=dict)
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # min x, min y, width, height

    def samples(self, path_id: str) -> list[Point]:
        """Points along a path (from end `a` to end `b`)."""
        return sample(self.curves[path_id])


def build_scene(board: Board, size: float = HEX_SIZE) -> Scene:
    """Place the board's hexes and their contents, and crop to the hexes that have track or nodes."""
    if not board.hexes:
        raise BoardError("hexes", "the board has no hexes to draw")
    grid = HexGrid.for_board(board.layout, board.extra.get("axes"), size=size)
    centres = place_hexes(grid, {hid: hx.neighbors for hid, hx in board.hexes.items()})
    busy = [hid for hid, hx in board.hexes.items() if hx.paths or hx.nodes] or list(board.hexes)
    xs = [centres[h][0] for h in busy]
    ys = [centres[h][1] for h in busy]
    half_w = grid.apothem if grid.layout == "pointy" else grid.size
    half_h = grid.size if grid.layout == "pointy" else grid.apothem
    x0, x1 = min(xs) - half_w - MARGIN, max(xs) + half_w + MARGIN
    y0, y1 = min(ys) - half_h - MARGIN, max(ys) + half_h + MARGIN
    inside = set(busy) | {hid for hid, (cx, cy) in centres.items()  # empty hexes only when wholly inside the crop
                          if x0 + half_w - 1 <= cx <= x1 - half_w + 1 and y0 + half_h - 1 <= cy <= y1 - half_h + 1}
    frames = {hid: HexFrame(grid, c) for hid, c in centres.items() if hid in inside}
    scene = Scene(board=board, grid=grid, frames=frames, busy=busy, box=(x0, y0, x1 - x0, y1 - y0))
    for hid in busy:
        hx, frame = board.hexes[hid], frames[hid]
        placed = node_positions(board, hx, frame)
        scene.nodes.update(placed)
        for pid in hx.paths:
            path = board.paths.get(pid)
            if path is not None:
                scene.curves[pid] = path_curve(path, frame, placed)
    return scene
