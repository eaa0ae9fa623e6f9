"""The `routemax` command line: solve, evaluate, mines and audit (`serve` is dispatched by `server.main`).

Results go to standard output; errors (one line each), progress and timings to standard error.
Exit codes: `routemax_cli.exits`. Heavy modules (OR-Tools) load only when a command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from threading import Thread
from typing import TYPE_CHECKING, Any

from routemax_cli import inputs
from routemax_cli.exits import EXIT_CODES_HELP, CliError, Exit
from routemax_cli.interrupt import Interrupted, run_interruptible, terminate_as_interrupt
from routemax_cli.render_cmd import add_render_parser, svg_target, write_solve_svg
from routemax_cli.whatif_cmd import add_whatif_parser
from server.serve_args import add_serve_arguments
from solver.examples import EXAMPLES

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID
    from rich.table import Table

    from solver.model.board import Board
    from solver.model.results import Evaluation, PricedRoute, RunExtras, SolveResult

OBJECTIVES = {"default": None, "rulebook": "RULEBOOK", "revenue-only": "REVENUE_ONLY"}
DEFAULT_TIME_LIMIT_S = 10.0


def version() -> str:
    """The installed package's version (or that of the source tree)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("routemax")
    except PackageNotFoundError:
        return "0+unknown"


def _console(stderr: bool = False) -> Console:
    """The command line's console (`console.plain_console`: no markup read from snapshot text)."""
    from routemax_cli.console import plain_console

    return plain_console(stderr)


def _worker_count(text: str) -> int:
    """audit --workers: a whole number from 0 (all cores) to 1,024."""
    if not text.isdigit() or int(text) > 1024:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 (all cores) to 1024, got {text!r}")
    return int(text)


def _run_details(extras: RunExtras | None) -> dict[str, Any]:
    """A ruleset's typed extras (the 1873 run summary, 1839 foreign income), when it gives them."""
    return extras.as_dict() if extras is not None else {}


def solve_json(source: str, raw: dict[str, Any], result: SolveResult) -> dict[str, Any]:
    """One solved position as JSON: the answer, its routes in snapshot ids, and the work done."""
    out: dict[str, Any] = {
        "source": source, "revenue": result.revenue, "subsidy": result.subsidy, "status": result.status,
        "bound": result.bound, "solve_ms": round(result.stats.get("solve_ms", 0.0), 3),
        "stats": {k: round(v, 3) for k, v in result.stats.items()},
        "routes": [r.as_dict() for r in result.routes],
        "run_lines": [line.as_dict() for line in result.evaluation.run_lines] if result.evaluation else [],
    }
    recorded = raw.get("recorded")
    if isinstance(recorded, dict):
        out["recorded_revenue"] = recorded.get("routes_revenue")
    if "plain_revenue" in raw:
        out["plain_revenue"] = raw["plain_revenue"]
    out.update(_run_details(result.extras))
    if result.reason:
        out["reason"] = result.reason
    return out


def _routes_table(title: str, routes: list[PricedRoute]) -> Table:
    from rich.table import Table

    table = Table(title=title)
    table.add_column("#", justify="right")
    table.add_column("train")
    table.add_column("stops (revenue)")
    bonuses = any(r.bonuses for r in routes)
    if bonuses:
        table.add_column("bonuses")
    table.add_column("revenue", justify="right")
    for i, r in enumerate(routes, start=1):
        stops = " - ".join(f"{n} ({v})" for n, v in zip(r.nodes, r.stop_revenues))
        lines = [f"{b.label} {b.amount:+d}" for b in r.bonuses]
        table.add_row(str(i), r.train, stops, *(["\n".join(lines)] if bonuses else []),
                      with_subsidy(r.revenue, r.subsidy))
    return table


def with_subsidy(revenue: int, subsidy: int) -> str:
    """A revenue for people, with the subsidy paid beside it when there is one: "280 + subsidy 25"."""
    return f"{revenue} + subsidy {subsidy}" if subsidy else str(revenue)


def _print_run_lines(console: Console, lines: list) -> None:
    """The modifiers' run adjustments (a dropped route), each on its own line."""
    for line in lines:
        console.print(f"{line.label} {line.amount:+d}", markup=False)


