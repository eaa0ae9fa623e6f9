"""Errors the solver raises for input that is out of spec, and for internal disagreements."""

from __future__ import annotations


class BoardError(ValueError):
    """Input out of spec. `field` names the offending field, e.g. `hexes[E4].paths[E4.p1].a`."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message

    def __reduce__(self) -> tuple[type[BoardError], tuple[str, str]]:
        """Pickled by its two fields (a worker process hands it back whole; by `args` alone it would not load)."""
        return BoardError, (self.field, self.message)


class EvaluatorDisagreement(RuntimeError):
    """The optimiser produced a route set the evaluator rejects or prices differently: a bug."""
