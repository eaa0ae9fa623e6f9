"""`routemax audit`: audit many positions, locally in parallel or on a Dask cluster, resumably.

Every position becomes one JSON line in the output file, written (and flushed with the rest of its
batch) as soon as its batch is done, so a killed run loses at most the positions in flight.
Re-running with the same output file skips the positions already there. Local workers and Dask
run the same function through the same `concurrent.futures` interface (Dask's
`Client.get_executor()`).
"""

from __future__ import annotations

import gc
import glob
import gzip
import json
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from routemax_cli.same_positions import SamePositions
from solver.audit.run import audit_text
from solver.input.hex_reuse import HexReuse
from solver.model.gcpause import gc_paused

SUFFIXES = (".jsonl.gz", ".jsonl", ".json")


@dataclass(frozen=True)
class Item:
    """One position to audit: where it comes from and its JSON text (or why it could not be read)."""

    source: str
    text: str | None = None
    error: str | None = None


def expand_paths(paths: Iterable[str]) -> list[Path]:
    """Files named, found under folders (recursively), or matched by globs; in a stable order."""
    out: list[Path] = []
    for p in paths:
        if any(ch in p for ch in "*?["):
            matches = [Path(m) for m in sorted(glob.glob(p, recursive=True))]
        elif Path(p).is_dir():
            matches = sorted(f for f in Path(p).rglob("*") if f.is_file() and f.name.endswith(SUFFIXES))
        else:
            matches = [Path(p)]
        out.extend(m for m in matches if m not in out)
    return out


def iter_items(files: Iterable[Path]) -> Iterator[Item]:
    """Positions of the files: a `.json` file is one; each line of a `.jsonl(.gz)` file is one."""
    for f in files:
        name = str(f.resolve())
        if not f.exists():
            yield Item(source=name, error="no such file")
            continue
        if f.name.endswith(".json"):
            try:
                yield Item(source=name, text=f.read_text(encoding="utf-8"))
            except UnicodeDecodeError:
                yield Item(source=name, error="not UTF-8 text")
            except OSError as exc:
                yield Item(source=name, error=f"unreadable: {exc.strerror or exc}")
            continue
        opener = gzip.open if f.name.endswith(".gz") else open
        try:
            with opener(f, "rt", encoding="utf-8") as fh:
                for lineno, line in enumerate(fh, start=1):
                    if line.strip():
                        yield Item(source=f"{name}:{lineno}", text=line)
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            yield Item(source=name, error=f"unreadable: {exc}")


def done_sources(out: Path) -> set[str]:
    """Sources already audited in an earlier run with this output file."""
    if not out.exists():
        return set()
    seen = set()
    with out.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                seen.add(json.loads(line)["source"])
            except (json.JSONDecodeError, KeyError, TypeError):
                continue  # a line cut short by a kill: that position is audited again
    return seen


_THREAD = threading.local()  # per thread (a Dask worker may audit batches on several threads at once)


def _hexes() -> HexReuse:
    """This thread's `HexReuse`: the hexes, last board and walks of the positions it audited before (one
    `HexReuse` is used by one thread at a time)."""
    reuse = getattr(_THREAD, "reuse", None)
    if reuse is None:
        reuse = _THREAD.reuse = HexReuse()
    return reuse


def audit_batch(batch: list[tuple[str, str]], time_limit_s: float, objective: str,
                maps: bool = True) -> list[dict[str, Any]]:
    """The unit of work sent to a worker process or a Dask worker: a few positions at a time,
    so that sending work and results costs little beside the audit itself. With `maps`, flagged
    positions carry their route maps (drawn in the worker, which has the board). A worker reads a
    hex once while it is unchanged (`HexReuse`), and a board by its changes, its walks taken again: positions
    come a game at a time, so the longer a batch (`run_audit`'s `batch_size`), the more of a game one worker
    reads in a row."""
    reuse = _hexes()
    return [audit_text(source, text, time_limit_s, objective, maps, reuse=reuse) for source, text in batch]


@contextmanager
def make_executor(workers: int, dask: bool, scheduler: str | None) -> Iterator[Executor | None]:
    """A local process pool, a Dask executor (LocalCluster or a scheduler), or None (in process)."""
    if scheduler or dask:
        from dask.distributed import Client, LocalCluster

        cluster = None if scheduler else LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                      dashboard_address=None)
        client = Client(scheduler) if scheduler else Client(cluster)
        try:
            yield client.get_executor()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    elif workers > 1:
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker)
        try:
            yield pool
            pool.shutdown(wait=True)
        except BaseException:  # Ctrl-C or an error, also while shutting down: drop the positions in flight
            _stop(pool)
            raise
    else:
        yield None


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a process pool at once: cancel the work waiting, end the workers (3.11 has no public
    terminate), and wait for the pool's manager thread to end. Left running, that thread may close its
    wake-up pipe while Python's exit hook writes to it, which prints a traceback after a Ctrl-C."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    if manager is not None:
        manager.join(timeout=10)