def _print_solve(console: Console, source: str, raw: dict[str, Any], result: SolveResult) -> None:
    from rich.text import Text

    company = (raw.get("company") or {}).get("id", "?")
    title = (raw.get("source") or {}).get("title", "")
    console.print(_routes_table(f"{title} {source}: {company}", result.routes))
    if result.evaluation is not None:
        _print_run_lines(console, result.evaluation.run_lines)
    subsidy = f" + subsidy {result.subsidy}" if result.subsidy else ""
    line = Text.assemble("revenue ", (str(result.revenue), "bold"), f"{subsidy}  status {result.status}  bound "
                         f"{result.bound}")
    recorded = raw.get("recorded")
    if isinstance(recorded, dict):
        line.append(f"  (recorded {recorded.get('routes_revenue')})")
    console.print(line)
    d = _run_details(result.extras)
    if "net_revenue" in d:
        console.print(f"routes serviced {d.get('routes_serviced')} ({d.get('objective')})  maintenance "
                      f"{d.get('maintenance')}  QLB bonus {d.get('qlb_bonus')}  net revenue {d.get('net_revenue')}")
    if result.reason:
        console.print(Text(result.reason, style="red"))
    if d.get("foreign_income"):
        console.print("foreign income: " + ", ".join(f"{k} {v}" for k, v in d["foreign_income"].items()))


def _solve_one(board: Board, args: argparse.Namespace) -> SolveResult:
    """Solve under Ctrl-C protection: an interrupt stops the search and raises with the best answer."""
    from solver.model.results import Objective, SolveOptions
    from solver.optimiser import solve

    objective = OBJECTIVES[args.objective]
    return run_interruptible(lambda token: solve(board, SolveOptions(
        time_limit_s=args.time_limit, objective=Objective(objective) if objective else None, cancel=token)))


def cmd_solve(args: argparse.Namespace) -> int:
    from solver.model.errors import BoardError, EvaluatorDisagreement

    out = _console()
    err = _console(stderr=True)
    counts: Counter[str] = Counter()
    path = inputs.snapshot_path(args.file, args.example)
    for pos in inputs.positions(path, args.position):
        counts["positions"] += 1
        try:
            raw = inputs.snapshot_object(pos)
            board = inputs.board_of(raw, pos.source)
        except CliError as exc:  # one bad position of a file: say so and go on with the next
            counts["errors"] += 1
            _position_error(args, pos.source, exc.message)
            continue
        try:
            result = _solve_one(board, args)
        except EvaluatorDisagreement as exc:
            raise CliError(Exit.INTERNAL, f"{pos.source}: optimiser and evaluator disagree: {exc}") from None
        except BoardError as exc:  # rules the optimiser does not price together (README): bad input, as above
            counts["errors"] += 1
            _position_error(args, pos.source, f"{pos.source}: {exc}")
            continue
        except Interrupted as stop:
            if stop.partial is not None:
                _show_solve(args, out, pos.source, raw, stop.partial)  # type: ignore[arg-type]
            raise
        counts[str(result.status)] += 1
        if args.svg:
            write_solve_svg(board, result, svg_target(args.svg, args.file, args.position, counts["positions"] - 1))
        _show_solve(args, out, pos.source, raw, result)
    if counts["positions"] > 1 or not args.json:
        err.print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return Exit.BAD_INPUT if counts["errors"] else Exit.OK


def _position_error(args: argparse.Namespace, source: str, message: str) -> None:
    """A position that cannot be read: a JSON error object in --json mode, else one line on stderr."""
    if args.json:
        print(json.dumps({"source": source, "error": message.removeprefix(f"{source}: ")}), flush=True)
    else:
        print(f"routemax: {message}", file=sys.stderr)


def _show_solve(args: argparse.Namespace, out: Console, source: str, raw: dict[str, Any],
                result: SolveResult) -> None:
    if args.json:
        print(json.dumps(solve_json(source, raw, result)), flush=True)
    else:
        _print_solve(out, source, raw, result)
        _console(stderr=True).print(f"solved in {result.stats.get('solve_ms', 0.0):.1f} ms")


def evaluation_json(source: str, ev: Evaluation) -> dict[str, Any]:
    return {"source": source, "legal": ev.legal, "revenue": ev.revenue, "subsidy": ev.subsidy,
            "findings": [f.as_dict() for f in ev.findings],
            "routes": [r.as_dict() for r in ev.routes], "run_lines": [line.as_dict() for line in ev.run_lines],
            **_run_details(ev.extras)}


def _finding_line(f: Any, claims: list) -> str:
    """A finding for people: which claimed route (numbered from 1, with its train) or the set."""
    if f.route >= 0:
        train = claims[f.route].train if f.route < len(claims) else "?"
        where = f"route {f.route + 1} (train {train})"
    else:
        where = "the route set"
    kind = "" if f.hard else " (advisory)"
    return f"  {where}: {f.code}{kind}: {f.message}"


