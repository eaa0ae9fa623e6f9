"""The audit summary: positions, illegal runs, runs below the optimum and money left on the table,
by title and by company; positions outside our rulesets and unreadable ones counted apart."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from solver.audit.flags import flagged, outside_rulesets

__all__ = ["Summary", "Tally", "flagged", "outside_rulesets", "summarise"]


@dataclass
class Tally:
    positions: int = 0
    illegal: int = 0
    below: int = 0
    left: int = 0
    underserviced: int = 0
    mispaid: int = 0

    def add(self, line: dict[str, Any]) -> None:
        self.positions += 1
        verdict = line.get("verdict") or {}
        if not verdict.get("legal", True):
            self.illegal += 1
        gap = line.get("gap") or 0
        if gap > 0:
            self.below += 1
            self.left += gap
        codes = {f.get("code") for f in verdict.get("findings", [])}
        self.underserviced += "UNDERSERVICED" in codes
        self.mispaid += "RECORDED_REVENUE_MISMATCH" in codes


@dataclass
class Summary:
    by_title: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    by_company: dict[tuple[str, str], Tally] = field(default_factory=lambda: defaultdict(Tally))
    total: Tally = field(default_factory=Tally)
    outside: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # title -> positions
    outside_reasons: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # title -> reasons
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # kind -> count
    error_lines: list[dict[str, Any]] = field(default_factory=list)
    solve_ms: list[float] = field(default_factory=list)


def summarise(lines: list[dict[str, Any]]) -> Summary:
    s = Summary()
    for line in lines:
        if "error" in line:
            s.errors[line.get("error_kind", "error")] += 1
            s.error_lines.append(line)
            continue
        if "solve_ms" in line:
            s.solve_ms.append(line["solve_ms"])
        if outside_rulesets(line):
            s.outside[line.get("title", "?")] += 1
            s.outside_reasons[line.get("title", "?")].update(line.get("revenue_model_reasons") or [])
            continue
        s.by_title[line.get("title", "?")].add(line)
        s.by_company[(line.get("title", "?"), line.get("company", "?"))].add(line)
        s.total.add(line)
    return s


def read_lines(out: Path, size: int | None = None) -> list[dict[str, Any]]:
    """The audit lines in `out` (its first `size` bytes, when given); a line cut short is left out."""
    with out.open("rb") as fh:
        data = fh.read() if size is None else fh.read(size)
    lines = []
    for raw in data.decode("utf-8", errors="replace").splitlines():
        try:
            lines.append(json.loads(raw))
        except json.JSONDecodeError:
            continue
    return lines


def _table(title: str, rows: list[tuple[str, Tally]]) -> Table:
    t = Table(title=title)
    for col in ("", "positions", "illegal", "below optimum", "left on the table", "underserviced",
                "paid not as the rules"):
        t.add_column(col, justify="left" if not col else "right")
    for name, tally in rows:
        t.add_row(name, str(tally.positions), str(tally.illegal), str(tally.below), str(tally.left),
                  str(tally.underserviced), str(tally.mispaid))
    return t


def print_summary(s: Summary, console: Console) -> None:
    console.print(_table("audit by title", sorted(s.by_title.items()) + [("all", s.total)]))
    console.print(_table("audit by company", [(f"{t} {c}", v) for (t, c), v in sorted(s.by_company.items())]))
    if s.outside:
        console.print("outside our rulesets (revenue_model unsupported), counted apart: "
                      + ", ".join(f"{t} {n}" + (f" ({'; '.join(sorted(s.outside_reasons[t]))})"
                                                if s.outside_reasons.get(t) else "")
                                  for t, n in sorted(s.outside.items()))
                      + f" (total {sum(s.outside.values())})")
    if s.errors:
        console.print("not audited: " + ", ".join(f"{k} {v}" for k, v in sorted(s.errors.items())))
        for line in s.error_lines[:20]:
            console.print(f"  {line['source']}: {line['error']}")
