"""Errors the solver raises for input that is out of spec, and for internal disagreements."""

from __future__ import annotations


class BoardError(ValueError):
    """Input out of spec. `field` names the offending field, e.g. `hexes[E4].paths[E4.p1].a`."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class EvaluatorDisagreement(RuntimeError):
    """The optimiser produced a route set the evaluator rejects or prices differently: a bug."""
