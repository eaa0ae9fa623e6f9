"""Property tests of every entry point with random and mutated real boards (hypothesis, derandomised).

Each entry either accepts a board or rejects it with a BoardError / INVALID_ARGUMENT that names a
field path; never another exception, never UNKNOWN or INTERNAL. An accepted board means the same on
both input paths. ROUTEMAX_FUZZ_EXAMPLES=10000 runs a longer campaign (about that many examples in all).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from routemax.v1 import routemax_pb2 as pb
from server.convert import board_from_proto, board_from_request, board_to_proto, claims_from_proto
from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.errors import BoardError
from solver.model.results import ClaimedRoute
from solver.routes.claim_limits import check_claims
from tests.support.fuzz import corpus
from tests.support.fuzz.checks import (
    TALLY,
    assert_grpc_names_field,
    assert_names_field,
    full_model,
    model_key,
    write_tally,
)
from tests.support.fuzz.strategies import claimed_routes, mutated_position, random_board, raw_text, regrouped_position
from tests.support.fuzz.to_proto import board_from_raw

SCALE = int(os.environ.get("ROUTEMAX_FUZZ_EXAMPLES", "0")) / 2000 or 1.0


def examples(n: int) -> settings:
    """Derandomised settings with `n` examples (scaled up for the long campaign)."""
    return settings(derandomize=True, max_examples=max(1, int(n * SCALE)), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module", autouse=True)
def tally() -> Iterator[None]:
    yield
    write_tally()


def read(raw: Any) -> Board | BoardError:
    """The snapshot reader's answer: a board or the BoardError (any other exception fails the test)."""
    try:
        return board_from_snapshot(raw)
    except BoardError as exc:
        assert_names_field(exc)
        return exc


def read_proto(msg: pb.Board) -> Board | BoardError:
    try:
        return board_from_proto(msg)
    except BoardError as exc:
        assert_names_field(exc)
        return exc


def assert_round_trip(board: Board) -> None:
    """The parsed board, sent as a protobuf board, reads back the same (every board the reader accepts)."""
    msg = board_to_proto(board)
    again = board_from_proto(pb.Board.FromString(msg.SerializeToString()))
    assert full_model(again) == full_model(board)


# -- the snapshot reader and the proto converter, in the library ------------------------------------------------------

@examples(900)
@given(mutated_position())
def test_snapshot_reader_accepts_or_names_the_field(case: tuple[dict[str, Any], str]) -> None:
    raw, how = case
    TALLY["examples: snapshot reader"] += 1
    result = read(raw)
    if isinstance(result, Board):
        TALLY["accepted: snapshot reader"] += 1
        assert_round_trip(result)


@examples(500)
@given(mutated_position(include_1873=False))
def test_both_paths_reject_the_same_and_read_the_same(case: tuple[dict[str, Any], str]) -> None:
    raw, how = case
    TALLY["examples: both paths"] += 1
    msg = board_from_raw(raw)
    if msg is None:
        TALLY["both paths: mutation the protocol cannot carry"] += 1
        read(raw)
        return
    by_json, by_proto = read(raw), read_proto(msg)
    assert isinstance(by_json, Board) == isinstance(by_proto, Board), (how, by_json, by_proto)
    if isinstance(by_json, Board) and isinstance(by_proto, Board):
        assert model_key(by_json) == model_key(by_proto), how


GROUPS_FIELD = re.compile(r"\.nodes\[[^\]]+\]\.groups(\[\d+\])?$")


def has_repeated_group(raw: dict[str, Any]) -> bool:
    return any(len(set(n.get("groups", []))) < len(n.get("groups", []))
               for hx in raw["hexes"] for n in hx.get("nodes", []))


@examples(200)
@given(regrouped_position(include_1873=False))
def test_both_paths_read_odd_group_lists_alike(case: tuple[dict[str, Any], str]) -> None:
    """Repeated, empty, blank, long and too many group names: the same answer on both paths, and a
    repeated name is always refused naming that node's `groups`."""
    raw, how = case
    TALLY["examples: odd groups"] += 1
    msg = board_from_raw(raw)
    assert msg is not None, how
    by_json, by_proto = read(raw), read_proto(msg)
    if has_repeated_group(raw):
        assert isinstance(by_json, BoardError), how
        TALLY["odd groups: repeated name refused"] += 1
    if isinstance(by_json, BoardError):
        assert isinstance(by_proto, BoardError), how
        # both name a groups field (with several odd nodes, each path may name another one first)
        assert GROUPS_FIELD.search(by_json.field) and GROUPS_FIELD.search(by_proto.field), (by_json, by_proto)
        assert by_proto.field.startswith("board.hexes["), by_proto
    else:
        assert isinstance(by_proto, Board), (how, by_proto)
        assert model_key(by_json) == model_key(by_proto), how


@examples(150)
@given(raw_text)
def test_snapshot_json_text_is_parsed_or_rejected(text: str) -> None:
    TALLY["examples: snapshot_json text"] += 1
    with pytest.raises(BoardError) as info:
        board_from_request(pb.SolveRequest(snapshot_json=text))
    assert_names_field(info.value)
    assert info.value.field.startswith("snapshot_json")


