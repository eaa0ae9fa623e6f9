"""`routemax audit` and the Audit RPC: resume after a kill, Dask equal to local, malformed lines,
the HTML report, and a streaming call whose deadline expires mid-stream."""

from __future__ import annotations

import gc
import gzip
import json
import os
import pickle
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from routemax.v1 import routemax_pb2 as pb
from routemax_cli.audit_run import expand_paths, iter_items, make_executor, run_audit
from server.main import main
from solver.audit.run import audit_text
from solver.model.errors import BoardError
from tests.conftest import CORPUS, REPO

SMALL = CORPUS / "1889" / "962.jsonl.gz"  # 48 positions


def _lines(path: Path) -> list[dict]:
    out = []
    for raw in path.read_text().splitlines():
        try:
            out.append(json.loads(raw))
        except json.JSONDecodeError:
            continue  # the line a kill cut short
    return out


def _comparable(line: dict) -> dict:
    return {k: v for k, v in line.items() if k != "solve_ms"}


def test_audit_resumes_after_being_killed(tmp_path: Path) -> None:
    out = tmp_path / "audit.jsonl"
    cmd = [sys.executable, "-m", "routemax", "audit", str(SMALL), "--out", str(out), "--workers", "1"]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 5):
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    first = _lines(out)
    assert 5 <= len(first) < 48, "the kill should land mid-run"
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert f"{48 - len(first)} positions audited" in done.stderr
    totals = [re.findall(r"\d+", row)[0] for row in done.stdout.splitlines() if re.match(r"\W*all\b", row)]
    assert totals == ["48"], "the summary counts the positions of both runs"
    final = _lines(out)
    sources = [ln["source"] for ln in final]
    assert len(sources) == len(set(sources)) == 48
    assert all(ln["verdict"]["legal"] and ln["gap"] >= 0 for ln in final)


def test_a_line_cut_short_stays_apart_from_the_next(tmp_path: Path) -> None:
    items = list(iter_items([SMALL]))[:4]
    out = tmp_path / "audit.jsonl"
    run_audit(items[:2], out, None, maps=False)
    whole = out.read_text()
    out.write_text(whole + whole.splitlines()[0][:40])  # a kill in the middle of writing a third line
    seen: list[dict] = []
    assert run_audit(items, out, None, maps=False, on_line=seen.append) == 2
    final = _lines(out)
    assert [ln["source"] for ln in final] == [it.source for it in items]
    assert [ln["source"] for ln in seen] == [it.source for it in items[2:]]


def test_the_parent_pauses_its_collector_during_a_pooled_run_and_its_workers_do_not(tmp_path: Path) -> None:
    items = list(iter_items([SMALL]))[:8]
    collecting: list[bool] = []
    with make_executor(2, dask=False, scheduler=None) as executor:
        assert executor is not None
        run_audit(items, tmp_path / "pool.jsonl", executor, maps=False,
                  on_line=lambda line: collecting.append(gc.isenabled()))
        workers = {executor.submit(gc.isenabled).result() for _ in range(4)}  # forked while paused
    assert collecting == [False] * 8 and gc.isenabled(), "paused in the parent during the run only"
    assert workers == {True}
    in_process: list[bool] = []
    run_audit(items[:2], tmp_path / "here.jsonl", None, maps=False,
              on_line=lambda line: in_process.append(gc.isenabled()))
    assert in_process == [True, True], "audited in process, the collector runs between positions"


