"""`routemax whatif`: the optimum of changed boards of one position, ranked by delta.

    routemax whatif FILE --position N [--tokens] [--trains 5,6,D] [--scenarios S.json] [--json]

Tables (rich) by default; with `--json`, one object per scenario, the unchanged board first.
Bad flags exit 2, a bad file or scenarios file 3; a scenario that is not legal is reported in its
row (and the command exits 3 after printing every answer).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from routemax_cli import inputs
from routemax_cli.exits import EXIT_CODES_HELP, CliError, Exit
from routemax_cli.interrupt import run_interruptible
from solver.examples import EXAMPLES

OBJECTIVES = {"default": None, "rulebook": "RULEBOOK", "revenue-only": "REVENUE_ONLY"}


def add_whatif_parser(subparsers: Any) -> None:
    """Add the `whatif` subcommand (`func=cmd_whatif`)."""
    w = subparsers.add_parser("whatif", help="what a train, a token, a private or a tile is worth: "
                                             "changed boards ranked by revenue delta", epilog=EXIT_CODES_HELP)
    w.add_argument("file", nargs="?", help="snapshot .json or .jsonl.gz (default: the built-in example)")
    w.add_argument("--example", choices=sorted(EXAMPLES), help="use a built-in example board")
    w.add_argument("--position", type=int, default=None,
                   help="the N-th position (0-based) of the file (needed when it holds several)")
    w.add_argument("--tokens", action="store_true", help="rank every legal token placement of the company")
    w.add_argument("--trains", type=_train_list, default=[],
                   help="comma-separated trains to rank, added and replacing the weakest: a name the board "
                        "holds, NAME=DISTANCE (n, n+m, nH, D, nD), or a common name (5, 3+3, 6H, D)")
    w.add_argument("--scenarios", default=None, help="JSON file: a list of scenarios ({label, add_trains, "
                                                     "remove_trains, tokens, add_modifiers, remove_modifiers, hexes})")
    w.add_argument("--time-limit", type=inputs.time_limit_arg, default=30.0,
                   help="seconds for the whole call, shared by every scenario (default 30)")
    w.add_argument("--objective", choices=sorted(OBJECTIVES), default="default", help="1873: rulebook or revenue-only")
    w.add_argument("--workers", type=_workers, default=1,
                   help="scenarios solved at once, in threads (default 1; CP-SAT searches run in parallel)")
    w.add_argument("--json", action="store_true", help="one JSON object per scenario, the unchanged board first")
    w.add_argument("--svg", default=None, help="also write the route map of the best scenario to this file")
    w.set_defaults(func=cmd_whatif)


def _workers(text: str) -> int:
    """--workers: a whole number from 1 to 16."""
    if not text.isdigit() or not 1 <= int(text) <= 16:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to 16, got {text!r}")
    return int(text)


def _train_list(text: str) -> list[str]:
    from solver.model.errors import BoardError
    from solver.whatif.train_specs import check_spec

    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise argparse.ArgumentTypeError("give one or more train names, comma-separated")
    for spec in specs:
        try:
            check_spec(spec, "--trains")
        except BoardError as exc:
            raise argparse.ArgumentTypeError(exc.message) from None
    return specs


def _scenarios(path: str | None) -> list:
    if path is None:
        return []
    from solver.model.errors import BoardError
    from solver.whatif.read import scenarios_from_json

    try:
        return scenarios_from_json(inputs.load_json(Path(path), "scenarios"))
    except BoardError as exc:
        raise CliError(Exit.BAD_INPUT, f"{path}: {exc}") from None


def cmd_whatif(args: argparse.Namespace) -> int:
    from solver.model.errors import BoardError, EvaluatorDisagreement
    from solver.model.results import Objective
    from solver.whatif import WhatIfOptions, run_whatif

    path = inputs.snapshot_path(args.file, args.example)
    found = list(inputs.positions(path, args.position))
    if len(found) > 1:
        raise CliError(Exit.USAGE, f"--position: {path} holds {len(found)} positions; choose one (0-based)")
    pos = found[0]
    raw = inputs.snapshot_object(pos)
    board = inputs.board_of(raw, pos.source)
    scenarios = _scenarios(args.scenarios)
    if not (scenarios or args.tokens or args.trains):
        raise CliError(Exit.USAGE, "whatif: give --tokens, --trains or --scenarios")
    objective = OBJECTIVES[args.objective]
    try:
        result = run_interruptible(lambda token: run_whatif(
            board, scenarios, WhatIfOptions(time_limit_s=args.time_limit, cancel=token, workers=args.workers,
                                            objective=Objective(objective) if objective else None),
            tokens=args.tokens, trains=args.trains))
    except EvaluatorDisagreement as exc:
        raise CliError(Exit.INTERNAL, f"{pos.source}: optimiser and evaluator disagree: {exc}") from None
    except BoardError as exc:
        raise CliError(Exit.BAD_INPUT, f"{pos.source}: {exc}") from None
    if args.json:
        for answer in result.all:
            print(json.dumps({"source": pos.source, **answer.as_dict()}), flush=True)
    else:
        _print_tables(board, pos.source, raw, result)
    if args.svg:
        best = next((a for a in result.all if a.ok and a.delta == max(x.delta for x in result.all if x.ok)), None)
        if best is not None and best.result is not None:
            _write_svg(board, best, args.svg)
    return Exit.BAD_INPUT if any(not a.ok for a in result.all) else Exit.OK


def _write_svg(board: Any, best: Any, out: str) -> None:
    """The route map of the best scenario's changed board."""
    from solver.render.pictures import solve_picture
    from solver.routes.leg_graph import build_leg_graph
    from solver.whatif.apply import apply_scenario

    changed = apply_scenario(board, best.scenario, "scenario", build_leg_graph)
    Path(out).write_text(solve_picture(changed, best.result), encoding="utf-8")


