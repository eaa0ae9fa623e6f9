"""Drawing the map layers (hexes, track, nodes, route overlays) as drawsvg elements."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape as xml_escape

import drawsvg as dw

from solver.model.board import Node
from solver.render import palette as pal
from solver.render.geometry import Point, edge_angle
from solver.render.routes import RouteDrawing
from solver.render.scene import Scene
from solver.render.track import free_direction, join, node_exits, offset, orient, route_shift

FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


def _attr(text: str) -> str:
    """Text from the board (an id) as an SVG attribute value: drawsvg writes attribute values as given, so
    `&`, `<`, `>` and `"` are escaped here (an id must not end the attribute or open an element)."""
    return xml_escape(text, {'"': "&quot;"})


def num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _poly(points: Sequence[Point]) -> str:
    return "M" + " L".join(f"{num(x)},{num(y)}" for x, y in points)


def _curve_d(curve: tuple[Point, Point, Point, Point]) -> str:
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = curve
    return f"M{num(x0)},{num(y0)} C{num(x1)},{num(y1)} {num(x2)},{num(y2)} {num(x3)},{num(y3)}"


CENTRED = {"text_anchor": "middle", "dominant_baseline": "central"}  # set on groups, inherited by their texts


def _text(text: str, x: float, y: float, size: float, **kw: object) -> dw.Text:
    """A text centred on (x, y); font and anchoring come from the enclosing group."""
    return dw.Text(text, num(size), num(x), num(y), **kw)


def hex_layer(scene: Scene) -> dw.Group:
    """Hex outlines with their tile colour, and a tooltip naming the hex."""
    g = dw.Group(id="hexes", stroke=pal.HEX_LINE, stroke_width="1")
    busy = set(scene.busy)
    for hid, frame in scene.frames.items():
        hx = scene.board.hexes[hid]
        fill = pal.hex_fill(hx.color) if hid in busy else pal.EMPTY_FILL
        poly = dw.Path(d=_poly(frame.corners()) + " Z", fill=fill, data_hex=_attr(hid))
        tip = " ".join(p for p in (hid, hx.location, f"(tile {hx.tile})" if hx.tile and hx.tile != hid else "") if p)
        poly.append_title(tip)
        g.append(poly)
    return g


def track_layer(scene: Scene) -> dw.Group:
    """Every path of the board as drawn track, tagged `data-path`."""
    size = scene.grid.size
    g = dw.Group(id="track", fill="none", stroke=pal.TRACK, stroke_linecap="round")
    for pid, curve in scene.curves.items():
        path = scene.board.paths[pid]
        width = size * (0.07 if path.track == "narrow" else 0.12)
        extra = {"stroke_dasharray": f"{num(size * 0.05)},{num(size * 0.05)}"} if path.ignore else {}
        g.append(dw.Path(d=_curve_d(curve), stroke_width=num(width), data_path=_attr(pid), **extra))
        if path.track == "dual":
            g.append(dw.Path(d=_curve_d(curve), stroke="#ffffff", stroke_width=num(width * 0.3), data_path=_attr(pid)))
    return g


@dataclass(frozen=True)
class NodeLook:
    """How large a drawn node is: slot radius and the radius that encloses it."""

    slot: float
    reach: float


def node_look(node: Node, crowded: bool, size: float) -> NodeLook:
    slot = size * (0.15 if crowded else 0.2)
    if node.kind in ("city", "pass"):
        n = max(node.slots, 1)
        spread = {1: 0.0, 2: 1.0, 3: 1.155, 4: 1.414}.get(n, (n - 1) * 1.0)
        return NodeLook(slot, slot * (1 + spread))
    if node.kind == "offboard":
        return NodeLook(slot, size * 0.28)
    if node.kind == "junction":
        return NodeLook(slot, size * 0.05)
    return NodeLook(slot, size * 0.1)


def _slot_offsets(n: int, r: float) -> list[Point]:
    if n <= 1:
        return [(0.0, 0.0)]
    if n == 2:
        return [(-r, 0.0), (r, 0.0)]
    if n == 3:
        d = r * 1.155
        return [(d * math.cos(a), d * math.sin(a)) for a in (math.radians(-90), math.radians(30), math.radians(150))]
    if n == 4:
        return [(-r, -r), (r, -r), (-r, r), (r, r)]
    return [((i - (n - 1) / 2) * 2 * r, 0.0) for i in range(n)]


def _city(g: dw.Group, node: Node, pos: Point, look: NodeLook, company: str) -> None:
    r = look.slot
    n = max(node.slots, 1)
    square = node.klass == "freight"
    for i, (dx, dy) in enumerate(_slot_offsets(n, r)):
        x, y = pos[0] + dx, pos[1] + dy
        token = node.tokens[i] if i < len(node.tokens) else None
        mine = token is not None and token.corp == company
        fill = pal.SLOT_FILL if token is None else (pal.COMPANY_FILL if mine else pal.TOKEN_FILL)
        style = {"fill": fill, "stroke": "#000000", "stroke_width": num(r * 0.12)}
        if token is not None and token.status == "flipped":
            style.update(fill_opacity="0.45", stroke_dasharray=f"{num(r * 0.3)},{num(r * 0.2)}")
        shape = (dw.Rectangle(num(x - r), num(y - r), num(2 * r), num(2 * r), rx=num(r * 0.25), **style) if square
                 else dw.Circle(num(x), num(y), num(r), **style))
        g.append(shape)
        if mine:
            g.append(dw.Circle(num(x), num(y), num(r * 0.86), fill="none", stroke=pal.COMPANY_RING,
                               stroke_width=num(r * 0.24), data_company_token=_attr(node.id)))
        if token is not None:
            g.append(_text(token.corp[:3], x, y, r * (0.78 if len(token.corp) < 3 else 0.62),
                           fill=pal.TOKEN_TEXT, font_weight="bold"))


def _revenue_badge(g: dw.Group, value: str, at: Point, size: float) -> None:
    r = size * 0.14 + size * 0.035 * max(len(value) - 2, 0)
    g.append(dw.Circle(num(at[0]), num(at[1]), num(r), fill="#ffffff", stroke="#000000", stroke_width="0.8"))
    g.append(_text(value, at[0], at[1], size * 0.17, fill=pal.TEXT))


LABEL_ANGLE = math.radians(270.0)  # hex id labels sit straight up from the centre


def hex_label_point(scene: Scene, hid: str) -> Point:
    """Where a hex's id label is drawn."""
    dist = scene.grid.size * 0.7 if scene.grid.layout == "pointy" else scene.grid.apothem * 0.78
    return scene.frames[hid].at(LABEL_ANGLE, dist)


