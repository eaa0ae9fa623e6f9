"""The SVG route map on the built-in examples and one position of every corpus title."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from solver.examples import EXAMPLES, example_path
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.board import Board
from solver.model.errors import BoardError
from solver.optimiser import solve
from solver.render import RouteDrawing, from_priced, from_recorded, map_base, render_svg
from solver.render.map_svg import node_look
from solver.render.scene import build_scene
from tests.support.corpus_files import TITLE_DIRS, TITLE_FILES

NS = "{http://www.w3.org/2000/svg}"


def _last_with_routes(path: Path) -> dict:
    """The last position of a file that has recorded routes (else its last position)."""
    chosen = None
    for pos in read_positions(path):
        if pos.raw is not None and (chosen is None or (pos.raw.get("recorded") or {}).get("routes")):
            chosen = pos.raw
    assert chosen is not None
    return chosen


EXAMPLE_FILES = sorted(set(EXAMPLES.values()))
CASES = [("example", name) for name in EXAMPLE_FILES] + [("corpus", str(p)) for p in TITLE_FILES]


@cache
def case(kind: str, where: str) -> tuple[Board, tuple[RouteDrawing, ...]]:
    """A board and the routes to draw: the recorded ones, or the optimiser's when nothing was recorded."""
    raw = _last_with_routes(example_path_of(where) if kind == "example" else Path(where))
    board = board_from_snapshot(raw)
    routes = from_recorded(raw) or from_priced(solve(board).routes)
    return board, tuple(routes)


def example_path_of(filename: str) -> Path:
    name = next(k for k, v in EXAMPLES.items() if v == filename)
    return example_path(name)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def by_attr(root: ET.Element, attr: str) -> list[ET.Element]:
    return [el for el in root.iter() if attr in el.attrib]


def test_cases_cover_every_title() -> None:
    assert len(TITLE_FILES) == len(TITLE_DIRS) >= 31  # every corpus title, vocabulary v2 ones included
    assert {"1830_bo_offboard_town.json", "1839_example.json", "1871sc_example.json"} <= set(EXAMPLE_FILES)


@pytest.mark.parametrize("kind, where", CASES, ids=[Path(w).parent.name or w for _, w in CASES])
def test_routes_render_over_their_track(kind: str, where: str) -> None:
    board, routes = case(kind, where)
    assert routes, "every case has routes to draw"
    svg = render_svg(board, routes, title="test map", total=12345)
    root = parse(svg)
    assert root.tag == NS + "svg"
    track = root.find(f".//{NS}g[@id='track']")
    assert track is not None
    drawn_track = {el.attrib["data-path"] for el in track.iter() if "data-path" in el.attrib}
    assert drawn_track == set(board.paths), "every path of the board is drawn as track"
    overlays = by_attr(root, "data-route")
    for ri, route in enumerate(routes):
        legs = [el for el in overlays if el.attrib["data-route"] == str(ri) and "data-leg" in el.attrib]
        assert len(legs) == len(route.legs)
        for el in legs:
            leg = route.legs[int(el.attrib["data-leg"])]
            assert el.attrib["data-paths"].split() == list(leg)
            assert set(leg) <= drawn_track
            assert len(el.attrib["d"].split(" L")) >= 2 * len(leg)
        mine = [el for el in overlays if el.attrib["data-route"] == str(ri)]
        rings = {el.attrib["data-stop"] for el in mine if "data-stop" in el.attrib}
        assert rings == set(route.nodes)
    legend = " ".join("".join(t.itertext()) for t in root.find(f".//{NS}g[@id='legend']").iter(NS + "text"))
    for route in routes:
        assert f"train {route.train} — {route.revenue}" in legend
    assert "Total: 12345" in legend
    assert "⚠" not in legend
    assert "test map" in svg


@pytest.mark.parametrize("kind, where", CASES, ids=[Path(w).parent.name or w for _, w in CASES])
def test_map_is_cropped_to_busy_hexes_and_nodes_do_not_overlap(kind: str, where: str) -> None:
    board, _ = case(kind, where)
    scene = build_scene(board)
    x0, y0, w, h = scene.box
    for hid in scene.busy:
        for x, y in scene.frames[hid].corners():
            assert x0 <= x <= x0 + w and y0 <= y <= y0 + h, hid
    assert set(scene.busy) == {hid for hid, hx in board.hexes.items() if hx.paths or hx.nodes}
    for hid in scene.busy:
        ids = board.hexes[hid].nodes
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                reach = sum(node_look(board.nodes[n], True, scene.grid.size).reach for n in (a, b))
                assert math.dist(scene.nodes[a], scene.nodes[b]) > reach, (a, b)


def test_output_is_deterministic() -> None:
    board, routes = case("example", "1830_bo_offboard_town.json")
    assert render_svg(board, routes) == render_svg(board, routes)