def cmd_evaluate(args: argparse.Namespace) -> int:
    from rich.text import Text

    from solver.evaluator import evaluate_with_advice

    out = _console()
    illegal = 0
    path = inputs.snapshot_path(args.file, args.example)
    claims_file = inputs.routes_file(Path(args.routes)) if args.routes else None
    for pos in inputs.positions(path, args.position):
        raw = inputs.snapshot_object(pos)
        board = inputs.board_of(raw, pos.source)
        claims = claims_file if claims_file is not None else inputs.recorded_routes(raw, pos.source)
        ev = run_interruptible(lambda _token, b=board, c=claims: evaluate_with_advice(b, c))
        illegal += 0 if ev.legal else 1
        if args.json:
            print(json.dumps(evaluation_json(pos.source, ev)), flush=True)
            continue
        out.print(_routes_table(f"{pos.source}: claimed routes", ev.routes))
        _print_run_lines(out, ev.run_lines)
        if ev.legal:
            subsidy = f" + subsidy {ev.subsidy}" if ev.subsidy else ""
            out.print(Text.assemble("legal: yes   revenue by the rules: ", (str(ev.revenue), "bold"), subsidy))
        else:
            hard = len(ev.hard_findings)
            out.print(Text.assemble("legal: ", ("no", "red"), f" ({hard} rule{'s' if hard != 1 else ''} broken)   the "
                                    f"stops of these routes would pay {ev.revenue} if the set were legal; an illegal "
                                    "set earns nothing"))
        for f in ev.findings:
            out.print(_finding_line(f, claims), markup=False)
    return Exit.NEGATIVE if illegal else Exit.OK


def cmd_mines(args: argparse.Namespace) -> int:
    """1873 mine production from a JSON description of a mining company's mines."""
    from rich.table import Table
    from rich.text import Text

    from solver import rulesets
    from solver.model.errors import BoardError

    path = Path(args.file)
    data = inputs.mines_file(path)
    mines = data["mines"]
    public = data.get("public_company", len(mines) > 1)
    try:
        result = rulesets.mine_producer("1873").mine_production(
            mines, public=public, harzer_werke=data.get("harzer_werke", False), hw_bonus=data.get("hw_bonus", 50))
    except BoardError as exc:
        raise CliError(Exit.BAD_INPUT, f"{path}: {exc}") from None
    if args.json:
        print(json.dumps({"revenue": result.revenue, "bonus": result.bonus, "per_mine": result.per_mine,
                          "switchers": result.switchers}))
        return Exit.OK
    table = Table(title="mine production")
    for col in ("mine", "switcher", "revenue"):
        table.add_column(col)
    for mine_id, rev in result.per_mine.items():
        table.add_row(mine_id, str(result.switchers.get(mine_id, 0) or "-"), str(rev))
    out = _console()
    out.print(table)
    out.print(Text.assemble(f"bonus {result.bonus}  total ", (str(result.revenue), "bold")))
    return Exit.OK


