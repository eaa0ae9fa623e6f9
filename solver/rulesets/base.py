"""The interface every ruleset implements, and the only way the core, the service, the command line
and the audit reach a game's rules (through the registry in `solver.rulesets`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from solver.model.board import Board, Train
from solver.model.cancel import CancelToken
from solver.model.results import ClaimedRoute, Evaluation, Finding, Objective, SolveOptions, SolveResult

C = TypeVar("C")  # a ruleset's typed context


@dataclass(frozen=True)
class Prepared(Generic[C]):
    """A board as one ruleset's rules read it, made once per request by `Ruleset.prepare`: the board
    view (1839: private powers applied; 1871sc: freight and passenger groups) and the ruleset's
    typed context (1873: the `Harzbahn` facts; None for the others)."""

    board: Board
    context: C


class Ruleset(ABC, Generic[C]):
    """One game's (or the generic) route rules.

    The hooks, in the order a request meets them: `validate` (input the ruleset cannot represent),
    then `prepare`, which the core (`solver.optimiser.solve`, `solver.evaluator`) calls once per
    request, then `evaluate` or `solve` on what it prepared, then `advisory_findings` (rules a judged
    run may break without being illegal) on the same. `track_group` says which routes may not share
    track. Game-specific rules stated as data in the board (modifiers) belong to no ruleset: every
    ruleset's evaluator and optimiser apply them."""

    name: str
    description: str
    train_kinds: tuple[str, ...]
    default_objective: Objective | None = None
    titles: tuple[str, ...] = ()  # 18xx.games titles whose snapshots this ruleset prices
    flood_trains: bool = False  # whether FLOOD trains (distance unit "flood") run under it
    applies_modifiers: bool = False  # whether its evaluator and optimiser apply the board's modifiers
    board_data: tuple[str, ...] = ()  # its own data on the board: keys of `Board.extra`, `Hex.extra`, `Node.extra`
    request_options: tuple[str, ...] = ()  # the request options its rules read (`Board.options`)
    train_data: tuple[str, ...] = ()  # its own data on a train: keys of `Train.extra`

    def validate(self, board: Board) -> None:  # noqa: B027 (optional hook: nothing to check by default)
        """Raise `BoardError` for input this ruleset cannot represent (the generic checks ran already)."""

    def prepare(self, board: Board) -> Prepared[C]:
        """The board as this ruleset's rules read it, and its typed context (default: the board
        unchanged, no context). Called once per request; the other hooks get what it returns."""
        return Prepared(board, None)  # type: ignore[arg-type]

    @abstractmethod
    def evaluate(self, prepared: Prepared[C], claims: Sequence[ClaimedRoute]) -> Evaluation:
        """Every rule the claimed run breaks, and the revenue the rules give it."""

    @abstractmethod
    def solve(self, prepared: Prepared[C], opts: SolveOptions) -> SolveResult:
        """The best legal run, checked by `evaluate` before it is returned."""

    def advisory_findings(self, prepared: Prepared[C], evaluation: Evaluation, time_limit_s: float,
                          cancel: CancelToken | None = None) -> list[Finding]:
        """Findings that do not make a legal run illegal (default: none)."""
        return []

    def track_group(self, board: Board, train: Train) -> str:
        """Routes of one group share no track; by default all of a company's routes form one group."""
        return ""


class MineProduction(Protocol):
    """A mining company's production: revenue (with the bonus), the bonus, per mine, the switchers."""

    revenue: int
    bonus: int
    per_mine: dict[str, int]
    switchers: dict[str, int]  # mine id -> switcher size (0: none)


class MineProducer(ABC):
    """A ruleset that also prices mining companies' production (1873: the MineProduction entry)."""

    @abstractmethod
    def mine_production(self, mines: Sequence[Mapping[str, Any]], public: bool, harzer_werke: bool = False,
                        hw_bonus: int = 50) -> MineProduction:
        """The production of the mines (plain rows); BoardError names a bad field."""
