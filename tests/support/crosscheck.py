"""The one harness of the brute-force cross-checks (generic, modifiers, 1839/1871sc, 1873).

Each cross-check supplies a seeded board maker and an independent brute force; the harness builds
and caches the cases, solves with the real optimiser, checks the answer against the brute force,
the evaluator and the brute force's own rule judge, and reports every disagreement with its seed.
Random board shapes on the pointy axial grid are in `tests.support.boards`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from solver.evaluator import evaluate
from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.results import ClaimedRoute, SolveOptions, SolveResult
from solver.optimiser import solve

R = TypeVar("R")

@dataclass(frozen=True)
class Case(Generic[R]):
    """A seeded board and what the brute force found on it, with the size of its search."""

    seed: int
    board: Board
    brute: R
    snapshot: dict[str, Any]


class CrossCheck(Generic[R]):
    """Seeded boards from `make_snapshot`, judged by `brute_force(board, snapshot)`; cases are built once."""

    def __init__(self, make_snapshot: Callable[[int], dict[str, Any]],
                 brute_force: Callable[[Board, dict[str, Any]], R]) -> None:
        self.make_snapshot = make_snapshot
        self.brute_force = brute_force
        self._cases: dict[int, Case[R]] = {}

    def case(self, seed: int) -> Case[R]:
        if seed not in self._cases:
            snapshot = self.make_snapshot(seed)
            board = board_from_snapshot(snapshot)
            self._cases[seed] = Case(seed, board, self.brute_force(board, snapshot), snapshot)
        return self._cases[seed]

    def cases(self, seeds: Iterable[int]) -> list[Case[R]]:
        return [self.case(s) for s in seeds]


def claims_of(result: SolveResult, keep: Callable[[Any], bool] = lambda r: True) -> list[ClaimedRoute]:
    """The optimiser's routes as claims (those `keep` accepts)."""
    return [ClaimedRoute(train=r.train, nodes=list(r.nodes), legs=[list(leg.paths) for leg in r.legs])
            for r in result.routes if keep(r)]


def solve_or_report(board: Board, label: str, describe: Callable[[Board], str],
                    opts: SolveOptions | None = None) -> tuple[SolveResult | None, str | None]:
    """Solve; on any exception, no result and a report naming the case (a crash is a finding too)."""
    try:
        return solve(board, opts or SolveOptions()), None
    except Exception as exc:  # every crash is reported with its seed
        return None, f"{label}: solve raised {type(exc).__name__}: {exc}\n{describe(board)}"


def answer_problems(board: Board, result: SolveResult, optimum: int, claims: Sequence[ClaimedRoute],
                    judge: Callable[[Board, list], tuple[int, list]] | None = None) -> list[str]:
    """What is wrong with an answer: not the brute force's optimum, not proven, not legal at its
    revenue for the evaluator, or not for the brute force's own rule judge."""
    problems = []
    if result.revenue != optimum:
        problems.append(f"revenue {result.revenue} != brute force {optimum}")
    if result.status != "OPTIMAL":
        problems.append(f"status {result.status}")
    ev = evaluate(board, claims)
    if not ev.legal or ev.revenue != result.revenue:
        problems.append(f"evaluator: legal={ev.legal} revenue={ev.revenue} {[f.message for f in ev.findings]}")
    if judge is not None:
        own_rev, own_problems = judge(board, [(c.train, c.nodes, c.legs) for c in claims])
        if own_problems or own_rev != result.revenue:
            problems.append(f"brute-force rules: revenue {own_rev}, problems {own_problems}")
    return problems


def show_claims(claims: Sequence[ClaimedRoute]) -> str:
    return "\n".join(f"    {c.train}: {' '.join(c.nodes)} legs {c.legs}" for c in claims)


def assert_batch(check: Callable[[int], str | list[str] | None], seeds: Iterable[int]) -> None:
    """Every seed of the batch agrees; else one assertion listing each disagreement."""
    failures: list[str] = []
    for seed in seeds:
        found = check(seed)
        if isinstance(found, str):
            failures.append(found)
        elif found:
            failures.extend(found)
    assert not failures, f"{len(failures)} disagreement(s):\n" + "\n".join(failures)