# -- the evaluator: claimed runs ---------------------------------------------------------------------------------------

BOARDS: dict[int, Board] = {}


def _board(i: int) -> Board:
    if i not in BOARDS:
        BOARDS[i] = board_from_snapshot(corpus.position(i))
    return BOARDS[i]


@st.composite
def board_and_claims(draw: st.DrawFn) -> tuple[int, list[dict[str, Any]]]:
    i = draw(st.integers(0, corpus.count() - 1))
    return i, draw(claimed_routes(corpus.position(i)))


@examples(300)
@given(board_and_claims())
def test_evaluator_judges_any_claimed_run(case: tuple[int, list[dict[str, Any]]]) -> None:
    i, routes = case
    TALLY["examples: evaluator"] += 1
    claims = [ClaimedRoute(train=r["train"], nodes=r["nodes"], legs=r["legs"]) for r in routes]
    try:
        check_claims(claims)
    except BoardError as exc:
        assert_names_field(exc)
        return
    evaluation = evaluate(_board(i), claims)
    if any(len(set(c.nodes)) < len(c.nodes) for c in claims):
        assert not evaluation.legal
        TALLY["evaluator: repeated stops judged illegal"] += 1


# -- the service -------------------------------------------------------------------------------------------------------

def call(rpc: Any, request: Any, timeout: float = 60) -> Any | None:
    """The response, or None for INVALID_ARGUMENT naming a field; any other status fails."""
    try:
        return rpc(request, timeout=timeout)
    except grpc.RpcError as exc:
        assert exc.code() == grpc.StatusCode.INVALID_ARGUMENT, (exc.code(), exc.details()[:300])
        assert_grpc_names_field(exc.details())
        return None


def assert_same_answer_both_ways(stub: Any, raw: dict[str, Any]) -> None:
    """Solve as snapshot_json and as a protobuf board: the same revenue and status, and the optimiser's
    routes pass the evaluator at that revenue."""
    request = pb.SolveRequest(snapshot_json=json.dumps(raw), time_limit_s=20)
    by_json = call(stub.Solve, request)
    try:  # the library's reading of the same request
        board: Board | BoardError = board_from_request(request)
    except BoardError as exc:
        board = exc
    assert (by_json is None) == isinstance(board, BoardError), board
    if by_json is None or not isinstance(board, Board):
        return
    TALLY["service: solved"] += 1
    msg = board_to_proto(board)
    by_proto = call(stub.Solve, pb.SolveRequest(board=msg, time_limit_s=20))
    assert by_proto is not None
    assert (by_proto.revenue, by_proto.status) == (by_json.revenue, by_json.status)
    claimed = [pb.ClaimedRoute(train=r.train, nodes=list(r.nodes), legs=[pb.Leg(paths=list(leg.paths))
                                                                        for leg in r.legs]) for r in by_json.routes]
    verdict = call(stub.Evaluate, pb.EvaluateRequest(board=msg, routes=claimed))
    assert verdict is not None and verdict.legal and verdict.revenue == by_json.revenue


@examples(60)
@given(random_board())
def test_service_solves_random_boards_the_same_both_ways(stub: Any, raw: dict[str, Any]) -> None:
    TALLY["examples: service random boards"] += 1
    assert_same_answer_both_ways(stub, raw)


@examples(40)
@given(mutated_position())
def test_service_answers_mutated_boards_or_names_the_field(stub: Any, case: tuple[dict[str, Any], str]) -> None:
    raw, how = case
    TALLY["examples: service mutated boards"] += 1
    assert_same_answer_both_ways(stub, raw)


@examples(25)
@given(regrouped_position(include_1873=False))
def test_service_answers_odd_group_lists_or_names_the_field(stub: Any, case: tuple[dict[str, Any], str]) -> None:
    raw, how = case
    TALLY["examples: service odd groups"] += 1
    assert_same_answer_both_ways(stub, raw)


@examples(60)
@given(board_and_claims())
def test_service_evaluates_any_claimed_run(stub: Any, case: tuple[int, list[dict[str, Any]]]) -> None:
    i, routes = case
    TALLY["examples: service evaluate"] += 1
    claimed = [pb.ClaimedRoute(train=r["train"], nodes=r["nodes"], legs=[pb.Leg(paths=leg) for leg in r["legs"]])
               for r in routes]
    request = pb.EvaluateRequest(snapshot_json=json.dumps(corpus.position(i)), routes=claimed)
    response = call(stub.Evaluate, request)
    if response is not None:
        assert len(response.routes) <= len(claimed)
        assert check_claims(claims_from_proto(claimed)) is None


@examples(60)
@given(raw_text)
def test_service_rejects_raw_text(stub: Any, text: str) -> None:
    TALLY["examples: service raw text"] += 1
    assert call(stub.Solve, pb.SolveRequest(snapshot_json=text)) is None
