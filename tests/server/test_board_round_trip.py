"""Every corpus and stress position converts snapshot → protobuf `Board` → the same board model, and
solves to the same answer through both inputs (`snapshot_json` and `board`) on a sample per title.

Positions whose `modifiers` the current reader does not know yet (vocabulary v2 types, still being
added) are counted apart: only a BoardError from the modifiers reader itself skips a position, so they
join the test by themselves once the reader accepts them. Any other refusal fails the test."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_from_proto, board_from_request, board_to_proto
from solver.input.snapshot import board_from_snapshot
from solver.model.errors import BoardError
from solver.modifiers.parse import modifiers_from_json
from tests.conftest import CORPUS, STRESS
from tests.support.fuzz.checks import full_model


def _files() -> list[Path]:
    return (sorted(CORPUS.glob("*/*.jsonl.gz")) + sorted((CORPUS / "examples").glob("*.json"))
            + sorted(STRESS.glob("*.jsonl.gz")))


def positions() -> Iterator[tuple[str, dict[str, Any]]]:
    """(source, snapshot) of every position of the corpus, its examples and the stress set."""
    for path in _files():
        if path.suffix == ".json":
            yield str(path.relative_to(CORPUS.parent)), json.loads(path.read_text(encoding="utf-8"))
            continue
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for i, line in enumerate(fh):
                yield f"{path.relative_to(CORPUS.parent)}:{i}", json.loads(line)


def modifiers_not_read_yet(raw: dict[str, Any]) -> bool:
    """Whether the modifiers reader refuses this position's modifiers (a type it does not know yet)."""
    try:
        modifiers_from_json(raw.get("modifiers", []))
    except BoardError:
        return True
    return False


def title_of(source: str) -> str:
    return source.split("/")[1] if source.startswith("stress/") else source.split("/")[1].split(":")[0]


def _half_edge(raw: dict[str, Any]) -> bool:
    return any(n.get("near_edge") not in (None, int(n.get("near_edge") or 0))
               for hx in raw["hexes"] for n in hx.get("nodes", []))


@cache
def round_trip_tally() -> tuple[Counter[str], tuple[tuple[str, str], ...]]:
    """Convert every position both ways and compare the models; the tally and a solve sample per title
    (the first and the last position of the corpus title, and the first half-edge town)."""
    tally: Counter[str] = Counter()
    sample: dict[str, str] = {}
    for source, raw in positions():
        if modifiers_not_read_yet(raw):
            tally["skipped: modifiers not read yet"] += 1
            continue
        board = board_from_snapshot(raw)  # any other refusal fails the test, naming the field
        msg = board_to_proto(board)
        again = board_from_proto(pb.Board.FromString(msg.SerializeToString()))
        assert full_model(again) == full_model(board), f"{source}: the model changed through the protocol"
        tally["converted"] += 1
        tally["1873"] += board.ruleset == "1873"
        tally["modifiers"] += bool(board.modifiers)
        if _half_edge(raw):
            tally["half-edge towns"] += 1
            sample.setdefault("half edge", source)
        if not source.startswith("stress/") and "/examples/" not in f"/{source}":
            sample.setdefault(title_of(source) + " first", source)
            sample[title_of(source) + " last"] = source
    return tally, tuple(sorted(sample.items()))


def test_every_position_converts_to_a_board_and_back_without_loss() -> None:
    tally, _ = round_trip_tally()
    assert tally["converted"] >= 2_000, tally
    assert tally["half-edge towns"] >= 50 and tally["1873"] >= 64 and tally["modifiers"] >= 500, tally
    print(f"\nround trip: {dict(tally)}")


@cache
def _raw(source: str) -> str:
    path, _, line = source.partition(":")
    full = CORPUS.parent / path
    if not line:
        return full.read_text(encoding="utf-8")
    with gzip.open(full, "rt", encoding="utf-8") as fh:
        for i, text in enumerate(fh):
            if i == int(line):
                return text
    raise IndexError(source)


def test_solve_gives_the_same_answer_through_both_inputs(stub) -> None:
    _, sample = round_trip_tally()
    assert len(sample) >= 30 and any(name == "half edge" for name, _ in sample), sample
    for name, source in sample:
        text = _raw(source)
        by_json = stub.Solve(pb.SolveRequest(snapshot_json=text, time_limit_s=30), timeout=120)
        msg = board_to_proto(board_from_request(pb.SolveRequest(snapshot_json=text)))
        by_board = stub.Solve(pb.SolveRequest(board=msg, time_limit_s=30), timeout=120)
        assert by_json.status == by_board.status == pb.OPTIMAL, (name, source, by_json.status, by_board.status)
        assert by_json.revenue == by_board.revenue, (name, source)
        assert [list(r.nodes) for r in by_json.routes] or by_json.revenue == 0, (name, source)


@pytest.mark.parametrize(("halves", "whole", "expected"), [(11, None, 5.5), (1, None, 0.5), (4, None, 2), (4, 2, 2)])
def test_near_edge_halves_is_read(halves: int, whole: int | None, expected: float) -> None:
    raw = json.loads(_raw(round_trip_tally()[1][0][1]))  # any readable position
    board = board_from_snapshot(raw)
    msg = board_to_proto(board)
    town = next(n for h in msg.hexes for n in h.nodes)
    town.ClearField("near_edge")
    town.near_edge_halves = halves
    if whole is not None:
        town.near_edge = whole
    assert board_from_proto(msg).nodes[town.id].near_edge == expected


@pytest.mark.parametrize(("halves", "whole"), [(12, None), (-1, None), (11, 5), (3, 1)])
def test_bad_near_edge_halves_names_the_field(halves: int, whole: int | None) -> None:
    raw = json.loads(_raw(round_trip_tally()[1][0][1]))
    msg = board_to_proto(board_from_snapshot(raw))
    hx = msg.hexes[next(i for i, h in enumerate(msg.hexes) if h.nodes)]
    town = hx.nodes[0]
    town.near_edge_halves = halves
    if whole is not None:
        town.near_edge = whole
    else:
        town.ClearField("near_edge")
    with pytest.raises(BoardError) as info:
        board_from_proto(msg)
    assert info.value.field == f"board.hexes[{hx.id}].nodes[{town.id}].near_edge_halves"