def cmd_audit(args: argparse.Namespace) -> int:
    """Audit recorded runs: legality, revenue by the rules, the optimum and the gap."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from routemax_cli.audit_html import render
    from routemax_cli.audit_run import default_workers, done_sources, expand_paths, iter_items, make_executor, run_audit
    from routemax_cli.audit_summary import print_summary, read_lines, summarise

    err = _console(stderr=True)
    out = inputs.output_path(args.out, "--out")
    html = inputs.output_path(args.html, "--html") if args.html else None
    if html is not None and html.resolve() == out.resolve():
        raise CliError(Exit.USAGE, "--html: the report would overwrite --out; give it another file")
    outputs = {p.resolve() for p in (out, html) if p is not None}
    named = next((p for p in args.paths if Path(p).resolve() in outputs), None)
    if named is not None:
        raise CliError(Exit.USAGE, f"{named}: the audit would read what it writes (--out, --html); give another file")
    files = [f for f in expand_paths(args.paths) if f.resolve() not in outputs]  # an output in an input folder
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        raise CliError(Exit.BAD_INPUT, f"{missing[0]}: no such file or folder")
    if not files:
        raise CliError(Exit.BAD_INPUT, f"{' '.join(args.paths)}: no snapshot files (.json, .jsonl, .jsonl.gz) found")
    if (args.dask or args.dask_scheduler) and not _has_dask():
        raise CliError(Exit.USAGE, "--dask needs Dask: pip install 'routemax[dask]'")
    # an earlier run's lines (a resumed audit) are read after this run: held now, every forked worker would
    # come to copy them
    earlier = out.stat().st_size if out.exists() else 0
    fresh: list[dict[str, Any]] = []  # this run's lines
    workers = args.workers or default_workers()
    t0 = time.perf_counter()
    columns = (TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    objective = OBJECTIVES[args.objective] or "REVENUE_ONLY"
    with Progress(*columns, console=err, disable=not err.is_terminal) as progress:
        # a resumed audit's bar starts at the positions done before (counted only for a terminal that shows it)
        task = progress.add_task("audit", total=None,
                                 completed=len(done_sources(out)) if earlier and err.is_terminal else 0)
        if err.is_terminal:  # the bar's total costs a reading of every file: counted beside the audit
            Thread(target=_count_items, args=(progress, task, files), daemon=True).start()

        def took(line: dict[str, Any]) -> None:
            fresh.append(line)
            progress.advance(task)
        try:
            with terminate_as_interrupt(), make_executor(workers, args.dask, args.dask_scheduler) as executor:
                written = run_audit(iter_items(files), out, executor, time_limit_s=args.time_limit,
                                    objective=objective, on_line=took,
                                    maps=bool(args.html))  # maps only for a report that shows them
        except KeyboardInterrupt:
            done = len(read_lines(out)) if out.exists() else 0
            raise CliError(Exit.INTERRUPTED, f"interrupted: {done} positions are in {out}; "
                                             "run the same command again to resume") from None
    seconds = time.perf_counter() - t0
    lines = (read_lines(out, earlier) if earlier else []) + fresh
    summary = summarise(lines)
    print_summary(summary, _console())
    err.print(f"{written} positions audited in {seconds:.1f} s ({written / max(seconds, 1e-9):.1f} per second), "
              f"{len(lines)} in {out}")
    if html is not None:
        html.write_text(render(summary, lines), encoding="utf-8")
        err.print(f"report: {html}")
    _leave_heap_to_exit()
    if summary.errors.get("disagreement"):
        return Exit.INTERNAL
    if args.fail_on_illegal and summary.total.illegal:
        return Exit.NEGATIVE
    return Exit.OK


def _leave_heap_to_exit() -> None:
    """When the process ends (`atexit`, which runs before the interpreter's own closing steps), what it holds
    (the solver's modules, OR-Tools and numpy with them, an audit's lines) is set apart from the cyclic
    collector (`gc.freeze`): the collector's pass over the whole heap as the interpreter ends (a quarter of a
    second after an audit) is not made. A process that goes on (a test, a library caller) collects as usual
    until then; files are closed and output flushed as usual."""
    import atexit
    import gc

    atexit.unregister(gc.freeze)  # (once, however many audits the process runs)
    atexit.register(gc.freeze)


def _count_items(progress: Progress, task: TaskID, files: list[Path]) -> None:
    """The progress bar's total: the positions of every file (never below what is done already)."""
    from routemax_cli.audit_run import iter_items

    total = sum(1 for _ in iter_items(files))
    done = next((t.completed for t in progress.tasks if t.id == task), 0)
    progress.update(task, total=max(total, done))


