"""`routemax render` and `routemax solve --svg`: real solves and evaluations, SVG files checked by parsing them."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from server.main import main
from solver.examples import EXAMPLES, example_path
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.optimiser import solve
from tests.conftest import CORPUS, REPO, STRESS
from tests.support.corpus_files import TITLE_FILES

NS = "{http://www.w3.org/2000/svg}"
EXAMPLE_NAMES = sorted({v: k for k, v in sorted(EXAMPLES.items()) if k != "default"}.values())


def _svg(path: Path) -> ET.Element:
    root = ET.fromstring(path.read_bytes())
    assert root.tag == NS + "svg"
    return root


def _track_ids(root: ET.Element) -> set[str]:
    track = root.find(f".//{NS}g[@id='track']")
    assert track is not None
    return {el.attrib["data-path"] for el in track.iter() if "data-path" in el.attrib}


def _route_legs(root: ET.Element) -> list[tuple[int, int, list[str], bool]]:
    """(route, leg, path ids, drawn as bad) of every drawn route leg."""
    return [(int(el.attrib["data-route"]), int(el.attrib["data-leg"]), el.attrib["data-paths"].split(),
             el.attrib.get("data-bad") == "1") for el in root.iter() if "data-leg" in el.attrib]


def _legend(root: ET.Element) -> list[str]:
    legend = root.find(f".//{NS}g[@id='legend']")
    assert legend is not None
    return [el.text or "" for el in legend.iter(NS + "text")]


def _first_with_recorded_routes(path: Path) -> tuple[int, dict]:
    for i, pos in enumerate(read_positions(path)):
        if pos.raw is not None and ((pos.raw.get("recorded") or {}).get("routes")):
            return i, pos.raw
    raise AssertionError(f"{path} has no recorded routes")


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_built_in_example_renders_its_optimal_routes(name: str, tmp_path: Path) -> None:
    out = tmp_path / f"{name}.svg"
    assert main(["render", "--example", name, "-o", str(out)]) == 0
    root = _svg(out)
    board = board_from_snapshot(json.loads(example_path(name).read_text()))
    best = solve(board)
    legs = _route_legs(root)
    assert {ri for ri, _, _, _ in legs} == set(range(len(best.routes))), "one overlay per route of the optimum"
    drawn = {p for _, _, paths, _ in legs for p in paths}
    assert drawn == {p for r in best.routes for leg in r.legs for p in leg.paths}
    assert drawn <= _track_ids(root), "every route path id is drawn as data-path track"
    assert not any(bad for *_, bad in legs)
    assert f"Total: {best.revenue}" in _legend(root)


@pytest.mark.parametrize("path", TITLE_FILES, ids=[p.parent.name for p in TITLE_FILES])
def test_a_position_of_every_corpus_title_renders_its_recorded_run(path: Path, tmp_path: Path) -> None:
    index, raw = _first_with_recorded_routes(path)
    out = tmp_path / "recorded.svg"
    assert main(["render", str(path), "--position", str(index), "--routes", "recorded", "-o", str(out)]) == 0
    root = _svg(out)
    track = _track_ids(root)
    legs = _route_legs(root)
    for ri, route in enumerate(raw["recorded"]["routes"]):
        for li, paths in enumerate(route["legs"]):
            assert (ri, li, paths) in [(r, leg, p) for r, leg, p, _ in legs], f"route {ri} leg {li} is drawn"
            assert set(paths) <= track, "every recorded path id is drawn as data-path track"
    assert raw["source"]["title"] in root.find(NS + "text").text  # type: ignore[union-attr]


def test_recorded_run_and_a_routes_file_are_judged_with_findings_and_bad_legs(tmp_path: Path) -> None:
    raw = json.loads(example_path("1830").read_text())
    routes = raw["recorded"]["routes"]
    out = tmp_path / "recorded.svg"
    assert main(["render", "--example", "1830", "--routes", "recorded", "-o", str(out)]) == 0
    root = _svg(out)
    assert not any(bad for *_, bad in _route_legs(root)), "the recorded run is legal"
    assert f"Total: {raw['recorded']['routes_revenue']}" in _legend(root)
    # The second train runs the first route again: it shares all its track.
    assert len(routes) >= 2
    again = {"train": routes[1]["train"], "nodes": routes[0]["nodes"], "legs": routes[0]["legs"]}
    claimed = [{k: routes[0][k] for k in ("train", "nodes", "legs")}, again]
    for i, payload in enumerate((claimed, {"routes": claimed})):
        routes_file = tmp_path / f"routes{i}.json"
        routes_file.write_text(json.dumps(payload))
        out = tmp_path / f"file{i}.svg"
        assert main(["render", "--example", "1830", "--routes", str(routes_file), "-o", str(out)]) == 0
        root = _svg(out)
        legs = _route_legs(root)
        shared = 1
        assert {leg for r, leg, _, bad in legs if r == shared and bad} == set(range(len(again["legs"])))
        assert not any(bad for r, _, _, bad in legs if r < shared)
        text = " ".join(_legend(root))
        assert "reuses track" in text and "illegal" in root.find(NS + "text").text  # type: ignore[union-attr]


def test_a_leg_that_does_not_walk_is_marked(tmp_path: Path) -> None:
    raw = json.loads(example_path("1830").read_text())
    route = raw["recorded"]["routes"][0]
    broken = {"train": route["train"], "nodes": route["nodes"], "legs": [route["legs"][0][:-1], *route["legs"][1:]]}
    routes_file = tmp_path / "broken.json"
    routes_file.write_text(json.dumps([broken]))
    out = tmp_path / "broken.svg"
    assert main(["render", "--example", "1830", "--routes", str(routes_file), "-o", str(out)]) == 0
    legs = _route_legs(_svg(out))
    assert [(leg, bad) for _, leg, _, bad in legs][0] == (0, True)
    assert all(not bad for _, leg, _, bad in legs if leg > 0)
    assert any("leg 1" in t for t in _legend(_svg(out)))


@pytest.mark.parametrize("payload, field", [
    ([{"train": "2-0", "nodes": "E5.city0", "legs": []}], "routes[0].nodes"),
    ({"routes": [{"nodes": [], "legs": []}]}, "routes[0].train"),
    ([{"train": "2-0", "nodes": ["a"], "legs": [["p", 3]]}], "routes[0].legs"),
    ({"trains": []}, "routes"),
])
def test_a_bad_routes_file_names_the_field(payload: object, field: str, tmp_path: Path, capsys) -> None:
    routes_file = tmp_path / "bad.json"
    routes_file.write_text(json.dumps(payload))
    out = str(tmp_path / "x.svg")
    assert main(["render", "--example", "1830", "--routes", str(routes_file), "-o", out]) == 3  # bad input
    err = capsys.readouterr().err
    assert f"routemax: {routes_file}: {field}" in err and "Traceback" not in err
    assert not (tmp_path / "x.svg").exists()


def test_render_errors_name_the_field(tmp_path: Path, capsys) -> None:
    stress = sorted(STRESS.glob("*.jsonl.gz"))[0]
    assert main(["render", str(stress), "--routes", "recorded", "-o", str(tmp_path / "s.svg")]) == 3  # bad input
    assert "recorded: null" in capsys.readouterr().err
    assert main(["render", "--example", "1830", "--position", "3"]) == 2
    assert "--position 3" in capsys.readouterr().err


def test_render_writes_to_standard_output_by_default(capsys) -> None:
    assert main(["render", "--example", "1871sc"]) == 0
    captured = capsys.readouterr()
    assert ET.fromstring(captured.out.encode()).tag == NS + "svg"
    assert re.search(r"render: optimal routes .*: solve \d+ ms, drawing \d+ ms", captured.err)


def test_solve_svg_writes_one_picture_per_position(tmp_path: Path, capsys) -> None:
    out = tmp_path / "one.svg"
    assert main(["solve", "--example", "1830", "--svg", str(out)]) == 0
    assert _route_legs(_svg(out))
    capsys.readouterr()
    src = CORPUS / "1889" / "962.jsonl.gz"
    two = tmp_path / "two.jsonl"
    with gzip.open(src, "rt") as fh:
        two.write_text(fh.readline() + fh.readline())
    assert main(["solve", str(two), "--svg", str(tmp_path / "many.svg"), "--json"]) == 0
    revenues = [json.loads(x)["revenue"] for x in capsys.readouterr().out.splitlines()]
    for i, revenue in enumerate(revenues):
        assert f"Total: {revenue}" in _legend(_svg(tmp_path / f"many-{i}.svg"))
    assert not (tmp_path / "many.svg").exists()
    assert main(["solve", str(two), "--position", "1", "--svg", str(tmp_path / "chosen.svg"), "--json"]) == 0
    assert f"Total: {revenues[1]}" in _legend(_svg(tmp_path / "chosen.svg"))


def test_solving_without_a_picture_never_imports_the_renderer() -> None:
    code = ("import sys; from server.main import main; main(['solve', '--example', '1830', '--json']); "
            "bad = sorted(m for m in sys.modules if m.startswith(('solver.render', 'drawsvg'))); "
            "print('RENDER', bad)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "RENDER []" in done.stdout
