"""What an 1839 run reports beyond revenue: each foreign company's income."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from solver.model.results import RunExtras


@dataclass
class ForeignIncome(RunExtras):
    """20 % of the run, rounded down, for each foreign company whose off-board the company reached."""

    ruleset: ClassVar[str] = "1839"

    foreign_income: dict[str, int] = field(default_factory=dict)
