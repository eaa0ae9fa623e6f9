"""What a search strategy found, in one type for all of them: the CP-SAT packing (`pack.pack`), the
exact branch and bounds (`setpack.exact_packing`, and `once_pack.once_packing` when a stop pays
once), the compact circuit model (`compact_model.CompactModel.solve`) and the race of the two
(`portfolio.race`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.model.results import Status
from solver.routes.pricing import Candidate

Choice = tuple[int, int]  # (candidate index, train class index)


@dataclass
class Packing:
    """A packing of candidate routes onto train classes.

    `status`: OPTIMAL (proven), FEASIBLE (an answer, not proven) or UNKNOWN (no answer in time:
    `chosen` is then the packing the strategy was given, or none). `chosen`: (candidate, class) pairs
    into `cands`, or into the caller's candidates when `cands` is None. `bound`: an upper bound on the
    value of any packing, None when the strategy proved none. `stats`: the work done, by name.
    """

    status: Status
    chosen: list[Choice]
    bound: int | None = None
    stats: dict[str, float] = field(default_factory=dict)
    cands: list[Candidate] | None = None  # the candidates `chosen` indexes, when they are the strategy's own
