"""The snapshot reader's direct reading of well-formed fields keeps every check: a path, string, flag or
integer field out of spec is still a BoardError naming it, and defaults still apply."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.input.validate import validate_board
from solver.model.errors import BoardError
from tests.solver.test_input_limits import chain


def _path0(raw: dict[str, Any]) -> dict[str, Any]:
    return raw["hexes"][0]["paths"][0]


def test_paths_read_with_their_defaults() -> None:
    raw = chain(3)
    _path0(raw)["track"] = ""  # empty means the default, as an unset protobuf field
    board = board_from_snapshot(raw)
    path = board.paths[_path0(raw)["id"]]
    assert (path.track, path.lanes, path.terminal, path.ignore) == ("broad", ((1, 0), (1, 0)), False, False)
    assert board.paths[_path0(chain(3))["id"]] == path


@pytest.mark.parametrize(("key", "value", "field", "message"), [
    ("a", True, ".a", "must be an edge number or a node id"),
    ("a", 6, ".a", "must be in 0..5"),
    ("b", "", ".b", "must be an edge number or a node id"),
    ("b", None, ".b", "must not be null"),
    ("id", "x" * 201, ".id", "at most 200 characters"),
    ("track", 3, ".track", "must be a string"),
    ("lanes", None, ".lanes", "must not be null"),
    ("lanes", [[2, 0]], ".lanes", "give two [width, index] pairs"),
    ("terminal", "yes", ".terminal", "must be true or false"),
    ("ignore_gauge_walk", 1, ".ignore_gauge_walk", "must be true or false"),
])
def test_a_bad_path_field_is_named(key: str, value: Any, field: str, message: str) -> None:
    raw = copy.deepcopy(chain(3))
    _path0(raw)[key] = value
    with pytest.raises(BoardError) as err:
        board_from_snapshot(json.loads(json.dumps(raw)))
    assert err.value.field.startswith("hexes[") and err.value.field.endswith(field)
    assert message in err.value.message


@pytest.mark.parametrize(("key", "value", "message"), [
    ("revenue", True, "must be an integer"), ("revenue", 10**9, "must be in"), ("kind", "", "must not be empty"),
    ("terminal", None, "must not be null"), ("sig", 5, "must be a string"), ("tokens", [7], "must be an object"),
    ("tokens", [None] * 99, "at most"), ("near_edge", 6, "must be a finite number"),
    ("groups", [""], "must not be empty"),
])
def test_a_bad_node_field_is_named(key: str, value: Any, message: str) -> None:
    raw = chain(3)
    raw["hexes"][0]["nodes"][0][key] = value
    with pytest.raises(BoardError) as err:
        board_from_snapshot(raw)
    assert f".{key}" in err.value.field and message in err.value.message


def test_nodes_read_with_their_defaults() -> None:
    raw = chain(3)
    node = raw["hexes"][0]["nodes"][0]
    node.update(tokens=[None, {"corp": "CO"}], near_edge=5.5, route="")
    got = board_from_snapshot(raw).nodes[node["id"]]
    assert (got.route, got.visit_cost, got.near_edge, got.sig) == ("mandatory", 1, 5.5, "")
    assert [t and (t.corp, t.status, t.type) for t in got.tokens] == [None, ("CO", "active", "normal")]


def test_a_bad_neighbour_is_named() -> None:
    raw = chain(3)
    raw["hexes"][0]["neighbors"] = {"1": ""}
    with pytest.raises(BoardError, match="must not be empty") as err:
        board_from_snapshot(raw)
    assert err.value.field.endswith(".neighbors[1]")
    raw["hexes"][0]["neighbors"] = {"6": "B"}
    with pytest.raises(BoardError, match="one of '0'..'5'"):
        board_from_snapshot(raw)


def _mislisted(change: str):
    """A board read from a snapshot, then its hexes' path lists changed by hand (`change`)."""
    board = board_from_snapshot(chain(3))
    first, second = [hid for hid, hx in board.hexes.items() if hx.paths][:2]
    lists = {hid: list(hx.paths) for hid, hx in board.hexes.items()}
    if change == "unlisted":
        lists[first] = lists[first][1:]
    elif change == "twice":
        lists[first] = lists[first] + lists[first][:1]
        lists[second] = lists[second][1:]
    elif change == "other hex":
        lists[second] = [*lists[second], lists[first][0]]
        lists[first] = lists[first][1:]
    else:
        lists[first] = [*lists[first], "nowhere"]
    hexes = {hid: replace(hx, paths=lists[hid]) for hid, hx in board.hexes.items()}
    return replace(board, hexes=hexes), first, second


@pytest.mark.parametrize(("change", "where", "message"), [
    ("unlisted", "first", "does not list path"),
    ("twice", "first", "listed twice"),
    ("other hex", "second", "not a path of this hex"),
    ("unknown", "first", "not a path of this hex"),
])
def test_a_hex_must_list_exactly_its_own_paths(change: str, where: str, message: str) -> None:
    """The leg walk reads a hex's paths from its list: a board built by hand whose hexes leave a path out,
    list one twice or list another hex's is refused, naming the hex."""
    board, first, second = _mislisted(change)
    with pytest.raises(BoardError) as err:
        validate_board(board)
    assert err.value.field.startswith(f"hexes[{first if where == 'first' else second}].paths")
    assert message in err.value.message


@pytest.mark.parametrize("where", ["board", "hex", "node"])
def test_data_of_another_ruleset_is_named(where: str) -> None:
    """1873 data on a board another ruleset prices (a 1873 snapshot whose title is lost) is refused where it
    stands, never read past; on a 1873 board the same data is the 1873 rules' own."""
    raw = chain(3)
    data = {"board": raw, "hex": raw["hexes"][0], "node": raw["hexes"][0]["nodes"][0]}[where]
    data["h1873"] = {}
    with pytest.raises(BoardError) as err:
        board_from_snapshot(raw)
    field = {"board": "h1873", "hex": f"hexes[{raw['hexes'][0]['id']}].h1873",
             "node": f"hexes[{raw['hexes'][0]['id']}].nodes[{raw['hexes'][0]['nodes'][0]['id']}].h1873"}[where]
    assert err.value.field == field
    assert "data of ruleset '1873'" in err.value.message and "'standard'" in err.value.message


@pytest.mark.parametrize(("key", "value"), [("super", "5T-0"), ("diesel", False), ("type", "mining")])
def test_1873_train_data_on_another_ruleset_is_named(key: str, value: Any) -> None:
    """A train's 1873 fields (its super-train, diesel flag, kind) are read by the 1873 rules only."""
    raw = chain(3)
    raw["trains"][-1][key] = value
    with pytest.raises(BoardError) as err:
        board_from_snapshot(raw)
    assert err.value.field == f"trains[{len(raw['trains']) - 1}].{key}"
    assert "train data of ruleset '1873'" in err.value.message and "'standard'" in err.value.message


@pytest.mark.parametrize(("option", "value", "owner"), [("location_bonus", True, "1839"),
                                                       ("classes_share_track", True, "1871sc")])
def test_an_option_of_another_ruleset_is_named(option: str, value: Any, owner: str) -> None:
    raw = chain(3)
    raw["options"] = {option: value}
    with pytest.raises(BoardError) as err:
        board_from_snapshot(raw)
    assert err.value.field == f"options.{option}"
    assert f"an option of ruleset '{owner}'" in err.value.message and "'standard'" in err.value.message
    raw["options"] = {option: False}  # an option not set is no option
    assert board_from_snapshot(raw).options == {}
