"""The types every ruleset returns and every caller reads: claimed and priced routes, findings,
evaluations, solve options and solve results.

Rulesets add their own typed extras (`RunExtras` subclasses) rather than untyped dictionaries.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from solver.model.cancel import CancelToken
from solver.model.legs import Leg


class Status(StrEnum):
    """How good an answer is: proven best, legal but maybe not best, none exists, or none found in time."""

    OPTIMAL = "OPTIMAL"
    FEASIBLE = "FEASIBLE"
    INFEASIBLE = "INFEASIBLE"
    UNKNOWN = "UNKNOWN"


class Objective(StrEnum):
    """What a solve maximises where a ruleset knows more than one reading: RULEBOOK is the rules'
    own reading (1873's service rule; elsewhere the company's whole income, revenue + subsidy),
    REVENUE_ONLY the run's revenue alone."""

    RULEBOOK = "RULEBOOK"
    REVENUE_ONLY = "REVENUE_ONLY"


@dataclass(frozen=True)
class Finding:
    """One broken rule: a machine-readable code, a sentence, and the route it concerns (-1: the set).

    `hard=False` marks an advisory finding that does not make a run illegal."""

    code: str
    message: str
    route: int = -1
    hard: bool = True

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "route": self.route, "hard": self.hard}


@dataclass(frozen=True)
class BonusLine:
    """One line of revenue beside the stops: a game-specific bonus on a route (`east-west +50`), or
    a run adjustment such as a dropped route (a negative amount)."""

    label: str
    amount: int
    source: str

    def as_dict(self) -> dict[str, object]:
        return {"label": self.label, "amount": self.amount, "source": self.source}


@dataclass
class ClaimedRoute:
    """A route as a client states it: the train, its stops, and per leg the path ids (or the hexes)."""

    train: str
    nodes: list[str]
    legs: list[list[str]] = field(default_factory=list)
    connections: list[list[str]] = field(default_factory=list)


@dataclass
class PricedRoute:
    """A judged route with the revenue of each stop and its total."""

    train: str
    nodes: list[str]
    legs: list[Leg]
    stop_revenues: list[int]
    revenue: int  # the stops plus every bonus line
    bonuses: list[BonusLine] = field(default_factory=list)  # game-specific bonuses, one line each
    subsidy: int = 0  # paid to the company besides the revenue (StopBonus with target "subsidy")

    def as_dict(self) -> dict[str, Any]:
        """The route as JSON-ready data in the snapshot's id scheme."""
        return {"train": self.train, "nodes": self.nodes, "legs": [list(leg.paths) for leg in self.legs],
                "hexes": [list(leg.hexes) for leg in self.legs], "stop_revenues": self.stop_revenues,
                "bonuses": [b.as_dict() for b in self.bonuses], "revenue": self.revenue,
                "subsidy": self.subsidy}


@dataclass
class RunExtras:
    """A ruleset's typed additions to an evaluation or a solve (base: none)."""

    ruleset: ClassVar[str] = ""  # the ruleset whose extras these are

    def as_dict(self) -> dict[str, Any]:
        """The extras as JSON-ready data (keys are the field names)."""
        return asdict(self)


@dataclass
class Evaluation:
    """The verdict on a claimed route set: legal or not, the revenue the rules give, every finding."""

    legal: bool
    revenue: int
    routes: list[PricedRoute]
    findings: list[Finding]
    extras: RunExtras | None = None
    run_lines: list[BonusLine] = field(default_factory=list)  # run adjustments (a dropped route), in `revenue`
    subsidy: int = 0  # the run's subsidy: the sum of its routes' subsidies, paid besides `revenue`

    @property
    def hard_findings(self) -> list[Finding]:
        return [f for f in self.findings if f.hard]


@dataclass
class SolveOptions:
    """How long to search, with how many CP-SAT workers, and under which objective."""

    time_limit_s: float = 10.0
    workers: int = 1
    candidate_cap: int = 2_000_000
    objective: Objective | None = None  # None: the ruleset's default
    cancel: CancelToken | None = None  # set it to stop the solve early (best answer so far)
    # work shared by the what-if scenarios of one board (solver.whatif.shared.SharedWork): its
    # `leg_graph(board)` and `candidate_routes(...)` stand in for the generic optimiser's own
    prepared: Any = None


@dataclass
class SolveResult:
    """The optimiser's answer: revenue, status, an upper bound, the routes and the work done."""

    revenue: int
    status: Status
    bound: int  # an upper bound on the objective (revenue + subsidy, or revenue alone with REVENUE_ONLY)
    routes: list[PricedRoute]
    stats: dict[str, float] = field(default_factory=dict)
    evaluation: Evaluation | None = None
    extras: RunExtras | None = None
    reason: str = ""  # why there is no answer (INFEASIBLE), when the ruleset can say
    subsidy: int = 0  # the run's subsidy, paid to the company besides `revenue`