def _console(stderr: bool = False) -> Any:
    """The command line's console (`console.plain_console`: no markup read from snapshot text)."""
    from routemax_cli.console import plain_console

    return plain_console(stderr)


def _describe(name: dict[str, Any]) -> str:
    kind = name["kind"]
    text = {"base": "unchanged board", "token": f"token in {name.get('node')}",
            "add_train": f"add a {name.get('train')}", "remove_train": f"remove {name.get('train')}",
            "replace_train": f"{name.get('train')} replaces {name.get('replaces')}"}.get(kind)
    if text is None:
        text = "; ".join(f"{k} {', '.join(v) if isinstance(v, list) else v}" for k, v in name.items()
                         if k not in ("kind", "label"))
    return f"{name['label']}: {text}" if name.get("label") else text


def _print_tables(board: Any, source: str, raw: dict[str, Any], result: Any) -> None:
    from rich.table import Table
    from rich.text import Text

    title = (raw.get("source") or {}).get("title", "")
    table = Table(title=f"{title} {source}: {board.company}, what if …")
    for col, justify in (("#", "right"), ("scenario", "left"), ("revenue", "right"), ("delta", "right"),
                         ("status", "left"), ("bound", "right"), ("routes", "left")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    for i, a in enumerate(result.all):
        name = _describe(a.scenario.describe())
        if not a.ok:
            table.add_row(str(i), name, "-", "-", Text("INVALID", style="red"), "-", f"{a.error_field}: {a.error}")
            continue
        routes = "; ".join(f"{r.train}: {'-'.join(n.split('.')[0] for n in r.nodes)} ({r.revenue})"
                           for r in a.routes)
        delta = "" if i == 0 else f"{a.delta:+d}"
        table.add_row(str(i), name, str(a.revenue + a.result.subsidy), delta, str(a.status), str(a.bound), routes)
    out = _console()
    out.print(table)
    _console(stderr=True).print(f"{len(result.all)} boards solved in {result.stats.get('total_ms', 0.0):.0f} ms")
