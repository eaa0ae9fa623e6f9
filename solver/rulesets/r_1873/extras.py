"""What an 1873 run reports beyond revenue: routes serviced, maintenance, QLB bonus, net revenue
and each station's status after the run."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from solver.model.results import Objective, RunExtras


@dataclass
class HarzbahnRun(RunExtras):
    """The 1873 summary of a judged or solved run."""

    ruleset: ClassVar[str] = "1873"

    routes_serviced: int = 0
    maintenance: int = 0
    qlb_bonus: int = 0
    net_revenue: int = 0
    token_status: dict[str, str] = field(default_factory=dict)
    objective: Objective | None = None  # set on a solve
    routes_possible: int | None = None  # the most routes the trains can run together, when proven
