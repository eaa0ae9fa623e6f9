"""Auditing one recorded run: was it legal, did it earn what the rules give, and what did it leave
on the table. One JSON-ready dict per position; the batch tools stream these as lines."""

from __future__ import annotations

import time
from typing import Any

from solver.audit.flags import flagged
from solver.evaluator import evaluate_with_advice
from solver.input.hex_reuse import HexReuse
from solver.input.snapshot import board_from_snapshot
from solver.model.board import Board
from solver.model.cancel import CancelToken
from solver.model.errors import BoardError, EvaluatorDisagreement
from solver.model.gcpause import gc_paused
from solver.model.jsonread import loads
from solver.model.results import ClaimedRoute, Evaluation, Finding, Objective, SolveOptions, SolveResult
from solver.optimiser import solve
from solver.routes.claims import claims_from_recorded


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _base(source: str, raw: dict[str, Any]) -> dict[str, Any]:
    """The line's identity, read leniently: a malformed snapshot is reported, not raised."""
    src = _from_source(_object(raw.get("source")))
    return {"source": source, "title": src["title"], "company": _object(raw.get("company")).get("id", "?"),
            "game_id": src["game_id"], "action_id": src["action_id"], "plain_revenue": raw.get("plain_revenue"),
            "revenue_model": raw.get("revenue_model"), "revenue_model_reasons": raw.get("revenue_model_reasons") or []}


def _from_source(src: dict[str, Any]) -> dict[str, Any]:
    """The line's fields read from the snapshot's `source` block."""
    return {"title": src.get("title", "?"), "game_id": src.get("game_id"), "action_id": src.get("action_id")}


def line_for_same_position(line: dict[str, Any], source: str, src: dict[str, Any]) -> dict[str, Any]:
    """The audit line of a position that differs from the one `line` audited only in its `source` block
    (`src`, from the file position `source`): the same verdict and optimum, its own identity, and
    `same_as` naming the position audited."""
    return {**line, "source": source, **_from_source(src), "same_as": line["source"]}


PRICED_MODELS = ("generic", "modifiers", "h1873")  # the revenue models our rulesets price exactly


def priced_by_our_rules(raw: dict[str, Any]) -> bool:
    """Whether our rules price this snapshot as the engine did: its `revenue_model` says so (older
    snapshots without one: a plain revenue)."""
    model = raw.get("revenue_model")
    return model in PRICED_MODELS if model else raw.get("plain_revenue") is True


def audit_snapshot(source: str, raw: dict[str, Any], time_limit_s: float = 10.0,
                   objective: str = "REVENUE_ONLY", maps: bool = False,
                   cancel: CancelToken | None = None, reuse: HexReuse | None = None) -> dict[str, Any]:
    """The audit line of one snapshot. Errors become an `error` field, never an exception.

    With `maps`, a flagged position (`solver.audit.flags.flagged`) also gets `maps`: the SVG route maps of
    the recorded run (judged) and of the optimum, drawn here where the board is at hand. The cyclic
    garbage collector rests meanwhile (`solver.model.gcpause`): reading the board allocates many objects,
    and reference counting frees them. A batch passes `reuse` to read each game's unchanged hexes once
    (`solver.input.hex_reuse`)."""
    with gc_paused():
        return _audit(source, raw, time_limit_s, objective, maps, cancel, reuse)


def _audit(source: str, raw: dict[str, Any], time_limit_s: float, objective: str, maps: bool,
           cancel: CancelToken | None, reuse: HexReuse | None) -> dict[str, Any]:
    t0 = time.perf_counter()
    line = _base(source, raw)
    try:
        board = board_from_snapshot(raw, reuse)
    except BoardError as exc:
        line["error"] = str(exc)
        line["error_kind"] = "unsupported" if exc.field == "ruleset" else "invalid"
        return line
    recorded = raw.get("recorded")
    try:
        claims = claims_from_recorded(recorded)
        verdict = evaluate_with_advice(board, claims, time_limit_s, cancel)
    except BoardError as exc:
        line.update(error=str(exc), error_kind="not_run" if recorded is None else "invalid")
        return line
    recorded_revenue = recorded.get("routes_revenue")
    if isinstance(recorded_revenue, bool) or not isinstance(recorded_revenue, int):
        recorded_revenue = None  # not a revenue: judged by the rules alone
    line["recorded_revenue"] = recorded_revenue
    in_scope = priced_by_our_rules(raw)
    if in_scope and recorded_revenue is not None and recorded_revenue != verdict.revenue:
        verdict.findings.append(Finding(
            "RECORDED_REVENUE_MISMATCH", f"the run was paid {recorded_revenue} but the rules give {verdict.revenue}",
            -1, hard=False))
    line["verdict"] = {
        "legal": verdict.legal, "revenue": verdict.revenue, "subsidy": verdict.subsidy,
        "findings": [f.as_dict() for f in verdict.findings],
        "routes": [r.as_dict() for r in verdict.routes],
    }
    try:
        result = solve(board, SolveOptions(time_limit_s=time_limit_s, objective=Objective(objective), cancel=cancel))
    except EvaluatorDisagreement as exc:
        line.update(error=f"INTERNAL: {exc}", error_kind="disagreement")
        return line
    except BoardError as exc:  # a combination of rules the optimiser refuses to price (the verdict stands)
        line.update(error=str(exc), error_kind="unsupported")
        return line
    line["optimum"] = {"revenue": result.revenue, "subsidy": result.subsidy, "status": result.status,
                       "bound": result.bound,
                       "routes": [r.as_dict() for r in result.routes], "objective": objective}
    extras = result.extras.as_dict() if result.extras else {}
    if "net_revenue" in extras:
        line["optimum"]["net_revenue"] = extras["net_revenue"]
    base = recorded_revenue if recorded_revenue is not None else verdict.revenue
    line["gap"] = result.revenue - base
    line["solve_ms"] = round((time.perf_counter() - t0) * 1000.0, 3)
    if maps and flagged(line):
        _draw_maps(line, board, claims, verdict, result)
    return line


def _draw_maps(line: dict[str, Any], board: Board, claims: list[ClaimedRoute], verdict: Evaluation,
               result: SolveResult) -> None:
    """Add the recorded and the optimal route maps to a flagged line (a map that cannot be drawn: `maps_error`);
    both are drawn over one `map_base` of the board."""
    from solver.render import map_base
    from solver.render.pictures import evaluation_picture, solve_picture

    try:
        base = map_base(board)
        line["maps"] = {
            "recorded": evaluation_picture(board, claims, verdict, title=f"{board.label()} — recorded run", base=base),
            "optimum": solve_picture(board, result, title=f"{board.label()} — optimal run ({result.status})",
                                     base=base),
        }
    except BoardError as exc:
        line["maps_error"] = str(exc)


def audit_text(source: str, text: str, time_limit_s: float = 10.0, objective: str = "REVENUE_ONLY",
               maps: bool = False, cancel: CancelToken | None = None, reuse: HexReuse | None = None) -> dict[str, Any]:
    """The audit line of one snapshot given as JSON text (what workers receive); `maps` and `reuse` as in
    `audit_snapshot`."""
    try:
        raw = reuse.loads(text, "snapshot") if reuse is not None else loads(text, "snapshot")
    except BoardError as exc:
        return {"source": source, "error": exc.message, "error_kind": "malformed"}
    if not isinstance(raw, dict) or "hexes" not in raw:
        return {"source": source, "error": "not a route snapshot", "error_kind": "malformed"}
    return audit_snapshot(source, raw, time_limit_s, objective, maps, cancel, reuse)
