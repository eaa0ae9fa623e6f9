"""`routemax render` and `routemax solve --svg`: route maps as SVG files.

The renderer (`solver.render`, drawsvg) is imported only when a picture is asked for, so solving
without `--svg` costs nothing extra.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from routemax_cli import inputs
from routemax_cli.exits import EXIT_CODES_HELP
from solver.examples import EXAMPLES
from solver.model.board import Board
from solver.model.results import SolveOptions, SolveResult

ROUTE_CHOICES = ("optimal", "recorded")
MULTI_SUFFIXES = (".jsonl", ".jsonl.gz")


def add_render_parser(subparsers: Any) -> None:
    """Add the `render` subcommand (`func=cmd_render`) to the `routemax` subparsers."""
    r = subparsers.add_parser("render", help="draw a position's routes as an SVG map", epilog=EXIT_CODES_HELP)
    r.add_argument("file", nargs="?", help="snapshot .json or .jsonl.gz (default: the built-in example)")
    r.add_argument("--example", choices=sorted(EXAMPLES), help="use a built-in example board")
    r.add_argument("--position", type=int, default=0, help="the N-th position (0-based) of the file (default 0)")
    r.add_argument("--routes", default="optimal",
                   help="optimal (solve first; the default), recorded (the snapshot's recorded run, judged), "
                        "or a JSON file: a list of {train, nodes, legs} or {\"routes\": [...]} (judged)")
    r.add_argument("-o", "--out", default="-", help="the SVG file to write (default: standard output)")
    r.add_argument("--time-limit", type=inputs.time_limit_arg, default=10.0,
                   help="seconds for the solve of --routes optimal, above 0 (default 10)")
    r.set_defaults(func=cmd_render)


def cmd_render(args: argparse.Namespace) -> int:
    """Write the SVG of one position with the routes asked for; the render time goes to standard error."""
    path = inputs.snapshot_path(args.file, args.example)
    pos = next(iter(inputs.positions(path, args.position)))
    raw = inputs.snapshot_object(pos)
    board = inputs.board_of(raw, pos.source)
    timings: dict[str, float] = {}
    svg = position_svg(board, raw, args.routes, args.time_limit, timings)
    if args.out == "-":
        sys.stdout.write(svg)
    else:
        Path(args.out).write_text(svg, encoding="utf-8")
    print(f"render: {args.routes} routes of {board.label()}: {args.routes == 'optimal' and 'solve' or 'evaluate'} "
          f"{timings['judge_ms']:.0f} ms, drawing {timings['draw_ms']:.0f} ms"
          + ("" if args.out == "-" else f" -> {args.out}"), file=sys.stderr)
    return 0


def position_svg(board: Board, raw: dict[str, Any], routes: str, time_limit_s: float = 10.0,
                 timings: dict[str, float] | None = None) -> str:
    """The SVG of `board` with its optimal routes, its recorded routes, or the routes of a JSON file, judged.

    `timings`, when given, receives `judge_ms` (the solve or the evaluation) and `draw_ms` (the drawing)."""
    from solver.evaluator import evaluate_with_advice
    from solver.render.pictures import evaluation_picture, solve_picture

    times = timings if timings is not None else {}
    t0 = time.perf_counter()
    if routes == "optimal":
        from solver.optimiser import solve

        result = solve(board, SolveOptions(time_limit_s=time_limit_s))
        t1 = time.perf_counter()
        svg = solve_picture(board, result)
        times.update(judge_ms=(t1 - t0) * 1000.0, draw_ms=(time.perf_counter() - t1) * 1000.0)
        return svg
    if routes == "recorded":
        claims = inputs.recorded_routes(raw, board.label())
        heading = "recorded run"
    else:
        claims = inputs.routes_file(Path(routes))
        heading = f"routes of {Path(routes).name}"
    evaluation = evaluate_with_advice(board, claims, time_limit_s)
    t1 = time.perf_counter()
    verdict = "legal" if evaluation.legal else "illegal"
    title = f"{board.label()} — {heading}, {verdict}, {evaluation.revenue} by the rules"
    svg = evaluation_picture(board, claims, evaluation, title=title)
    times.update(judge_ms=(t1 - t0) * 1000.0, draw_ms=(time.perf_counter() - t1) * 1000.0)
    return svg


def svg_target(svg: str, file: str | None, position: int | None, index: int) -> Path:
    """Where `solve --svg OUT.svg` writes the picture of the position at `index` of the file: OUT.svg for a
    single snapshot or a chosen `--position`, else OUT-<index>.svg (one picture per position)."""
    out = Path(svg)
    if position is not None or file is None or not str(file).endswith(MULTI_SUFFIXES):
        return out
    return out.with_name(f"{out.stem}-{index}{out.suffix or '.svg'}")


def write_solve_svg(board: Board, result: SolveResult, path: str | Path) -> None:
    """Write the route map of a solve result to `path` (used by `routemax solve --svg`)."""
    from solver.render.pictures import solve_picture

    Path(path).write_text(solve_picture(board, result), encoding="utf-8")