def node_layer(scene: Scene) -> dw.Group:
    """Cities with slots and tokens, towns, off-boards and junctions, with revenue where a node has one."""
    board, size = scene.board, scene.grid.size
    g = dw.Group(id="nodes", **CENTRED)
    for hid in scene.busy:
        hx = board.hexes[hid]
        crowded = len(hx.nodes) > 1
        exits = node_exits(board, hx)
        for nid in hx.nodes:
            node = board.nodes.get(nid)
            pos = scene.nodes.get(nid)
            if node is None or pos is None:
                continue
            look = node_look(node, crowded, size)
            if node.kind in ("city", "pass"):
                _city(g, node, pos, look, board.company)
            elif node.kind == "offboard":
                w, h = size * 0.56, size * 0.3
                g.append(dw.Rectangle(num(pos[0] - w / 2), num(pos[1] - h / 2), num(w), num(h), rx=num(h * 0.3),
                                      fill="#ffffff", stroke="#000000", stroke_width="1"))
                g.append(_text(str(node.revenue), pos[0], pos[1], size * 0.2, fill=pal.TEXT, font_weight="bold"))
                continue
            elif node.kind == "junction":
                g.append(dw.Circle(num(pos[0]), num(pos[1]), num(look.reach), fill=pal.TRACK))
                continue
            else:
                hollow = node.kind == "halt"
                g.append(dw.Circle(num(pos[0]), num(pos[1]), num(look.reach), fill="#ffffff" if hollow else "#000000",
                                   stroke="#000000", stroke_width=num(size * 0.03)))
            if node.revenue <= 0:
                continue
            dist = look.reach + size * 0.16
            frame = scene.frames[hid]
            if crowded or node.near_edge is not None:
                if crowded:
                    across = math.atan2(pos[1] - frame.centre[1], pos[0] - frame.centre[0]) + math.pi / 2
                else:
                    across = edge_angle(scene.grid.layout, node.near_edge or 0) + math.pi / 2
                tag = hex_label_point(scene, hid)
                sides = [(pos[0] + dist * math.cos(a), pos[1] + dist * math.sin(a)) for a in (across, across + math.pi)]
                at = max(sides, key=lambda p: math.dist(p, tag))
            else:
                angle = free_direction(scene.grid.layout, exits[nid], avoid=[LABEL_ANGLE])
                at = (pos[0] + dist * math.cos(angle), pos[1] + dist * math.sin(angle))
            _revenue_badge(g, str(node.revenue), at, size)
    return g


