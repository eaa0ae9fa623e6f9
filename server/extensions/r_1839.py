"""The 1839 parts of the protocol: each foreign company's income in a response."""

from __future__ import annotations

from routemax.v1 import routemax_pb2 as pb
from solver.model.board import Board
from solver.model.results import RunExtras


class Rules1839Extension:
    """The 1839 ruleset's protocol extension: no board field, foreign income in responses."""

    ruleset = "1839"
    board_field = ""

    @staticmethod
    def apply(msg: pb.Board, board: Board) -> None:
        """1839 has no typed board extension (its fields are generic node and option fields)."""

    @staticmethod
    def board_to_proto(board: Board, msg: pb.Board) -> None:
        """Nothing beyond the generic fields."""

    @staticmethod
    def fill_response(extras: RunExtras | None, resp: pb.SolveResponse | pb.EvaluateResponse) -> None:
        if extras is not None and extras.ruleset == "1839":
            income = extras.foreign_income  # type: ignore[attr-defined]
            resp.foreign_income.extend(pb.ForeignIncome(node=k, income=v) for k, v in income.items())


EXTENSION = Rules1839Extension()
