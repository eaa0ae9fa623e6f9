"""What-if scenarios and their answers: a change to one board, and the optimum of the changed board."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.model.results import PricedRoute, SolveResult, Status


@dataclass(frozen=True)
class Scenario:
    """One change to the board, and nothing else; the empty scenario is the unchanged board.

    `add_trains` are train specs (`NAME` of a train the board holds, `NAME=DISTANCE`, or a common
    name such as `5`, `3+3`, `6H`, `D`: `solver.whatif.train_specs`); `remove_trains` are train ids;
    `tokens` are node ids where the company places a station; `remove_modifiers` are modifier
    sources (a private company's modifiers all carry its id); `hexes` replace the tiles of those
    hexes (snapshot form)."""

    label: str = ""
    add_trains: tuple[str, ...] = ()
    remove_trains: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    add_modifiers: tuple[Any, ...] = ()
    remove_modifiers: tuple[str, ...] = ()
    hexes: tuple[dict[str, Any], ...] = ()

    @property
    def is_base(self) -> bool:
        return not (self.add_trains or self.remove_trains or self.tokens or self.add_modifiers
                    or self.remove_modifiers or self.hexes)

    @property
    def changes_track(self) -> bool:
        return bool(self.hexes)

    def describe(self) -> dict[str, Any]:
        """What the scenario changes, as JSON: `{"kind": "base"}`, `{"kind": "token", "node"}`,
        `{"kind": "add_train", "train"}`, `{"kind": "replace_train", "train", "replaces"}`,
        `{"kind": "remove_train", "train"}`, or `{"kind": "custom", ...the changes}`."""
        out: dict[str, Any]
        only_trains = not (self.tokens or self.add_modifiers or self.remove_modifiers or self.hexes)
        only_tokens = not (self.add_trains or self.remove_trains or self.add_modifiers or self.remove_modifiers
                           or self.hexes)
        if self.is_base:
            out = {"kind": "base"}
        elif only_tokens and len(self.tokens) == 1:
            out = {"kind": "token", "node": self.tokens[0]}
        elif only_trains and len(self.add_trains) == 1 and not self.remove_trains:
            out = {"kind": "add_train", "train": self.add_trains[0]}
        elif only_trains and len(self.add_trains) == 1 and len(self.remove_trains) == 1:
            out = {"kind": "replace_train", "train": self.add_trains[0], "replaces": self.remove_trains[0]}
        elif only_trains and not self.add_trains and len(self.remove_trains) == 1:
            out = {"kind": "remove_train", "train": self.remove_trains[0]}
        else:
            out = {"kind": "custom"}
            for key in ("add_trains", "remove_trains", "tokens", "remove_modifiers"):
                if getattr(self, key):
                    out[key] = list(getattr(self, key))
            if self.add_modifiers:
                out["add_modifiers"] = [getattr(m, "label", "") or getattr(m, "source", "") for m in self.add_modifiers]
            if self.hexes:
                out["hexes"] = [h.get("id", "?") if isinstance(h, dict) else "?" for h in self.hexes]
        if self.label:
            out["label"] = self.label
        return out


@dataclass
class ScenarioResult:
    """A scenario's answer: the optimum of the changed board and its delta to the unchanged board's,
    or the error (field-named) that made the scenario illegal."""

    scenario: Scenario
    index: int  # its place in the request's scenarios; -1 for the base, -2 for an advisor's
    result: SolveResult | None = None
    delta: int = 0  # income (revenue + subsidy) minus the unchanged board's
    error_field: str = ""
    error: str = ""
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.result is not None

    @property
    def revenue(self) -> int:
        return self.result.revenue if self.result is not None else 0

    @property
    def status(self) -> Status:
        return self.result.status if self.result is not None else Status.UNKNOWN

    @property
    def bound(self) -> int:
        return self.result.bound if self.result is not None else 0

    @property
    def routes(self) -> list[PricedRoute]:
        return self.result.routes if self.result is not None else []

    def as_dict(self) -> dict[str, Any]:
        """The scenario's answer as JSON-ready data (the command line's `--json` line)."""
        out: dict[str, Any] = {"scenario": self.scenario.describe()}
        if not self.ok:
            out.update(status="INVALID", error=f"{self.error_field}: {self.error}", field=self.error_field)
            return out
        assert self.result is not None
        out.update(revenue=self.result.revenue, subsidy=self.result.subsidy, delta=self.delta,
                   status=str(self.result.status), bound=self.result.bound,
                   solve_ms=round(self.stats.get("solve_ms", 0.0), 3), shared=bool(self.stats.get("shared", 0)),
                   routes=[r.as_dict() for r in self.result.routes])
        return out


@dataclass
class WhatIfResult:
    """Every scenario's answer: the unchanged board first, then the others by delta (best first),
    then the scenarios that were not legal, in request order."""

    base: ScenarioResult
    scenarios: list[ScenarioResult]
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def all(self) -> list[ScenarioResult]:
        return [self.base, *self.scenarios]
