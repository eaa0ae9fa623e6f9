"""A real headless Chromium draws the route map: every route's colour shows on the map, with no console errors."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from solver.examples import example_path
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.optimiser import solve
from solver.render import from_priced, from_recorded, render_svg
from solver.render.palette import route_colour
from tests.support.browser import require_browser, screenshot_html, svg_page


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _shoot(svg: str, tmp_path: Path, name: str) -> tuple[Image.Image, list[str]]:
    """Screenshot the page with the SVG; return the map area (legend and title cut off) and console errors."""
    root = ET.fromstring(svg.encode("utf-8"))
    width, height = math.ceil(float(root.attrib["width"])), math.ceil(float(root.attrib["height"]))
    top, map_h = float(root.attrib["data-map-top"]), float(root.attrib["data-map-height"])
    page, png = tmp_path / f"{name}.html", tmp_path / f"{name}.png"
    page.write_text(svg_page(svg, name), encoding="utf-8")
    errors = screenshot_html(page, png, width, height)
    shot = Image.open(png).convert("RGB")
    assert shot.size == (width, height)
    return shot.crop((0, math.ceil(top), width, math.floor(top + map_h))), errors


def _count(image: Image.Image, colour: str) -> int:
    want = _rgb(colour)
    return sum(n for n, rgb in image.getcolors(maxcolors=1 << 24) if rgb == want)


@pytest.mark.parametrize("name", ["1830", "1871sc"])
def test_route_colours_show_in_chromium(name: str, tmp_path: Path) -> None:
    require_browser()
    raw = next(read_positions(example_path(name))).raw
    board = board_from_snapshot(raw)
    routes = from_recorded(raw) or from_priced(solve(board).routes)
    assert len(routes) >= 2
    shot, errors = _shoot(render_svg(board, routes), tmp_path, "routes")
    assert errors == []
    blank, blank_errors = _shoot(render_svg(board, []), tmp_path, "blank")
    assert blank_errors == []
    for ri in range(len(routes)):
        colour = route_colour(ri)
        assert _count(blank, colour) == 0, f"{colour} is on the map without routes"
        assert _count(shot, colour) > 150, f"route {ri} ({colour}) is not visible on the map"
