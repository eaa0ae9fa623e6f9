"""A real headless Chromium uses the example page of a running `routemax serve --http-port`: it loads the page
from the server, solves a built-in example through fetch(), shows the revenue gRPC gives and draws every route in
its colour on the map; the best run copied into the editor, and a route clicked in on the map, are judged legal
by Evaluate. No console errors."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from PIL import Image

from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from solver.examples import example_path
from solver.render.palette import route_colour
from tests.server.test_server_process import ServerProcess
from tests.support.browser import chromium, console_errors, require_browser

WIDTH, HEIGHT = 1500, 1300
WAIT_S = 60


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """`routemax serve --port 0 --http-port 0` as a process: (HTTP address, gRPC port)."""
    process = ServerProcess(tmp_path / "serve.log", "--port", "0", "--http-port", "0", "--grace", "1")
    try:
        started = process.wait_for("start")
        yield started["http_address"], int(started["address"].rsplit(":", 1)[1])
    finally:
        process.close()


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _map_shot(driver: Any) -> Image.Image:
    """A screenshot of the page's map only (the route table's swatches left out)."""
    driver.execute_script("document.getElementById('map').scrollIntoView()")
    return Image.open(io.BytesIO(driver.find_element("id", "map").screenshot_as_png)).convert("RGB")


def _count(image: Image.Image, colour: str) -> int:
    want = _rgb(colour)
    return sum(n for n, rgb in image.getcolors(maxcolors=1 << 24) if rgb == want)


def _click_path(driver: Any, path_id: str) -> None:
    """A click on one piece of track of the map (a DOM click event, as the user's)."""
    piece = driver.find_element("css selector", f'#map [data-path="{path_id}"]')
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", piece)


def test_the_example_page_solves_and_evaluates_in_chromium(served: tuple[str, int]) -> None:
    require_browser()
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import Select, WebDriverWait

    http_address, grpc_port = served
    with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        expected = pb_grpc.RouteServiceStub(channel).Solve(
            pb.SolveRequest(snapshot_json=example_path("1830").read_text(encoding="utf-8")), timeout=60)
    assert expected.status == pb.OPTIMAL and len(expected.routes) >= 2

    with chromium(WIDTH, HEIGHT) as driver:
        # the page re-renders its answer: an element read while it is replaced is read again
        wait = WebDriverWait(driver, WAIT_S, ignored_exceptions=(StaleElementReferenceException,))
        driver.get(f"http://{http_address}/")
        wait.until(lambda d: d.find_element("id", "solve").is_enabled())
        Select(driver.find_element("id", "example")).select_by_visible_text("1830")
        wait.until(lambda d: "example 1830" in d.find_element("id", "loaded").text)
        driver.find_element("id", "solve").click()
        wait.until(lambda d: d.find_element("id", "status").text == "OPTIMAL")

        assert driver.find_element("id", "revenue").text == str(expected.revenue)
        rows = driver.find_elements("css selector", "#routes tr")
        assert [r.find_elements("tag name", "td")[1].text for r in rows] == [r.train for r in expected.routes]
        shot = _map_shot(driver)
        assert shot.width > 400 and shot.height > 300
        for i in range(len(expected.routes)):
            assert _count(shot, route_colour(i)) > 150, f"route {i} ({route_colour(i)}) is not visible on the map"
        assert _count(shot, route_colour(len(expected.routes))) == 0  # no colour of a route that is not there

        driver.find_element("id", "use-answer").click()
        driver.find_element("id", "evaluate").click()
        wait.until(lambda d: d.find_elements("id", "judged-revenue"))
        assert driver.find_element("id", "judged-revenue").text == str(expected.revenue)
        assert driver.find_element("css selector", "#verdict .legal").text == "legal"

        # the first route clicked in on the map, piece by piece, is that route
        first = expected.routes[0]
        driver.find_element("id", "clear").click()
        Select(driver.find_element("id", "train")).select_by_value(first.train)
        driver.find_element("id", "add-route").click()
        for leg in first.legs:
            for path_id in leg.paths:
                _click_path(driver, path_id)
        stops = driver.find_element("css selector", "#editor .stops").text
        assert stops == " → ".join(first.nodes)
        driver.find_element("id", "evaluate").click()
        wait.until(lambda d: d.find_elements("id", "judged-revenue")
                   and d.find_element("id", "judged-revenue").text == str(first.revenue))
        assert driver.find_element("css selector", "#verdict .legal").text == "legal"
        assert _count(_map_shot(driver), route_colour(0)) > 150
        assert driver.find_element("id", "error").text == ""
        assert console_errors(driver) == []