def hex_label_layer(scene: Scene) -> dw.Group:
    """Each hex's id, at the top of the hex."""
    size = scene.grid.size
    g = dw.Group(id="hex-labels", font_size=num(size * 0.2), stroke="#ffffff", stroke_width=num(size * 0.056),
                 paint_order="stroke", stroke_linejoin="round", **CENTRED)
    busy = set(scene.busy)
    for hid in scene.frames:
        x, y = hex_label_point(scene, hid)
        g.append(dw.Text(hid, None, num(x), num(y), fill=pal.TEXT if hid in busy else pal.MUTED_TEXT))
    return g


@dataclass
class RouteMarks:
    """What could not be drawn of one route: missing path and node ids."""

    missing_paths: list[str]
    missing_nodes: list[str]


def route_layer(scene: Scene, routes: Sequence[RouteDrawing]) -> tuple[dw.Group, dw.Group, list[RouteMarks]]:
    """Each route's legs over their track in the route's colour (shifted sideways where several routes claim
    the same path); illegal legs dashed, with a cross at their middle in the second group (to go on top of
    the nodes); stops ringed."""
    size = scene.grid.size
    width = size * 0.085
    g = dw.Group(id="routes", fill="none", stroke_linecap="round", stroke_linejoin="round")
    crosses = dw.Group(id="bad-legs")
    marks: list[RouteMarks] = []
    ring_count: dict[str, int] = {}
    users: dict[str, list[int]] = {}
    for ri, route in enumerate(routes):
        for leg in route.legs:
            for pid in leg:
                if ri not in users.setdefault(pid, []):
                    users[pid].append(ri)
    for ri, route in enumerate(routes):
        colour = pal.route_colour(ri)
        missing_paths = [p for leg in route.legs for p in leg if p not in scene.curves]
        missing_nodes = [n for n in route.nodes if n not in scene.nodes]
        marks.append(RouteMarks(missing_paths, missing_nodes))
        for li, leg in enumerate(route.legs):
            drawn = [p for p in leg if p in scene.curves]
            if not drawn:
                continue
            start = scene.nodes.get(route.nodes[li]) if li < len(route.nodes) else None
            pieces = orient([scene.samples(p) for p in drawn], start)
            line = join([offset(pts, route_shift(users[p].index(ri), width * 1.1)) for p, pts in zip(drawn, pieces)])
            bad = li in route.bad_legs
            style: dict[str, object] = {"stroke": colour, "stroke_width": num(width)}
            if bad:
                style["stroke_dasharray"] = f"{num(width * 1.6)},{num(width * 1.2)}"
            g.append(dw.Path(d=_poly(line), data_route=ri, data_leg=li, data_paths=_attr(" ".join(leg)),
                             data_bad="1" if bad else None, **style))
            if bad:
                _cross(crosses, line[len(line) // 2], size, ri, li)
        for nid in route.nodes:
            pos = scene.nodes.get(nid)
            node = scene.board.nodes.get(nid)
            if pos is None or node is None:
                continue
            k = ring_count.get(nid, 0)
            ring_count[nid] = k + 1
            crowded = len(scene.board.hexes[node.hex].nodes) > 1 if node.hex in scene.board.hexes else False
            r = node_look(node, crowded, size).reach + width * (1.2 + 1.3 * k)
            g.append(dw.Circle(num(pos[0]), num(pos[1]), num(r), stroke=colour, stroke_width=num(width * 0.8),
                               data_route=ri, data_stop=_attr(nid)))
    return g, crosses, marks


def _cross(g: dw.Group, at: Point, size: float, ri: int, li: int) -> None:
    r = size * 0.2
    x, y = at
    g.append(dw.Circle(num(x), num(y), num(r), fill=pal.BAD, stroke="#ffffff", stroke_width="1.2",
                       data_bad_leg=f"{ri}:{li}"))
    d = r * 0.5
    a, b, c, e = num(x - d), num(y - d), num(x + d), num(y + d)
    lines = f"M{a},{b} L{c},{e} M{a},{e} L{c},{b}"
    g.append(dw.Path(d=lines, stroke="#ffffff", stroke_width=num(r * 0.35)))
