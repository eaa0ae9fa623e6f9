"""Per-position figures on the stress set (a script, not a benchmark): solve every stress position
in this process and write one JSON line per position (title, index, status, solve_ms, stats), then
print per-title median, p99, max and not-optimal counts. With `--repeat N`, each position is solved N
times, each on the board read anew, and its median `solve_ms` counts (the answers must agree): steadier
figures on a busy machine.

Run: `python3 -m benchmarks.stress_report OUT.jsonl [--limit 10] [--repeat 1] [--only TITLE ...]`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from benchmarks.figures import p99
from solver.input.snapshot import board_from_snapshot
from solver.model.results import SolveOptions
from solver.optimiser import solve
from tests.support.stress_boards import STRESS, stress_snapshots


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    names = sorted(p.name.removesuffix(".jsonl.gz") for p in STRESS.glob("*.jsonl.gz"))
    if args.only:
        names = [n for n in names if n in args.only]
    rows = []
    with open(args.out, "w") as fh:
        for name in names:
            for i, raw in enumerate(stress_snapshots(name)):
                runs = []
                for _ in range(max(1, args.repeat)):
                    board = board_from_snapshot(raw)  # read anew: a ruleset may keep what it listed on a board
                    t0 = time.monotonic()
                    res = solve(board, SolveOptions(time_limit_s=args.limit))
                    runs.append((res.stats.get("solve_ms", 0.0), (time.monotonic() - t0) * 1000.0, res))
                answers = {(str(r.status), r.revenue, r.bound) for _ms, _wall, r in runs}
                if len(answers) != 1:
                    raise SystemExit(f"{name} #{i}: the repeated solves disagree: {sorted(answers)}")
                solve_ms, wall, res = sorted(runs, key=lambda run: run[0])[len(runs) // 2]  # the median run
                row = {"title": name, "index": i, "status": str(res.status), "revenue": res.revenue,
                       "bound": res.bound, "solve_ms": solve_ms, "wall_ms": wall, "stats": res.stats}
                rows.append(row)
                fh.write(json.dumps(row, default=str) + "\n")
                fh.flush()
    allt = []
    for name in names:
        ts = [r["solve_ms"] for r in rows if r["title"] == name]
        allt += ts
        bad = sum(r["status"] not in ("OPTIMAL", "Status.OPTIMAL") for r in rows if r["title"] == name)
        print(f"{name:26s} n={len(ts):3d} median={statistics.median(ts):8.1f} p99={p99(ts):8.1f} "
              f"max={max(ts):8.1f} not_optimal={bad} over_1s={sum(t > 1000 for t in ts)}")
    bad = sum(r["status"] not in ("OPTIMAL", "Status.OPTIMAL") for r in rows)
    print(f"{'ALL':26s} n={len(allt):3d} median={statistics.median(allt):8.1f} p99={p99(allt):8.1f} "
          f"max={max(allt):8.1f} not_optimal={bad} over_1s={sum(t > 1000 for t in allt)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