@pytest.mark.parametrize("kind, where", CASES[:4], ids=[Path(w).parent.name or w for _, w in CASES[:4]])
def test_maps_drawn_over_one_base_are_the_maps_drawn_alone(kind: str, where: str) -> None:
    """The audit draws two maps of a board over one `map_base`: drawing only reads it, so each map is the
    same document as when drawn alone, whatever was drawn over the base before."""
    board, routes = case(kind, where)
    alone = [render_svg(board, routes[:1], title="one"), render_svg(board, routes, title="all")]
    base = map_base(board)
    shared = [render_svg(board, routes[:1], title="one", base=base), render_svg(board, routes, title="all", base=base)]
    assert shared == alone
    assert render_svg(board, routes[:1], title="one", base=base) == alone[0]  # and again after both


def test_bad_and_missing_parts_are_marked() -> None:
    board, routes = case("example", "1830_bo_offboard_town.json")
    first = routes[0]
    legs = (first.legs[0] + ("NOPE.p9",),) + first.legs[1:]
    marked = replace(first, legs=legs, bad_legs=(1,), findings=("Route is too long",))
    svg = render_svg(board, [marked, *routes[1:]])
    root = parse(svg)
    assert "NOPE.p9" not in {el.attrib["data-path"] for el in by_attr(root, "data-path")}
    bad = [el for el in by_attr(root, "data-bad") if el.attrib["data-route"] == "0"]
    assert [el.attrib["data-leg"] for el in bad] == ["1"]
    assert "stroke-dasharray" in bad[0].attrib
    assert [el.attrib["data-bad-leg"] for el in by_attr(root, "data-bad-leg")] == ["0:1"]
    legend = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
    assert "not on the board, skipped: path NOPE.p9" in legend
    assert "Route is too long" in legend
    assert "illegal or blocked leg 2" in legend
    assert "train " + first.train + " — " + str(first.revenue) + "  ⚠" in legend
    good = render_svg(board, routes)
    assert "data-bad" not in good and "⚠" not in good


EVIL = 'X"><script>alert(1)</script><x a="&'  # an id that would end an attribute and open an element


def test_ids_in_attributes_are_escaped() -> None:
    """Node, path and claimed leg ids are written into attributes (`data-stop`, `data-path`, `data-paths`,
    `data-company-token`) escaped: the SVG stays well-formed, holds no injected element, and each attribute
    reads back as the id."""
    text = example_path("1830").read_text()
    board = board_from_snapshot(json.loads(text.replace("H16.city0", EVIL.replace('"', '\\"'))))
    answer = solve(board)
    assert any(EVIL in r.nodes for r in answer.routes)  # the answer runs through the node
    routes = from_priced(answer.routes)
    marked = replace(routes[0], legs=(routes[0].legs[0] + (EVIL + ".p9",),) + routes[0].legs[1:])
    root = parse(render_svg(board, [marked, *routes[1:]]))
    assert not [el for el in root.iter() if el.tag.split("}")[-1] in ("script", "x")]
    assert EVIL in {el.attrib["data-stop"] for el in by_attr(root, "data-stop")}
    assert EVIL in {el.attrib["data-company-token"] for el in by_attr(root, "data-company-token")}
    assert any(EVIL + ".p9" in el.attrib["data-paths"] for el in by_attr(root, "data-paths"))


def test_shared_track_is_offset() -> None:
    """Two routes claiming the same path are drawn side by side, not on top of each other."""
    board, routes = case("example", "1830_bo_offboard_town.json")
    twice = [routes[0], replace(routes[0], train="copy")]
    root = parse(render_svg(board, twice))
    first = [el.attrib["d"] for el in by_attr(root, "data-leg") if el.attrib["data-route"] == "0"]
    second = [el.attrib["d"] for el in by_attr(root, "data-leg") if el.attrib["data-route"] == "1"]
    assert len(first) == len(second) == len(routes[0].legs)
    assert all(a != b for a, b in zip(first, second))


def test_company_tokens_are_highlighted() -> None:
    board, routes = case("example", "1830_bo_offboard_town.json")
    root = parse(render_svg(board, routes))
    highlighted = {el.attrib["data-company-token"] for el in by_attr(root, "data-company-token")}
    mine = {n.id for n in board.nodes.values() if any(t is not None and t.corp == board.company for t in n.tokens)}
    assert mine and highlighted == mine


def test_no_routes_and_bad_recorded_input() -> None:
    board, _ = case("example", "1830_bo_offboard_town.json")
    root = parse(render_svg(board, []))
    assert not by_attr(root, "data-route")
    with pytest.raises(BoardError) as err:
        from_recorded({"recorded": {"routes": [{"train": "2-0", "legs": "A1.p0"}]}})
    assert err.value.field == "recorded.routes[0].legs"
    with pytest.raises(BoardError) as err:
        render_svg(replace(board, hexes={}), [])
    assert err.value.field == "hexes"


def test_solver_core_does_not_import_the_renderer() -> None:
    code = ("import sys, solver.optimiser, solver.evaluator, solver.input.snapshot, solver.examples; "
            "bad = [m for m in sys.modules if m.startswith('solver.render') or m.startswith('drawsvg')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
