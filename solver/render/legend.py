"""The legend under the map: per route its train, stops and revenue, its findings, and the total."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

import drawsvg as dw

from solver.model.board import Board
from solver.render import palette as pal
from solver.render.map_svg import FONT, RouteMarks, num
from solver.render.routes import RouteDrawing

FONT_SIZE = 13.0
LINE = 18.0
PAD = 12.0
SWATCH = 28.0


@dataclass(frozen=True)
class LegendLine:
    text: str
    route: int = -1  # the route whose swatch starts this line (-1: none)
    bold: bool = False
    warn: bool = False
    indent: bool = True


def stop_name(board: Board, node_id: str) -> str:
    """A stop as people read it: the hex id, the location name, and the node when the hex has several."""
    node = board.nodes.get(node_id)
    if node is None or node.hex not in board.hexes:
        return node_id
    hx = board.hexes[node.hex]
    name = node.hex + (f" {hx.location}" if hx.location else "")
    if len(hx.nodes) > 1:
        name += f" ({node_id.rsplit('.', 1)[-1]})"
    return name


def legend_lines(board: Board, routes: Sequence[RouteDrawing], marks: Sequence[RouteMarks], total: int | None,
                 width_chars: int) -> list[LegendLine]:
    """The legend's text, wrapped to `width_chars` characters."""
    lines: list[LegendLine] = []

    def wrapped(text: str, **kw: object) -> None:
        for i, part in enumerate(textwrap.wrap(text, width_chars, break_on_hyphens=False) or [""]):
            lines.append(LegendLine(part, **kw) if i == 0 else LegendLine(part, **{**kw, "route": -1}))

    for ri, route in enumerate(routes):
        flagged = bool(route.findings or route.bad_legs or marks[ri].missing_paths or marks[ri].missing_nodes)
        head = f"Route {ri + 1}: train {route.train or '?'} — {route.revenue}" + ("  ⚠" if flagged else "")
        lines.append(LegendLine(head, route=ri, bold=True))
        pays = route.stop_revenues if len(route.stop_revenues) == len(route.nodes) else ()
        stops = [stop_name(board, n) + (f" {pays[i]}" if pays else "") for i, n in enumerate(route.nodes)]
        wrapped("Stops: " + (" › ".join(stops) or "none"))
        for msg in route.findings:
            wrapped("⚠ " + msg, warn=True)
        if route.bad_legs:
            legs = ", ".join(str(i + 1) for i in route.bad_legs)
            wrapped(f"⚠ illegal or blocked leg{'s' if len(route.bad_legs) > 1 else ''} {legs} (dashed, marked ✕)",
                    warn=True)
        if marks[ri].missing_paths:
            wrapped("⚠ not on the board, skipped: path " + ", ".join(marks[ri].missing_paths), warn=True)
        if marks[ri].missing_nodes:
            wrapped("⚠ not on the board: node " + ", ".join(marks[ri].missing_nodes), warn=True)
    shown = total if total is not None else sum(r.revenue for r in routes)
    lines.append(LegendLine(f"Total: {shown}" if routes else f"Total: {shown} (no routes)", bold=True, indent=False))
    return lines


def legend_height(lines: Sequence[LegendLine]) -> float:
    return PAD * 2 + LINE * len(lines)


def legend_group(lines: Sequence[LegendLine], top: float, left: float, width: float) -> dw.Group:
    """Draw the legend lines in a box starting at (`left`, `top`)."""
    g = dw.Group(id="legend", font_family=FONT, dominant_baseline="central")
    g.append(dw.Rectangle(num(left), num(top), num(width), num(legend_height(lines)), fill=pal.LEGEND_BG,
                          stroke=pal.HEX_LINE))
    for i, line in enumerate(lines):
        y = top + PAD + LINE * (i + 0.5)
        x = left + PAD + (SWATCH + 8 if line.indent else 0)
        if line.route >= 0:
            g.append(dw.Line(num(left + PAD), num(y), num(left + PAD + SWATCH), num(y),
                             stroke=pal.route_colour(line.route), stroke_width="5", stroke_linecap="round",
                             data_legend_route=line.route))
        g.append(dw.Text(line.text, num(FONT_SIZE), num(x), num(y),
                         fill=pal.BAD if line.warn else pal.TEXT, font_weight="bold" if line.bold else None))
    return g
