"""Hex geometry of the route map: centres, edge midpoints and corners, hand-computed, and against real maps."""

from __future__ import annotations

import json
import math

import pytest

from solver.examples import example_path
from solver.input.snapshot import read_positions
from solver.model.errors import BoardError
from solver.render.geometry import HexGrid, letter_index, link_errors, place_hexes
from tests.support.corpus_files import TITLE_FILES

H = math.sqrt(3) / 2 * 10  # apothem of a size-10 hex: 8.660...


def near(p: tuple[float, float], q: tuple[float, float]) -> bool:
    return math.dist(p, q) < 1e-9


def test_pointy_centres_and_edges() -> None:
    g = HexGrid.for_board("pointy", {"x": "number", "y": "letter"}, size=10)
    assert near(g.centre("A1"), (0, 0))
    assert near(g.centre("A3"), (2 * H, 0))
    assert near(g.centre("B2"), (H, 15))
    assert near(g.centre("C5"), (4 * H, 30))
    # 0 = SW, 1 = W, 2 = NW, 3 = NE, 4 = E, 5 = SE
    assert near(g.edge_midpoint("A1", 4), (H, 0))
    assert near(g.edge_midpoint("A1", 1), (-H, 0))
    assert near(g.edge_midpoint("A1", 0), (-H / 2, 7.5))
    assert near(g.edge_midpoint("A1", 5), (H / 2, 7.5))
    assert near(g.edge_midpoint("B2", 2), (H / 2, 7.5))  # B2's NW edge is A1's SE edge
    assert [tuple(round(v, 6) for v in p) for p in g.edge_corners("A1", 4)] == [(round(H, 6), -5.0), (round(H, 6), 5.0)]


def test_flat_centres_and_edges() -> None:
    g = HexGrid.for_board("flat", {"x": "letter", "y": "number"}, size=10)
    assert near(g.centre("A1"), (0, 0))
    assert near(g.centre("A3"), (0, 2 * H))
    assert near(g.centre("B2"), (15, H))
    # 0 = S, 1 = SW, 2 = NW, 3 = N, 4 = NE, 5 = SE
    assert near(g.edge_midpoint("A1", 0), (0, H))
    assert near(g.edge_midpoint("A1", 3), (0, -H))
    assert near(g.edge_midpoint("A1", 5), (7.5, H / 2))
    assert near(g.edge_midpoint("A1", 2), (-7.5, -H / 2))
    assert near(g.edge_midpoint("B2", 2), (7.5, H / 2))  # B2's NW edge is A1's SE edge
    top = [tuple(round(v, 6) for v in p) for p in g.edge_corners("A1", 3)]
    assert top == [(-5.0, round(-H, 6)), (5.0, round(-H, 6))]


def test_flat_map_with_number_columns() -> None:
    """1882 and 18AL: flat hexes, but the number is the column."""
    g = HexGrid.for_board("flat", {"x": "number", "y": "letter"}, size=10)
    assert near(g.centre("B2"), (15, H))
    assert near(g.centre("C1"), (0, 2 * H))


def test_default_axes_and_letters() -> None:
    assert HexGrid.for_board("pointy").axes_x == "number"
    assert HexGrid.for_board("flat").axes_x == "letter"
    assert [letter_index(s) for s in ("A", "Z", "AA", "AB")] == [0, 25, 26, 27]


@pytest.mark.parametrize("bad, field", [
    ({"layout": "round"}, "layout"),
    ({"axes": {"x": "letter", "y": "letter"}}, "axes"),
    ({"axes": {"x": "digit"}}, "axes.x"),
    ({"axes": "xy"}, "axes"),
])
def test_bad_grid_names_the_field(bad: dict, field: str) -> None:
    with pytest.raises(BoardError) as err:
        HexGrid.for_board(bad.get("layout", "pointy"), bad.get("axes"))
    assert err.value.field == field


def test_bad_hex_id_names_the_hex() -> None:
    with pytest.raises(BoardError) as err:
        HexGrid.for_board("pointy").centre("17")
    assert err.value.field == "hexes[17].id"


def _first_snapshot(path) -> dict:
    return next(read_positions(path)).raw




@pytest.mark.parametrize("path", TITLE_FILES, ids=lambda p: p.parent.name)
def test_every_neighbour_link_sits_across_its_edge(path) -> None:
    """On every corpus title, each hex's neighbour across edge e is where the geometry puts it."""
    raw = _first_snapshot(path)
    g = HexGrid.for_board(raw["layout"], raw.get("axes"), size=40)
    links = {h["id"]: {int(e): n for e, n in h.get("neighbors", {}).items()} for h in raw["hexes"]}
    centres = {hid: g.centre(hid) for hid in links}
    assert sum(len(v) for v in links.values()) > 50
    assert link_errors(g, centres, links) == 0
    assert place_hexes(g, links) == centres


def test_hand_made_board_is_placed_along_its_links() -> None:
    """The 1839 example's row C ids do not follow the grid; the walk along its links keeps track joined."""
    raw = json.loads(example_path("1839").read_text())
    g = HexGrid.for_board(raw["layout"], raw.get("axes"), size=40)
    links = {h["id"]: {int(e): n for e, n in h.get("neighbors", {}).items()} for h in raw["hexes"]}
    assert link_errors(g, {hid: g.centre(hid) for hid in links}, links) > 0
    placed = place_hexes(g, links)
    assert link_errors(g, placed, links) == 0
    assert placed["A1"] == g.centre("A1")
