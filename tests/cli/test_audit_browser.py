"""A real headless Chromium shows the audit report of `routemax audit`: the route maps of flagged positions
are there in the routes' colours, the page fits the window (long paths do not push it wider), no console errors."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from solver.render.palette import route_colour
from tests.cli.test_audit_report import build_report
from tests.support.browser import require_browser, screenshot_html

WIDTH, HEIGHT = 1280, 2600


def _count(image: Image.Image, colour: str) -> int:
    want = (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
    return sum(n for n, rgb in image.getcolors(maxcolors=1 << 24) if rgb == want)


def test_audit_report_shows_route_maps_in_chromium(tmp_path: Path) -> None:
    require_browser()
    html, lines = build_report(tmp_path)
    assert sum("maps" in ln for ln in lines) == 3
    png = tmp_path / "report.png"
    errors = screenshot_html(html, png, WIDTH, HEIGHT)
    assert errors == []
    shot = Image.open(png).convert("RGB")
    assert shot.size == (WIDTH, HEIGHT)
    for ri in (0, 1):
        assert _count(shot, route_colour(ri)) > 150, f"route colour {route_colour(ri)} is not on the page"
    # Without maps (an old audit file) the same page has none of the route colours.
    for ln in lines:
        ln.pop("maps", None)
    from routemax_cli.audit_html import render
    from routemax_cli.audit_summary import summarise

    bare = tmp_path / "bare.html"
    bare.write_text(render(summarise(lines), lines), encoding="utf-8")
    assert screenshot_html(bare, tmp_path / "bare.png", WIDTH, HEIGHT) == []
    plain = Image.open(tmp_path / "bare.png").convert("RGB")
    assert all(_count(plain, route_colour(ri)) == 0 for ri in (0, 1))


def test_audit_report_fits_the_window(tmp_path: Path) -> None:
    require_browser()
    html, _ = build_report(tmp_path)
    png = tmp_path / "narrow.png"
    assert screenshot_html(html, png, 900, 1200) == []
    shot = Image.open(png).convert("RGB")
    # The right-most 8 pixel columns stay page background: nothing runs off the right edge.
    edge = shot.crop((shot.width - 8, 0, shot.width, shot.height))
    assert set(edge.get_flattened_data()) == {(255, 255, 255)}