def test_the_audit_command_leaves_its_heap_to_the_exit(tmp_path: Path) -> None:
    """When the process ends, what it holds is set apart from the collector (`gc.freeze`, at exit: the
    interpreter's closing pass over it is not made); until then it collects as usual. A probe registered with
    `atexit` before the audit runs after the command's own handler (last in, first out)."""
    src = tmp_path / "in.jsonl"
    src.write_text("".join(gzip.open(SMALL, "rt").readlines()[:2]))
    out = tmp_path / "out.jsonl"
    probe = (
        "import atexit, gc, sys\n"
        "from server.main import main\n"
        "atexit.register(lambda: print('frozen at exit', gc.get_freeze_count() > 0, flush=True))\n"
        f"rc = main(['audit', {str(src)!r}, '--out', {str(out)!r}, '--workers', '1'])\n"
        "print('frozen before exit', gc.get_freeze_count() > 0, flush=True)\n"
        "sys.exit(rc)\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "frozen before exit False" in done.stdout and "frozen at exit True" in done.stdout, done.stdout
    assert len(_lines(out)) == 2


def test_audit_batches_on_threads_of_one_process_read_as_fresh(tmp_path: Path) -> None:
    """A Dask worker may run batches on several threads of one process: each thread reads with its own
    `HexReuse` (one is used by one thread at a time), and every line is the line of an audit in process."""
    from concurrent.futures import ThreadPoolExecutor

    from routemax_cli.audit_run import _hexes, audit_batch

    with ThreadPoolExecutor(1) as one, ThreadPoolExecutor(1) as other:
        a, a_again, b = one.submit(_hexes).result(), one.submit(_hexes).result(), other.submit(_hexes).result()
    assert a is a_again and a is not b and _hexes() not in (a, b), "one HexReuse per thread"

    games = [CORPUS / "1889" / "962.jsonl.gz", *sorted(CORPUS.glob("1830/*.jsonl.gz"))[:3]]
    batches = [[(f"{g}:{i}", text) for i, text in enumerate(gzip.open(g, "rt").readlines()[:12])] for g in games]
    alone = [[_comparable(audit_text(source, text)) for source, text in batch] for batch in batches]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often
    try:
        with ThreadPoolExecutor(len(batches)) as pool:
            threaded = list(pool.map(lambda b: audit_batch(b, 10.0, "REVENUE_ONLY", False), batches))
    finally:
        sys.setswitchinterval(switch)
    assert [[_comparable(line) for line in lines] for lines in threaded] == alone


def test_dask_local_cluster_gives_the_local_results(tmp_path: Path) -> None:
    items = list(iter_items([SMALL]))[:12]
    local, dask = tmp_path / "local.jsonl", tmp_path / "dask.jsonl"
    run_audit(items, local, None)
    with make_executor(2, dask=True, scheduler=None) as executor:
        assert executor is not None and "distributed" in type(executor).__module__
        run_audit(items, dask, executor)
    a = sorted((_comparable(x) for x in _lines(local)), key=lambda x: x["source"])
    b = sorted((_comparable(x) for x in _lines(dask)), key=lambda x: x["source"])
    assert len(a) == 12 and a == b


def test_malformed_line_is_reported_with_file_and_line_and_the_rest_goes_on(tmp_path: Path) -> None:
    with gzip.open(SMALL, "rt") as fh:
        good = [next(fh) for _ in range(3)]
    bad = tmp_path / "game.jsonl.gz"
    with gzip.open(bad, "wt") as fh:
        fh.write(good[0] + good[1] + '{"format": "18xx-route-snapshot/1", "hexes": [\n' + good[2])
    out = tmp_path / "audit.jsonl"
    html = tmp_path / "report.html"
    assert main(["audit", str(tmp_path), "--out", str(out), "--workers", "1", "--html", str(html)]) == 0
    lines = {ln["source"].rsplit(":", 1)[-1]: ln for ln in _lines(out)}
    assert set(lines) == {"1", "2", "3", "4"}
    assert lines["3"]["source"] == f"{bad.resolve()}:3"
    assert "not valid JSON" in lines["3"]["error"]
    assert all(lines[k]["verdict"]["legal"] for k in ("1", "2", "4"))
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and "Flagged positions" in page and "malformed: 1" in page


def test_a_board_the_optimiser_refuses_is_reported_and_the_rest_goes_on(tmp_path: Path) -> None:
    with gzip.open(SMALL, "rt") as fh:
        good = [json.loads(next(fh)) for _ in range(2)]
    refused = {**good[0], "revenue_model": "modifiers", "modifiers": [  # a pair the optimiser does not search
        {"type": "DropLowestRoute", "source": "d", "label": "D", "min_routes": 2},
        {"type": "BestRouteBonus", "source": "b", "label": "B", "award": "first_max", "amount": 10}]}
    src = tmp_path / "game.jsonl"
    src.write_text("".join(json.dumps(raw) + "\n" for raw in (good[0], refused, good[1])))
    out = tmp_path / "audit.jsonl"
    assert main(["audit", str(src), "--out", str(out), "--workers", "2"]) == 0  # worker processes
    lines = {ln["source"].rsplit(":", 1)[-1]: ln for ln in _lines(out)}
    assert set(lines) == {"1", "2", "3"}
    assert lines["2"]["error_kind"] == "unsupported" and "DropLowestRoute" in lines["2"]["error"]
    assert "verdict" in lines["2"] and "optimum" not in lines["2"]  # the recorded run is still judged
    assert all("optimum" in lines[k] for k in ("1", "3"))


def test_a_board_error_crosses_a_process_boundary_whole() -> None:
    back = pickle.loads(pickle.dumps(BoardError("modifiers[1]", "not priced")))
    assert (type(back), back.field, back.message, str(back)) == (BoardError, "modifiers[1]", "not priced",
                                                                  "modifiers[1]: not priced")


def test_folders_and_globs_are_expanded(tmp_path: Path) -> None:
    by_folder = expand_paths([str(CORPUS / "1889")])
    by_glob = expand_paths([str(CORPUS / "18*" / "*.jsonl.gz")])
    assert by_folder == [SMALL]
    assert SMALL in by_glob and len(by_glob) > 5


def _requests(n: int):
    with gzip.open(SMALL, "rt") as fh:
        lines = fh.readlines()
    for i in range(n):
        yield pb.AuditRequest(source=f"p{i}", snapshot_json=lines[i % len(lines)])


def test_audit_stream_answers_each_position_in_order(stub) -> None:
    """In order, and each line as the position audited alone gives it (the call reads the positions of a
    game in turn, taking unchanged hexes again)."""
    requests = list(_requests(5))
    got = list(stub.Audit(iter(requests), timeout=60))
    assert [g.source for g in got] == [f"p{i}" for i in range(5)]
    assert all(g.legal and g.gap >= 0 and g.status == pb.OPTIMAL and not g.error for g in got)
    assert json.loads(got[0].json)["source"] == "p0"
    for req, line in zip(requests, got, strict=True):
        alone = audit_text(req.source, req.snapshot_json)
        assert _comparable(json.loads(line.json)) == _comparable(json.loads(json.dumps(alone)))


def test_audit_stream_stops_when_its_deadline_expires_mid_stream(stub) -> None:
    received = []
    with pytest.raises(grpc.RpcError) as err:
        for line in stub.Audit(_requests(100_000), timeout=1.5):
            received.append(line.source)
    assert err.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert 0 < len(received) < 100_000
    assert received == [f"p{i}" for i in range(len(received))]
