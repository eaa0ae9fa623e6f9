"""Load on a real `routemax serve` process: many concurrent clients solving real corpus positions.

Run: `python -m pytest benchmarks/test_load.py --benchmark-only -s`. Each round, ROUTEMAX_LOAD_CLIENTS
clients (default 50, each on its own connection) send ROUTEMAX_LOAD_REQUESTS Solve calls each (default 200)
of corpus snapshots as `snapshot_json` with a short time limit. `extra_info` records, per round, errors,
p50/p99 latency, throughput and the server's resident memory (VmRSS) after the round, and the RSS growth
between rounds (target: under 10 % between the later ones). The server logs every request, as in production.
Any failed request fails the benchmark.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from benchmarks.conftest import CORPUS, REPO
from routemax.v1 import routemax_pb2 as pb
from routemax.v1 import routemax_pb2_grpc as pb_grpc
from solver.input.snapshot import read_positions

CLIENTS = int(os.environ.get("ROUTEMAX_LOAD_CLIENTS", "50"))
REQUESTS = int(os.environ.get("ROUTEMAX_LOAD_REQUESTS", "200"))
ROUNDS = int(os.environ.get("ROUTEMAX_LOAD_ROUNDS", "3"))
SAMPLE = 60
TIME_LIMIT_S = 1.0


def _sample_snapshots() -> list[str]:
    """A fixed random sample of plain corpus positions, across every title, as JSON text."""
    texts = [json.dumps(pos.raw) for path in sorted(CORPUS.glob("*/*.jsonl.gz")) for pos in read_positions(path)
             if pos.raw is not None and pos.raw.get("plain_revenue") is True]
    return random.Random(18).sample(texts, min(SAMPLE, len(texts)))


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[subprocess.Popen, int]]:
    log = tmp_path_factory.mktemp("load") / "serve.log"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with log.open("wb") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "routemax", "serve", "--port", "0"],
                                cwd=REPO, stderr=fh, env=env)
    try:
        port = _wait_port(proc, log)
        yield proc, port
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def _wait_port(proc: subprocess.Popen, log: Path) -> int:
    """The bound port, from the server's start line."""
    end = time.monotonic() + 60
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"server exited: {log.read_text()}")
        for line in log.read_text().splitlines():
            event = json.loads(line)
            if event.get("event") == "start":
                return int(event["address"].rsplit(":", 1)[1])
        time.sleep(0.1)
    raise AssertionError("server did not start")


def _client(port: int, snapshots: list[str], seed: int, latencies: list[float], errors: list[str]) -> None:
    rng = random.Random(seed)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
        stub = pb_grpc.RouteServiceStub(channel)
        for _ in range(REQUESTS):
            request = pb.SolveRequest(snapshot_json=rng.choice(snapshots), time_limit_s=TIME_LIMIT_S)
            t0 = time.perf_counter()
            try:
                stub.Solve(request, timeout=300)
            except grpc.RpcError as exc:
                errors.append(f"{exc.code().name}: {exc.details()}")
                continue
            latencies.append((time.perf_counter() - t0) * 1000)


def _round(port: int, snapshots: list[str], round_no: int) -> dict[str, float]:
    latencies: list[float] = []
    errors: list[str] = []
    threads = [threading.Thread(target=_client, args=(port, snapshots, round_no * 1000 + i, latencies, errors))
               for i in range(CLIENTS)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - t0
    ordered = sorted(latencies)
    return {"errors": len(errors), "first_error": errors[0] if errors else "", "requests": CLIENTS * REQUESTS,
            "seconds": round(seconds, 1), "per_second": round(len(latencies) / seconds, 1),
            "p50_ms": round(statistics.median(ordered), 1) if ordered else 0.0,
            "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1) if ordered else 0.0}


def test_load_concurrent_clients(benchmark, server: tuple[subprocess.Popen, int]) -> None:
    proc, port = server
    snapshots = _sample_snapshots()
    rounds: list[dict[str, float]] = []

    def run() -> None:
        for n in range(ROUNDS):
            result = _round(port, snapshots, n)
            result["rss_mib"] = round(_rss_kib(proc.pid) / 1024, 1)
            rounds.append(result)
            print(f"round {n}: {result}", flush=True)

    rss_start = _rss_kib(proc.pid) / 1024
    benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
    growth = [round(100 * (b["rss_mib"] - a["rss_mib"]) / a["rss_mib"], 1) for a, b in zip(rounds, rounds[1:])]
    benchmark.extra_info.update({"clients": CLIENTS, "requests_per_client": REQUESTS, "positions": len(snapshots),
                                 "time_limit_s": TIME_LIMIT_S, "rss_start_mib": round(rss_start, 1),
                                 "rounds": rounds, "rss_growth_pct": growth})
    print(f"RSS growth between rounds (%): {growth}", flush=True)
    assert sum(r["errors"] for r in rounds) == 0, [r["first_error"] for r in rounds if r["errors"]]
