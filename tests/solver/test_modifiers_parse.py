"""The strict modifier parser: every type read into typed data, every wrong value named by field."""

from __future__ import annotations

import pytest

from solver.input.snapshot import board_from_snapshot
from solver.model.errors import BoardError
from solver.modifiers import (
    BestRouteBonus,
    ComboBonus,
    DropLowestRoute,
    RequiredRoute,
    StopBonus,
    modifiers_from_json,
)
from tests.support.boards import chain_board

STOP = {"type": "StopBonus", "source": "MPC", "label": "Meat Packing", "hexes": {"D6": 30}, "count": "once"}
DEST = {"type": "StopBonus", "source": "destination", "label": "Destination", "hexes": {"M22": "stop_revenue"},
        "count": "once", "endpoint": True}
COMBO = {"type": "ComboBonus", "source": "east_west", "label": "E/W", "sets": [{"B18": 20, "C17": 30}, {"C5": 50}],
         "amount": "sum"}
MAIL = {"type": "BestRouteBonus", "source": "MAIL", "label": "Mail Contract", "per_visited_stop": 10,
        "award": "most_visited_stops"}
PAN = {"type": "BestRouteBonus", "source": "mn", "label": "Pan American", "amount": 40, "requires_hexes": ["Q2", "A4"],
       "award": "last"}
RUN = {"type": "RequiredRoute", "source": "connection_run", "label": "Connection run",
       "endpoint_hexes": ["E12", "M22"], "error": "At least one train has to run home to destination"}
DROP = {"type": "DropLowestRoute", "source": "civil_war", "label": "Civil War", "min_routes": 3}


def test_every_type_is_read_into_typed_data() -> None:
    mods = modifiers_from_json([STOP, DEST, COMBO, MAIL, PAN, RUN, DROP])
    assert mods[0] == StopBonus("MPC", "Meat Packing", (("D6", 30),), "once", False)
    assert mods[1].hexes == (("M22", "stop_revenue"),) and mods[1].endpoint
    assert isinstance(mods[2], ComboBonus) and mods[2].sets == ((("B18", 20), ("C17", 30)), (("C5", 50),))
    assert mods[2].amount == "sum"
    assert mods[3] == BestRouteBonus("MAIL", "Mail Contract", "most_visited_stops", per_visited_stop=10)
    assert mods[4] == BestRouteBonus("mn", "Pan American", "last", amount=40, requires_hexes=("Q2", "A4"))
    assert mods[5] == RequiredRoute("connection_run", "Connection run", ("E12", "M22"), RUN["error"])
    assert mods[6] == DropLowestRoute("civil_war", "Civil War", 3)
    assert modifiers_from_json([]) == ()


@pytest.mark.parametrize(("raw", "field"), [
    ({**STOP, "hexes": {"D6": "thirty"}}, "modifiers[0].hexes.D6"),
    ({**STOP, "hexes": {"D6": None}}, "modifiers[0].hexes.D6"),
    ({**STOP, "hexes": {"D6": -100_001}}, "modifiers[0].hexes.D6"),  # v2 allows negatives, down to -MAX_REVENUE
    ({**STOP, "hexes": {"D6": True}}, "modifiers[0].hexes.D6"),
    ({**STOP, "hexes": {}}, "modifiers[0].hexes"),
    ({**STOP, "count": "twice"}, "modifiers[0].count"),
    ({**STOP, "endpoint": "yes"}, "modifiers[0].endpoint"),
    ({**STOP, "label": None}, "modifiers[0].label"),
    ({**STOP, "colour": "red"}, "modifiers[0].colour"),
    ({**COMBO, "amount": "max"}, "modifiers[0].amount"),
    ({**COMBO, "amount": None}, "modifiers[0].amount"),
    ({**COMBO, "sets": []}, "modifiers[0].sets"),
    ({**COMBO, "sets": [{"B18": "x"}]}, "modifiers[0].sets[0].B18"),
    ({**MAIL, "award": "first"}, "modifiers[0].award"),
    ({**MAIL, "amount": 10}, "modifiers[0].amount"),
    ({k: v for k, v in MAIL.items() if k != "per_visited_stop"}, "modifiers[0].amount"),
    ({**PAN, "requires_hexes": "Q2"}, "modifiers[0].requires_hexes"),
    ({**PAN, "requires_hexes": ["Q2", 4]}, "modifiers[0].requires_hexes[1]"),
    ({**RUN, "endpoint_hexes": []}, "modifiers[0].endpoint_hexes"),
    ({**DROP, "min_routes": 0}, "modifiers[0].min_routes"),
    ({**DROP, "min_routes": "3"}, "modifiers[0].min_routes"),
    (None, "modifiers[0]"),
])
def test_wrong_values_name_their_field(raw: object, field: str) -> None:
    with pytest.raises(BoardError) as err:
        modifiers_from_json([raw])
    assert err.value.field == field


def test_unknown_type_is_rejected_by_name() -> None:
    with pytest.raises(BoardError, match="TrainBonus") as err:
        modifiers_from_json([STOP, {"type": "TrainBonus", "source": "x", "label": "y"}])
    assert err.value.field == "modifiers[1].type"


def test_list_itself_must_be_a_list() -> None:
    for raw in (None, {"type": "StopBonus"}, "StopBonus"):
        with pytest.raises(BoardError) as err:
            modifiers_from_json(raw)
        assert err.value.field == "modifiers"


def test_snapshot_carries_modifiers_and_revenue_model() -> None:
    b, _ = chain_board([10, 20])
    snap = b.snapshot()
    snap["modifiers"] = [{**STOP, "hexes": {"H1": 30}}, DROP]  # a hex of this board
    snap["revenue_model"] = "modifiers"
    board = board_from_snapshot(snap)
    assert [type(m) for m in board.modifiers] == [StopBonus, DropLowestRoute]
    assert board.revenue_model == "modifiers"
    snap["modifiers"] = [{**DROP, "min_routes": None}]
    with pytest.raises(BoardError) as err:
        board_from_snapshot(snap)
    assert err.value.field == "modifiers[0].min_routes"
    del snap["modifiers"]
    assert board_from_snapshot(snap).modifiers == ()
