"""Claimed legs checked once per board: the recorded run and the optimiser's answer (re-checked by the
evaluator) often claim the same legs, and a leg's check (`legs.leg_from_paths`) reads only the board's
hexes, nodes and paths. Its answer for (a, b, path ids) is kept beside the board, bound to the very dicts
of hexes, nodes and paths it was given (a board made from it with other ones, as a ruleset's view or a
what-if makes them, checks anew); the board's hexes, nodes and paths are never changed once read.
"""

from __future__ import annotations

from typing import Any

CheckKey = tuple[str, str, tuple[str, ...]]  # (from node, to node, the claimed path ids in order)


class LegChecks:
    """The answers of `leg_from_paths` on one board (a Leg, or why not), by `CheckKey`. Bounded: past
    LIMIT answers all are dropped (a client may claim any number of legs)."""

    LIMIT = 4096
    __slots__ = ("hexes", "nodes", "paths", "answers")

    def __init__(self, board: Any) -> None:
        self.hexes: dict[str, Any] = board.hexes
        self.nodes: dict[str, Any] = board.nodes
        self.paths: dict[str, Any] = board.paths
        self.answers: dict[CheckKey, Any] = {}

    def bound_to(self, board: Any) -> bool:
        """Whether `board` holds the very dicts these answers were checked on."""
        return board.holds_track_of(self)

    def keep(self, key: CheckKey, answer: Any) -> None:
        """Keep one answer."""
        if len(self.answers) >= self.LIMIT:
            self.answers.clear()
        self.answers[key] = answer


def checks_of(board: Any) -> LegChecks:
    """The checks kept for `board` (its `leg_checks`), made (and set on it) when none are bound to it."""
    checks = getattr(board, "leg_checks", None)  # (a board unpickled from before the field: none)
    if checks is None or not checks.bound_to(board):
        checks = board.leg_checks = LegChecks(board)
    return checks
