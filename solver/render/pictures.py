"""Pictures of answers: the SVG of a solve result, and of a judged route set with the evaluator's findings
shown in the legend and the legs that do not stand marked.

The one place the command line, the service and the audit turn results into route maps.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver import rulesets
from solver.model.board import Board
from solver.model.legs import Leg, leg_from_paths
from solver.model.results import ClaimedRoute, Evaluation, PricedRoute, SolveResult
from solver.render import MapBase, render_svg
from solver.render.routes import RouteDrawing, from_priced


def solve_picture(board: Board, result: SolveResult, title: str = "", base: MapBase | None = None) -> str:
    """The route map of an optimiser's answer (`base`: the board's `map_base`, when shared)."""
    heading = title or f"{board.label()} — best run {result.revenue} ({result.status})"
    return render_svg(board, from_priced(result.routes), title=heading, total=result.revenue, base=base)


def evaluation_picture(board: Board, claims: Sequence[ClaimedRoute], evaluation: Evaluation, title: str = "",
                       base: MapBase | None = None) -> str:
    """The route map of a claimed route set as the evaluator judged it (`base`: the board's `map_base`,
    when shared)."""
    verdict = "legal" if evaluation.legal else "illegal"
    heading = title or f"{board.label()} — claimed run, {verdict}, {evaluation.revenue} by the rules"
    return render_svg(board, judged_drawings(board, claims, evaluation), title=heading, total=evaluation.revenue,
                      base=base)


def judged_drawings(board: Board, claims: Sequence[ClaimedRoute], evaluation: Evaluation) -> list[RouteDrawing]:
    """One drawing per claim, as claimed (even when it does not walk): the price where the evaluator priced
    it, its findings (findings about the whole run go with the first route), and as bad legs those whose
    paths do not walk between their stops or reuse track already used in the same track group."""
    priced = _priced_by_claim(claims, evaluation.routes)
    run_notes = tuple(f"Run: {f.message}" for f in evaluation.findings if f.route < 0)
    bad = _bad_legs(board, claims)
    out = []
    for i, claim in enumerate(claims):
        p = priced[i]
        notes = tuple(f.message for f in evaluation.findings if f.route == i) + (run_notes if i == 0 else ())
        out.append(RouteDrawing(train=claim.train, nodes=tuple(claim.nodes), legs=_legs_of(board, claim),
                                stop_revenues=tuple(p.stop_revenues) if p else (), revenue=p.revenue if p else 0,
                                findings=notes, bad_legs=tuple(sorted(bad[i]))))
    return out


def _legs_of(board: Board, claim: ClaimedRoute) -> tuple[tuple[str, ...], ...]:
    """The path ids per leg: as given, or resolved from the hexes of a leg given by hexes."""
    if claim.legs or not claim.connections:
        return tuple(tuple(leg) for leg in claim.legs)
    from solver.routes.claims import resolve_legs

    legs, findings = resolve_legs(board, claim, 0)
    return tuple(tuple(leg.paths) for leg in legs) if not findings else ()


def _priced_by_claim(claims: Sequence[ClaimedRoute], routes: Sequence[PricedRoute]) -> list[PricedRoute | None]:
    """The priced route of each claim (the evaluator skips claims it cannot judge), matched in order."""
    out: list[PricedRoute | None] = []
    j = 0
    for claim in claims:
        if j < len(routes) and routes[j].train == claim.train and list(routes[j].nodes) == list(claim.nodes):
            out.append(routes[j])
            j += 1
        else:
            out.append(None)
    return out


def _bad_legs(board: Board, claims: Sequence[ClaimedRoute]) -> list[set[int]]:
    """Per claim, the indexes of legs that do not walk or that reuse track of an earlier leg of its group."""
    ruleset = rulesets.get(board.ruleset)
    trains = {t.id: t for t in board.trains}
    owner: set[tuple[str, object]] = set()
    out: list[set[int]] = []
    for claim in claims:
        bad: set[int] = set()
        train = trains.get(claim.train)
        group = ruleset.track_group(board, train) if train is not None else ""
        for li, paths in enumerate(claim.legs):
            if li + 1 >= len(claim.nodes):
                bad.add(li)
                continue
            leg = leg_from_paths(board, claim.nodes[li], claim.nodes[li + 1], list(paths))
            if not isinstance(leg, Leg):
                bad.add(li)
                continue
            keys = {(group, key) for key in leg.keys}
            if keys & owner:
                bad.add(li)
            owner |= keys
        out.append(bad)
    return out