def _has_dask() -> bool:
    from importlib.util import find_spec

    return find_spec("dask") is not None and find_spec("distributed") is not None


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix("routemax").strip()
        raise CliError(Exit.USAGE, f"{command}: {message}" if command else message)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="routemax", description="Legal maximum train routes for 18xx games.", epilog=EXIT_CODES_HELP)
    p.add_argument("--version", action="version", version=f"routemax {version()}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    add_serve_arguments(sub.add_parser("serve", help="run the gRPC service", epilog=EXIT_CODES_HELP))

    for name, func, helptext in (("solve", cmd_solve, "find the maximum revenue routes"),
                                 ("evaluate", cmd_evaluate, "judge a route set (default: the recorded one)")):
        c = sub.add_parser(name, help=helptext, epilog=EXIT_CODES_HELP)
        c.add_argument("file", nargs="?", help="snapshot .json or .jsonl.gz (default: the built-in example)")
        c.add_argument("--example", choices=sorted(EXAMPLES), help="use a built-in example board")
        c.add_argument("--position", type=int, default=None, help="only the N-th position (0-based) of the file")
        c.add_argument("--json", action="store_true", help="one JSON object per position")
        c.set_defaults(func=func)
        if name == "solve":
            c.add_argument("--time-limit", type=inputs.time_limit_arg, default=DEFAULT_TIME_LIMIT_S,
                           help=f"seconds per position, above 0 (default {DEFAULT_TIME_LIMIT_S:g})")
            c.add_argument("--objective", choices=sorted(OBJECTIVES), default="default",
                           help="1873: rulebook (most routes, then revenue; the default) or revenue-only")
            c.add_argument("--svg", default=None, help="also write the route map: OUT.svg, or OUT-<N>.svg per "
                                                       "position of a .jsonl(.gz) file without --position")
        else:
            c.add_argument("--routes", help="JSON file: a list of {train, nodes, legs} (snapshot ids), "
                                            "or {\"routes\": [...]}")
    a = sub.add_parser("audit", help="audit recorded runs: legal? revenue by the rules? money left on the table?",
                       epilog=EXIT_CODES_HELP)
    a.add_argument("paths", nargs="+", help="snapshot files (.json, .jsonl.gz), folders or globs")
    a.add_argument("--out", required=True, help="JSON lines output; re-running with it skips positions done")
    a.add_argument("--workers", type=_worker_count, default=0, help="local worker processes (default: all cores)")
    a.add_argument("--dask", action="store_true", help="run on a Dask LocalCluster (pip install 'routemax[dask]')")
    a.add_argument("--dask-scheduler", default=None, help="run on the Dask cluster at this scheduler address")
    a.add_argument("--html", default=None, help="also write a self-contained HTML report")
    a.add_argument("--time-limit", type=inputs.time_limit_arg, default=DEFAULT_TIME_LIMIT_S,
                   help=f"seconds per position, above 0 (default {DEFAULT_TIME_LIMIT_S:g})")
    a.add_argument("--objective", choices=sorted(OBJECTIVES), default="revenue-only",
                   help="1873 objective of the optimum (default revenue-only; the service rule is checked apart)")
    a.add_argument("--fail-on-illegal", action="store_true", help="exit 1 when any recorded run is illegal")
    a.set_defaults(func=cmd_audit)

    add_render_parser(sub)
    add_whatif_parser(sub)
    m = sub.add_parser("mines", help="1873 mine production of a mining company (JSON: mines, public_company)",
                       epilog=EXIT_CODES_HELP)
    m.add_argument("file", help='JSON: {"public_company": true, "harzer_werke": false, "mines": [{"id", "connected", '
                                '"machine", "switcher", "machine_revenue", "switcher_revenue"}]}')
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=cmd_mines)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit code. Errors are one line on standard error, never a traceback."""
    argv = list(sys.argv[1:] if argv is None else argv)
    t0 = time.perf_counter()
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["solve", *argv])
        if args.command == "serve":
            raise CliError(Exit.USAGE, "routemax serve: run it as `routemax serve` (server.main)")
        return int(args.func(args))
    except CliError as exc:
        print(f"routemax: {exc.message}", file=sys.stderr)
        return exc.code
    except Interrupted:
        print("routemax: interrupted", file=sys.stderr)
        return Exit.INTERRUPTED
    except KeyboardInterrupt:
        print("routemax: interrupted", file=sys.stderr)
        return Exit.INTERRUPTED
    except BrokenPipeError:
        return Exit.OK
    except OSError as exc:
        if exc.filename is None:  # not a file (a lost connection, say): a bug or the machine, as below
            print(f"routemax: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
            return Exit.INTERNAL
        # a file the command reads or writes: one line naming it
        names = " -> ".join(str(f) for f in (exc.filename, exc.filename2) if f is not None)
        print(f"routemax: {names}: {exc.strerror or type(exc).__name__}", file=sys.stderr)
        return Exit.BAD_INPUT
    except Exception as exc:  # a bug: still one line, with the exit code that says so
        from solver.model.errors import BoardError

        if isinstance(exc, BoardError):  # input out of spec that a later step found (a hex id no map can place)
            print(f"routemax: {exc.field}: {exc.message}", file=sys.stderr)
            return Exit.BAD_INPUT
        print(f"routemax: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return Exit.INTERNAL
    finally:
        if argv[:1] not in (["audit"], ["mines"]) and "--json" not in argv and "--help" not in argv \
                and "-h" not in argv and "--version" not in argv:
            print(f"({time.perf_counter() - t0:.2f} s)", file=sys.stderr)