def _start_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops the audit cleanly (no traceback per worker), and end
    at SIGTERM (the parent's stop, whatever handler they were forked with). What the worker holds from its
    start (the modules) is set apart from the cyclic collector (`gc.freeze`): its full passes then look at
    the audit's own objects only (a tenth of the time). The collector runs in the worker although the
    parent forked it with the collector paused (`run_audit`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    gc.freeze()
    gc.enable()


def run_audit(items: Iterable[Item], out: Path, executor: Executor | None, time_limit_s: float = 10.0,
              objective: str = "REVENUE_ONLY", window: int = 3, batch_size: int = 16,
              on_line: Callable[[dict[str, Any]], None] | None = None, maps: bool = True) -> int:
    """Audit every item not yet in `out`, appending each line as it completes; returns lines written.
    With `maps` (the default), flagged positions carry their route maps for the HTML report. A position
    that differs from one audited in this run only in its `source` block is not audited again: its line
    is that one's, with its own identity and `same_as` (`routemax_cli.same_positions`).

    With local worker processes, the cyclic garbage collector rests meanwhile in this process
    (`solver.model.gcpause`): the lines it holds (the caller keeps them for the summary) only grow, its full
    passes over them cost a tenth of this process's time, and handing work to the pool makes next to no
    cycles. (Audited in process, or with Dask's threads in this process, it runs as usual.) What the run
    made is then moved to the collector's oldest generation at once (`gc.freeze`, `gc.unfreeze`), where
    objects that survive its passes go: the young passes that follow (the summary) need not look at the
    lines again, and the next full pass still frees any cycle among them (unless the caller holds objects
    frozen itself: `gc.unfreeze` would free those too, so then nothing is moved)."""
    if not isinstance(executor, ProcessPoolExecutor):
        return _run_audit(items, out, executor, time_limit_s, objective, window, batch_size, on_line, maps)
    aged = gc.get_freeze_count() == 0  # (a caller's own frozen objects stay frozen: then nothing is moved)
    with gc_paused():
        try:
            return _run_audit(items, out, executor, time_limit_s, objective, window, batch_size, on_line, maps)
        finally:
            if aged:
                gc.freeze()
                gc.unfreeze()


def _run_audit(items: Iterable[Item], out: Path, executor: Executor | None, time_limit_s: float,
               objective: str, window: int, batch_size: int,
               on_line: Callable[[dict[str, Any]], None] | None, maps: bool) -> int:
    skip = done_sources(out)
    written = 0
    cut_short = out.exists() and out.stat().st_size > 0 and not out.read_bytes().endswith(b"\n")
    same = SamePositions()
    with out.open("a", encoding="utf-8") as fh:
        if cut_short:  # a kill cut the last line short: the next line starts on a line of its own
            fh.write("\n")
        batch: list[tuple[str, str]] = []  # positions to hand to a worker
        pending: set[Future] = set()

        def emit(line: dict[str, Any]) -> None:
            nonlocal written
            fh.write(json.dumps(line) + "\n")
            written += 1
            if on_line is not None:
                on_line(line)
            for copy in same.done(line):  # copies of this position: written now, or audited on their own
                if isinstance(copy, dict):
                    emit(copy)
                else:
                    batch.append(copy)

        def emit_batch(lines: list[dict[str, Any]]) -> None:  # a batch's lines are done together
            for line in lines:
                emit(line)
            fh.flush()

        def submit() -> None:
            nonlocal pending
            pending.add(executor.submit(audit_batch, list(batch), time_limit_s, objective, maps))  # type: ignore[union-attr]
            batch.clear()
            if len(pending) >= window:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    emit_batch(fut.result())

        def audit_now() -> None:  # without workers: each position at once (copies come back as they are met)
            while batch:
                source, text = batch.pop(0)
                emit_batch([audit_text(source, text, time_limit_s, objective, maps, reuse=_hexes())])

        for item in items:
            if item.source in skip:
                continue
            if item.text is None:
                emit_batch([{"source": item.source, "error": item.error, "error_kind": "malformed"}])
                continue
            copy = same.take(item.source, item.text)
            if copy is not None:  # a copy of a position audited, or in flight (then written with it)
                if copy is not True:
                    emit_batch([copy])
                continue
            batch.append((item.source, item.text))
            if executor is None:
                audit_now()
            elif len(batch) >= batch_size:
                submit()
        while batch or pending:  # the last batch, and copies sent back to be audited on their own
            if batch and executor is None:
                audit_now()
            elif batch:
                submit()
            else:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    emit_batch(fut.result())
    return written


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
