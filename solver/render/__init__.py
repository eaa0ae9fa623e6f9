"""Route maps as SVG: the board's hexes, track, cities and tokens, with routes drawn over them and a legend.

Pure library code (drawsvg); nothing in the solver core imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import drawsvg as dw

from solver.model.board import Board
from solver.render import legend as lg
from solver.render.map_svg import FONT, hex_label_layer, hex_layer, node_layer, num, route_layer, track_layer
from solver.render.routes import RouteDrawing, from_priced, from_recorded
from solver.render.scene import Scene, build_scene

__all__ = ["MapBase", "RouteDrawing", "from_priced", "from_recorded", "map_base", "render_svg"]

TITLE_BAND = 44.0
MIN_WIDTH = 520.0


@dataclass(frozen=True)
class MapBase:
    """What every route map of one board shares: the laid-out scene and the board's layers (hexes and
    track under the routes, nodes and hex labels over them). A drawing only reads them, so one base
    serves several maps of the board (the audit draws two per flagged position); nothing may append to
    its groups (frozen holds the fields, not the groups)."""

    scene: Scene
    hexes: dw.Group
    track: dw.Group
    nodes: dw.Group
    labels: dw.Group


def map_base(board: Board) -> MapBase:
    """The shared part of `board`'s route maps (BoardError when the board has nothing to draw)."""
    scene = build_scene(board)
    return MapBase(scene, hex_layer(scene), track_layer(scene), node_layer(scene), hex_label_layer(scene))


def render_svg(board: Board, routes: Sequence[RouteDrawing], title: str = "", total: int | None = None,
               base: MapBase | None = None) -> str:
    """The route map of `board` with `routes` drawn over it, as an SVG document.

    `title` defaults to the board's label; `total` (default: the sum of the routes' revenues) ends the
    legend. Every drawn path carries `data-path`, every route overlay `data-route` (its index in `routes`).
    Path or node ids that are not on the board are skipped and reported in the legend. `base`: the
    board's `map_base`, when several maps of it are drawn.
    """
    base = base or map_base(board)
    if base.scene.board is not board:
        raise ValueError("the map base is of another board")
    scene = base.scene
    x0, y0, map_w, map_h = scene.box
    heading = title or board.label()
    width = max(map_w, MIN_WIDTH, 24 + len(heading) * 18 * 0.62)
    routes_g, crosses, marks = route_layer(scene, routes)
    chars = int((width - 2 * lg.PAD - lg.SWATCH - 8) / (lg.FONT_SIZE * 0.66))
    lines = lg.legend_lines(board, routes, marks, total, chars)
    height = TITLE_BAND + map_h + lg.legend_height(lines)
    d = dw.Drawing(num(width), num(height), id="route-map", data_map_top=num(TITLE_BAND),
                   data_map_height=num(map_h))
    d.append(dw.Rectangle(0, 0, num(width), num(height), fill="#ffffff"))
    d.append(dw.Text(heading, 18, 12, 20, font_family=FONT, font_weight="bold",
                     dominant_baseline="central", fill="#1d1d1d"))
    sub = f"Company {board.company}" + (f" · phase {board.phase}" if board.phase else "") + f" · {board.ruleset}"
    d.append(dw.Text(sub, 13, 12, 36, font_family=FONT, dominant_baseline="central", fill="#55524b"))
    dx = (width - map_w) / 2 - x0
    the_map = dw.Group(id="map", font_family=FONT, transform=f"translate({num(dx)},{num(TITLE_BAND - y0)})")
    for layer in (base.hexes, base.track, routes_g, base.nodes, crosses, base.labels):
        the_map.append(layer)
    d.append(the_map)
    d.append(lg.legend_group(lines, TITLE_BAND + map_h, 0.0, width))
    return d.as_svg()
