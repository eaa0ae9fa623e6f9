"""Protocol extensions registered per ruleset: a ruleset's typed board field and the typed extras
of its responses. The generic conversion (`server.convert`) reaches them only through `get` and
`board_fields`.

Adding one: a module `server/extensions/r_<name>.py` exporting `EXTENSION` (an `Extension`) and a
line in `_EXTENSIONS`.
"""

from __future__ import annotations

from typing import Protocol

from routemax.v1 import routemax_pb2 as pb
from server.extensions import r_1839, r_1873
from solver.model.board import Board
from solver.model.results import RunExtras


class Extension(Protocol):
    ruleset: str
    board_field: str  # the field of `Board` that carries this ruleset's typed extension ("" for none)

    def apply(self, msg: pb.Board, board: Board) -> None:
        """Put the extension of a proto board on the model board (BoardError names the field)."""

    def board_to_proto(self, board: Board, msg: pb.Board) -> None:
        """Write the ruleset's extension of a model board into a proto board."""

    def fill_response(self, extras: RunExtras | None, resp: pb.SolveResponse | pb.EvaluateResponse) -> None:
        """Write the ruleset's typed extras into a response."""


_EXTENSIONS: dict[str, Extension] = {e.ruleset: e for e in (r_1873.EXTENSION, r_1839.EXTENSION)}


def get(ruleset: str) -> Extension | None:
    """The extension registered for a ruleset, if any."""
    return _EXTENSIONS.get(ruleset)


def with_board_field() -> list[Extension]:
    """The extensions that carry a typed board field."""
    return [e for e in _EXTENSIONS.values() if e.board_field]


def all_extensions() -> list[Extension]:
    return list(_EXTENSIONS.values())
