"""The interface every ruleset implements, and the only way the core, the service, the command line
and the audit reach a game's rules (through the registry in `solver.rulesets`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.model.results import ClaimedRoute, Evaluation, Finding, Objective, SolveOptions, SolveResult


class Ruleset(ABC):
    """One game's (or the generic) route rules.

    The hooks, in the order a request meets them: `validate` (input the ruleset cannot represent),
    then `evaluate` or `solve` on the validated board (each applies the ruleset's board view,
    `prepare`, itself), then `advisory_findings` (rules a judged run may break without being illegal). `track_group`
    says which routes may not share track. Game-specific rules stated as data in the board
    (modifiers) belong to no ruleset: every ruleset's evaluator and optimiser apply them."""

    name: str
    description: str
    train_kinds: tuple[str, ...]
    default_objective: Objective | None = None
    titles: tuple[str, ...] = ()  # 18xx.games titles whose snapshots this ruleset prices
    flood_trains: bool = False  # whether FLOOD trains (distance unit "flood") run under it
    applies_modifiers: bool = False  # whether its evaluator and optimiser apply the board's modifiers

    def validate(self, board: Board) -> None:  # noqa: B027 (optional hook: nothing to check by default)
        """Raise `BoardError` for input this ruleset cannot represent (the generic checks ran already)."""

    def prepare(self, board: Board) -> Board:
        """The board as this ruleset's rules read it (default: unchanged)."""
        return board

    @abstractmethod
    def evaluate(self, board: Board, claims: Sequence[ClaimedRoute]) -> Evaluation:
        """Every rule the claimed run breaks, and the revenue the rules give it."""

    @abstractmethod
    def solve(self, board: Board, opts: SolveOptions) -> SolveResult:
        """The best legal run, checked by `evaluate` before it is returned."""

    def advisory_findings(self, board: Board, evaluation: Evaluation, time_limit_s: float,
                          cancel: CancelToken | None = None) -> list[Finding]:
        """Findings that do not make a legal run illegal (default: none)."""
        return []

    def track_group(self, board: Board, train: Train) -> str:
        """Routes of one group share no track; by default all of a company's routes form one group."""
        return ""
