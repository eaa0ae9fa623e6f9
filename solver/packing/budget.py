"""One policy for sharing a solve's time limit between its phases.

A solve walks the track into candidate routes, prices them, finds a quick greedy packing, prunes,
builds the CP-SAT model and searches it. Each phase must end by a fixed share of the limit, so
that the later phases, and above all an answer, always get time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

# the share of the time limit by which each phase must have ended (cumulative)
PHASE_ENDS: dict[str, float] = {
    "walk": 0.25,  # enumerating route shapes
    "enumerate": 0.5,  # shapes priced into candidates
    "greedy": 0.9,  # the greedy packing (a lower bound)
    "build": 0.95,  # building the packing model
}
RESERVE_S = 0.1  # kept back from the search for the evaluator's check and the answer ...
RESERVE_SHARE = 0.15  # ... but never more than this share of the limit


@dataclass(frozen=True)
class Budget:
    """A time limit that started at `start` (time.monotonic)."""

    start: float
    limit: float

    @classmethod
    def starting_now(cls, limit_s: float) -> Budget:
        return cls(start=time.monotonic(), limit=limit_s)

    @property
    def deadline(self) -> float:
        """When the whole solve must end."""
        return self.start + self.limit

    @property
    def search_end(self) -> float:
        """When the search must stop: the deadline less a reserve for checking and returning the answer."""
        return self.deadline - min(RESERVE_S, RESERVE_SHARE * self.limit)

    def until(self, phase: str) -> float:
        """When `phase` must have ended."""
        return self.start + self.limit * PHASE_ENDS[phase]

    def share_of_search(self, share: float) -> float:
        """When `share` of the search time left from now has passed."""
        now = time.monotonic()
        return now + max(0.0, self.search_end - now) * share

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def elapsed_ms(self) -> float:
        return (time.monotonic() - self.start) * 1000.0
