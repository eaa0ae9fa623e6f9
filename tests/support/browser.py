"""A real headless Chromium (Debian `chromium` + `chromium-driver`, driven by selenium) for page screenshots.

`chromium` opens a browser with an exact viewport size (for pages served over HTTP and driven by the
test); `screenshot_html` loads a local HTML file in it, saves a PNG and returns the browser console's
errors. `require_browser` fails a test when Chromium is missing, unless the
environment sets `ROUTEMAX_NO_BROWSER=1` (then the test is skipped on purpose).
"""

from __future__ import annotations

import html
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1")


def browser_missing() -> str | None:
    """Why Chromium cannot run here, or None when it can."""
    for exe in (CHROMIUM, CHROMEDRIVER):
        if not os.access(exe, os.X_OK):
            return f"{exe} is missing (run .ci/install_browser.sh)"
    return None


def require_browser() -> None:
    """Fail when the browser is missing; skip only when ROUTEMAX_NO_BROWSER=1 says so."""
    why = browser_missing()
    if why is None:
        return
    if os.environ.get("ROUTEMAX_NO_BROWSER") == "1":
        pytest.skip(f"ROUTEMAX_NO_BROWSER=1: {why}")
    pytest.fail(f"{why}; set ROUTEMAX_NO_BROWSER=1 to skip browser tests deliberately")


def svg_page(svg: str, title: str = "route map") -> str:
    """A minimal HTML page showing an SVG document inline at its natural size, top-left."""
    body = svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + html.escape(title) + "</title>"
            "<style>html,body{margin:0;padding:0;background:#fff}svg{display:block}</style></head><body>"
            + body + "</body></html>")


@contextmanager
def chromium(width: int, height: int) -> Iterator[Any]:
    """A headless Chromium (a selenium driver) with a `width` x `height` viewport and its console logged."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="routemax-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_errors(driver: Any) -> list[str]:
    """The browser console's messages at level SEVERE (errors) since the last call."""
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]


def screenshot_html(html_path: str | Path, png_path: str | Path, width: int, height: int) -> list[str]:
    """Render `html_path` in headless Chromium with a `width` x `height` viewport, save a PNG of the
    viewport to `png_path`, and return the console messages at level SEVERE (errors)."""
    from selenium.webdriver.support.ui import WebDriverWait

    with chromium(width, height) as driver:
        driver.get(Path(html_path).resolve().as_uri())
        WebDriverWait(driver, 30).until(lambda d: d.execute_script("return document.readyState") == "complete")
        driver.save_screenshot(str(png_path))
        return console_errors(driver)
