"""The `routemax` command line: serve, solve, evaluate."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import routemax
from server.config import SETTINGS, ServerConfig
from solver.errors import BoardError, EvaluatorDisagreement
from solver.evaluator import ClaimedRoute, Evaluation, PricedRoute, claims_from_recorded, evaluate
from solver.examples import EXAMPLES, example_path
from solver.h1873.production import MineState, production
from solver.h1873.service_rule import service_finding
from solver.optimiser import SolveOptions, SolveResult, solve
from solver.snapshot import Position, board_from_snapshot, read_positions

OBJECTIVES = {"default": None, "rulebook": "RULEBOOK", "revenue-only": "REVENUE_ONLY"}


def _positions(file: str | None, example: str | None, position: int | None) -> Iterator[Position]:
    path = example_path(example or "default") if file is None else Path(file)
    for i, pos in enumerate(read_positions(path)):
        if position is None or i == position:
            yield pos


def solve_json(source: str, raw: dict[str, Any], result: SolveResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "source": source, "revenue": result.revenue, "status": result.status, "bound": result.bound,
        "solve_ms": round(result.stats.get("solve_ms", 0.0), 3),
        "routes": [r.as_dict() for r in result.routes],
    }
    if "recorded" in raw:
        out["recorded_revenue"] = raw["recorded"].get("routes_revenue")
    if "plain_revenue" in raw:
        out["plain_revenue"] = raw["plain_revenue"]
    out.update(_run_details(result.details))
    return out


def _run_details(details: dict[str, Any]) -> dict[str, Any]:
    """The 1873 run summary and objective, when the ruleset gives them."""
    keys = ("objective", "routes_serviced", "routes_possible", "maintenance", "qlb_bonus", "net_revenue",
            "token_status", "reason", "foreign_income")
    return {k: details[k] for k in keys if k in details}


def _routes_table(title: str, routes: list[PricedRoute]) -> Table:
    table = Table(title=title)
    table.add_column("train")
    table.add_column("stops (revenue)")
    table.add_column("revenue", justify="right")
    for r in routes:
        stops = " - ".join(f"{n} ({v})" for n, v in zip(r.nodes, r.stop_revenues))
        table.add_row(r.train, stops, str(r.revenue))
    return table


def _print_solve(console: Console, source: str, raw: dict[str, Any], result: SolveResult) -> None:
    company = raw.get("company", {}).get("id", "?")
    title = raw.get("source", {}).get("title", "")
    console.print(_routes_table(f"{title} {source}: {company}", result.routes))
    line = f"revenue [bold]{result.revenue}[/bold]  status {result.status}  bound {result.bound}  " \
           f"{result.stats.get('solve_ms', 0.0):.1f} ms"
    if "recorded" in raw:
        line += f"  (recorded {raw['recorded'].get('routes_revenue')})"
    console.print(line)
    d = result.details
    if "net_revenue" in d:
        console.print(f"routes serviced {d.get('routes_serviced')} ({d.get('objective')})  maintenance "
                      f"{d.get('maintenance')}  QLB bonus {d.get('qlb_bonus')}  net revenue {d.get('net_revenue')}")
    if d.get("reason"):
        console.print(f"[red]{d['reason']}[/red]")
    if d.get("foreign_income"):
        console.print("foreign income: " + ", ".join(f"{k} {v}" for k, v in d["foreign_income"].items()))


def cmd_solve(args: argparse.Namespace) -> int:
    console = Console(stderr=args.json)
    counts: Counter[str] = Counter()
    for pos in _positions(args.file, args.example, args.position):
        counts["positions"] += 1
        if pos.raw is None:
            counts["errors"] += 1
            _emit_error(args, console, pos.source, pos.error or "unreadable")
            continue
        try:
            board = board_from_snapshot(pos.raw)
            result = solve(board, SolveOptions(time_limit_s=args.time_limit, objective=OBJECTIVES[args.objective]))
        except BoardError as exc:
            counts["unsupported" if exc.field == "ruleset" else "errors"] += 1
            _emit_error(args, console, pos.source, str(exc))
            continue
        except EvaluatorDisagreement as exc:
            counts["disagreements"] += 1
            _emit_error(args, console, pos.source, f"INTERNAL: {exc}")
            continue
        counts[result.status] += 1
        if pos.raw.get("plain_revenue") is False:
            counts["non_plain"] += 1
        if args.json:
            print(json.dumps(solve_json(pos.source, pos.raw, result)), flush=True)
        else:
            _print_solve(console, pos.source, pos.raw, result)
    if counts["positions"] > 1 or not args.json:
        console.print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return 1 if counts["errors"] or counts["disagreements"] or counts["UNKNOWN"] else 0


def _emit_error(args: argparse.Namespace, console: Console, source: str, message: str) -> None:
    if args.json:
        print(json.dumps({"source": source, "error": message}), flush=True)
    else:
        console.print(f"[red]{source}: {message}[/red]")


def _read_claims(path: str) -> list[ClaimedRoute]:
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if isinstance(data, dict):
        data = data.get("routes", [])
    return claims_from_recorded({"routes": data})


def evaluation_json(source: str, ev: Evaluation) -> dict[str, Any]:
    return {"source": source, "legal": ev.legal, "revenue": ev.revenue,
            "findings": [f.as_dict() for f in ev.findings],
            "routes": [r.as_dict() for r in ev.routes], **_run_details(ev.details)}


def cmd_evaluate(args: argparse.Namespace) -> int:
    console = Console()
    bad = 0
    for pos in _positions(args.file, args.example, args.position):
        if pos.raw is None:
            console.print(f"[red]{pos.source}: {pos.error}[/red]")
            bad += 1
            continue
        board = board_from_snapshot(pos.raw)
        claims = _read_claims(args.routes) if args.routes else claims_from_recorded(pos.raw.get("recorded", {}))
        ev = evaluate(board, claims)
        if board.ruleset == "1873" and ev.legal:
            finding = service_finding(board, ev)
            if finding is not None:
                ev.findings.append(finding)
        bad += 0 if ev.legal else 1
        if args.json:
            print(json.dumps(evaluation_json(pos.source, ev)), flush=True)
            continue
        console.print(_routes_table(f"{pos.source}: claimed routes", ev.routes))
        console.print(f"legal: {'yes' if ev.legal else '[red]no[/red]'}   revenue by the rules: {ev.revenue}")
        for f in ev.findings:
            console.print(f"  {f.code}: {f.message}")
    return 0 if bad == 0 else 2


def cmd_mines(args: argparse.Namespace) -> int:
    """1873 mine production from a JSON description of a mining company's mines."""
    with open(args.file, encoding="utf-8") as fh:
        data = json.load(fh)
    mines = [MineState(id=str(m.get("id", i)), connected=bool(m.get("connected", False)),
                       machine=int(m.get("machine", 1)), switcher=int(m.get("switcher", 0)),
                       machine_revenue=tuple(m["machine_revenue"]),
                       switcher_revenue=tuple(m.get("switcher_revenue", ())))
             for i, m in enumerate(data.get("mines", []))]
    public = bool(data.get("public_company", len(mines) > 1))
    result = production(mines, public=public, harzer_werke=bool(data.get("harzer_werke", False)),
                        hw_bonus=int(data.get("hw_bonus", 50)))
    if args.json:
        print(json.dumps({"revenue": result.revenue, "bonus": result.bonus, "per_mine": result.per_mine,
                          "switchers": result.switchers}))
        return 0
    table = Table(title="mine production")
    for col in ("mine", "switcher", "revenue"):
        table.add_column(col)
    for mine_id, rev in result.per_mine.items():
        table.add_row(mine_id, str(result.switchers.get(mine_id, 0) or "-"), str(rev))
    console = Console()
    console.print(table)
    console.print(f"bonus {result.bonus}  total [bold]{result.revenue}[/bold]")
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    """Audit recorded runs: legality, revenue by the rules, the optimum and the gap."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from server.audit_html import render
    from server.audit_run import default_workers, expand_paths, iter_items, make_executor, run_audit
    from server.audit_summary import print_summary, read_lines, summarise

    console = Console(stderr=True)
    files = expand_paths(args.paths)
    if not files:
        console.print("[red]no snapshot files found[/red]")
        return 2
    out = Path(args.out)
    total = sum(1 for _ in iter_items(files))
    workers = args.workers or default_workers()
    t0 = time.perf_counter()
    columns = (TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, disable=not console.is_terminal) as progress:
        task = progress.add_task("audit", total=total)
        progress.update(task, completed=min(total, len(read_lines(out)) if out.exists() else 0))
        with make_executor(workers, args.dask, args.dask_scheduler) as executor:
            written = run_audit(iter_items(files), out, executor, time_limit_s=args.time_limit,
                                objective=OBJECTIVES[args.objective] or "REVENUE_ONLY",
                                on_line=lambda _line: progress.advance(task))
    seconds = time.perf_counter() - t0
    lines = read_lines(out)
    summary = summarise(lines)
    print_summary(summary, Console())
    console.print(f"{written} positions audited in {seconds:.1f} s ({written / max(seconds, 1e-9):.1f} per second), "
                  f"{len(lines)} in {out}")
    if args.html:
        Path(args.html).write_text(render(summary, lines), encoding="utf-8")
        console.print(f"report: {args.html}")
    return 1 if summary.errors.get("disagreement") else 0


def cmd_serve(args: argparse.Namespace) -> int:
    from server.lifecycle import serve_command

    return serve_command({name: getattr(args, name) for name in SETTINGS})


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="routemax", description="Legal maximum train routes for 18xx games.")
    p.add_argument("--version", action="version", version=f"routemax {routemax.__version__}")
    sub = p.add_subparsers(dest="command")

    s = sub.add_parser("serve", help="run the gRPC service (flags beat $ROUTEMAX_* variables beat defaults)")
    for name, setting in SETTINGS.items():
        s.add_argument(setting.flag, dest=name, default=None,
                       help=f"default {getattr(ServerConfig, name)}, or ${setting.env}")
    s.set_defaults(func=cmd_serve)

    for name, func, helptext in (("solve", cmd_solve, "find the maximum revenue routes"),
                                 ("evaluate", cmd_evaluate, "judge a route set (default: the recorded one)")):
        c = sub.add_parser(name, help=helptext)
        c.add_argument("file", nargs="?", help="snapshot .json or .jsonl.gz (default: the built-in example)")
        c.add_argument("--example", choices=sorted(EXAMPLES), help="use a built-in example board")
        c.add_argument("--position", type=int, default=None, help="only the N-th position (0-based) of the file")
        c.add_argument("--json", action="store_true", help="one JSON object per position")
        c.set_defaults(func=func)
        if name == "solve":
            c.add_argument("--time-limit", type=float, default=10.0, help="seconds per position (default 10)")
            c.add_argument("--objective", choices=sorted(OBJECTIVES), default="default",
                           help="1873: rulebook (most routes, then revenue; the default) or revenue-only")
        else:
            c.add_argument("--routes", help="JSON file: a list of {train, nodes, legs} (snapshot ids)")
    a = sub.add_parser("audit", help="audit recorded runs: legal? revenue by the rules? money left on the table?")
    a.add_argument("paths", nargs="+", help="snapshot files (.json, .jsonl.gz), folders or globs")
    a.add_argument("--out", required=True, help="JSON lines output; re-running with it skips positions done")
    a.add_argument("--workers", type=int, default=0, help="local worker processes (default: all cores)")
    a.add_argument("--dask", action="store_true", help="run on a Dask LocalCluster")
    a.add_argument("--dask-scheduler", default=None, help="run on the Dask cluster at this scheduler address")
    a.add_argument("--html", default=None, help="also write a self-contained HTML report")
    a.add_argument("--time-limit", type=float, default=10.0, help="seconds per position (default 10)")
    a.add_argument("--objective", choices=sorted(OBJECTIVES), default="revenue-only",
                   help="1873 objective of the optimum (default revenue-only; the service rule is checked apart)")
    a.set_defaults(func=cmd_audit)

    m = sub.add_parser("mines", help="1873 mine production of a mining company (JSON: mines, public_company)")
    m.add_argument("file", help='JSON: {"public_company": true, "harzer_werke": false, "mines": [{"id", "connected", '
                                '"machine", "switcher", "machine_revenue", "switcher_revenue"}]}')
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=cmd_mines)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["solve", *(argv or [])])
    t0 = time.perf_counter()
    try:
        return args.func(args)
    except (BoardError, OSError) as exc:
        print(f"routemax: {exc}", file=sys.stderr)
        return 2
    finally:
        if args.command not in ("serve", "audit") and not getattr(args, "json", False):
            print(f"({time.perf_counter() - t0:.2f} s)", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
