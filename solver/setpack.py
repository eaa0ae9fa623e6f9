"""An exact branch and bound for the plain packing (no run rules): choose at most `counts[ci]`
options of each train class, no two sharing a track key within their track group, the most revenue.

Options are numbered by value, best first, and every set of options is visited once, as an
increasing sequence of numbers. The options still open at a search node are one bit set (a Python
int over option numbers), so the best open option is its lowest set bit and the bound "this
node's value plus the best open options for the slots left" costs a few big-int operations. Track
keys used by the same options are merged first (a few dozen remain on late-game boards); a chosen
option closes every option sharing a key with it by one AND with a cached mask.

Companies run few trains (two to four in the stress set), so the search is shallow; on the stress
set it proves optimality 5 to 30 times faster than the CP-SAT packing of the same candidates.
It stops at a deadline, a node limit or on cancel and then reports itself unfinished.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.cancel import CancelToken
from solver.candidates import Candidate
from solver.results import Status

Choice = tuple[int, int]  # (candidate index, train class index), as in solver.packing

CHECK_EVERY = 64  # search nodes between looks at the clock and the cancel token
CACHE_BITS = 10**9  # at most this many bits (125 MB) of cached "left open" sets


@dataclass
class PackResult:
    """The best packing found (option indices into the caller's list), its value, and whether the
    search finished (then it is optimal)."""

    chosen: list[int] | None  # None: nothing beats the `lower` given
    value: int
    finished: bool
    stats: dict[str, float] = field(default_factory=dict)


def _bitset(indices: Sequence[int], n: int) -> int:
    flags = np.zeros(n, dtype=bool)
    flags[np.asarray(indices, dtype=np.int64)] = True
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


def _top(open_: int, slots: int, values: Sequence[int]) -> int:
    """The sum of the `slots` best options in `open_` (its lowest set bits)."""
    total = 0
    while open_ and slots:
        low = open_ & -open_
        total += values[low.bit_length() - 1]
        open_ ^= low
        slots -= 1
    return total


def _merged_keys(masks: Sequence[int], n: int) -> tuple[list[int], list[int]]:
    """Per merged key, the options using it (a bit set over options), and per option its merged
    keys (a small mask). Keys used by the same options are merged into one; keys used by a
    single option are dropped (they exclude nothing)."""
    width = max((m.bit_length() for m in masks), default=0)
    if n == 0 or width == 0:
        return [], [0] * n
    nbytes = (width + 7) // 8
    raw = np.frombuffer(b"".join(m.to_bytes(nbytes, "little") for m in masks), dtype=np.uint8)
    table = np.unpackbits(raw.reshape(n, nbytes), axis=1, bitorder="little")  # option x key
    table = table[:, np.count_nonzero(table, axis=0) > 1]
    columns = np.packbits(table.T, axis=1, bitorder="little")  # key x option, as bytes
    first: dict[bytes, int] = {}
    for k, col in enumerate(columns):
        first.setdefault(col.tobytes(), k)
    if not first:
        return [], [0] * n
    keep = sorted(first.values())
    users = [int.from_bytes(columns[k].tobytes(), "little") for k in keep]
    per_option = np.packbits(table[:, keep], axis=1, bitorder="little")
    kmask = [int.from_bytes(row.tobytes(), "little") for row in per_option]
    return users, kmask


def best_packing(values: Sequence[int], classes: Sequence[int], masks: Sequence[int],
                 counts: Sequence[int], lower: int = 0, deadline: float | None = None,
                 cancel: CancelToken | None = None, node_limit: int | None = None) -> PackResult:
    """The best set of options: option i earns `values[i]`, belongs to train class `classes[i]`
    and occupies the keys set in `masks[i]` (two chosen options never share a key). At most
    `counts[c]` options of class c. Only packings worth more than `lower` are searched for
    (`chosen` None: none is)."""
    t0 = time.monotonic()
    n = len(values)
    order = sorted(range(n), key=lambda i: -values[i])
    vals = [values[i] for i in order]
    cls = [classes[i] for i in order]
    users, kmask = _merged_keys([masks[i] for i in order], n)
    closes = [~u for u in users]  # AND with these: the options left open once a key is taken
    by_class: dict[int, list[int]] = defaultdict(list)
    for j, c in enumerate(cls):
        by_class[c].append(j)
    class_closes = {c: ~_bitset(v, n) for c, v in by_class.items()}
    left = {c: counts[c] for c in by_class}
    best_value, best_set = lower, None
    cache: dict[int, int] = {}  # key mask -> the options it leaves open (as a mask)
    cache_size = max(64, CACHE_BITS // max(1, n))
    chosen: list[int] = []
    nodes = [0]
    stopped = [False]

    def out_of_time() -> bool:
        return ((deadline is not None and time.monotonic() > deadline) or (cancel is not None and cancel.cancelled)
                or (node_limit is not None and nodes[0] > node_limit))

    def search(open_: int, value: int, slots: int) -> None:
        nonlocal best_value, best_set
        if value > best_value:
            best_value, best_set = value, list(chosen)
        x = open_
        while x:
            low = x & -x
            j = low.bit_length() - 1
            x ^= low
            vj = vals[j]
            if value + vj + _top(x, slots - 1, vals) <= best_value:
                break  # no later option (worth less, with fewer open after it) does better
            if slots == 1:  # the last train: the best open option is the best completion
                best_value, best_set = value + vj, chosen + [j]
                break
            nodes[0] += 1
            if nodes[0] % CHECK_EVERY == 0 and out_of_time():
                stopped[0] = True
                return
            mj = kmask[j]
            keep = cache.get(mj)
            if keep is None:
                keep = -1
                m = mj
                while m:
                    bit = m & -m
                    keep &= closes[bit.bit_length() - 1]
                    m ^= bit
                if len(cache) < cache_size:
                    cache[mj] = keep
            child = x & keep
            c = cls[j]
            left[c] -= 1
            if not left[c]:
                child &= class_closes[c]
            chosen.append(j)
            search(child, value + vj, slots - 1)
            chosen.pop()
            left[c] += 1
            if stopped[0]:
                return

    setup_ms = (time.monotonic() - t0) * 1000.0
    try:
        search((1 << n) - 1, 0, sum(left.values()))
    finally:  # the recursive closures refer to themselves: break the cycles for reference counting
        search = None  # noqa: F841
    picked = [order[j] for j in best_set] if best_set is not None else None
    stats = {"bb_keys": float(len(users)), "bb_nodes": float(nodes[0]), "bb_setup_ms": setup_ms,
             "bb_ms": (time.monotonic() - t0) * 1000.0}
    return PackResult(chosen=picked, value=best_value, finished=not stopped[0], stats=stats)


def exact_packing(cands: Sequence[Candidate], counts: Sequence[int], groups: Sequence[str], lower: int,
                  lower_pack: list[Choice], deadline: float, cancel: CancelToken | None = None,
                  ) -> tuple[Status, list[Choice], int, dict[str, float]]:
    """The plain packing of candidates by `best_packing`: OPTIMAL with
    the best choices when it finished, else UNKNOWN with the best packing found (at least
    `lower_pack`, worth `lower`), bound -1, and its stats."""
    options = [(r, ci) for r, c in enumerate(cands) for ci in c.revenue]
    values = [sum(cands[r].revenue[ci]) for r, ci in options]
    group_no = {g: k for k, g in enumerate(sorted(set(groups)))}
    width = max((c.mask.bit_length() for c in cands), default=0)
    shift = [group_no[groups[ci]] * width for ci in range(len(groups))]  # track groups on separate keys
    spare = len(group_no) * width  # keys after the track: a route without track, once per group
    trackless = {r: k for k, r in enumerate(r for r, c in enumerate(cands) if not c.mask)}
    masks = [cands[r].mask << shift[ci] if cands[r].mask else
             1 << (spare + trackless[r] * len(group_no) + group_no[groups[ci]]) for r, ci in options]
    result = best_packing(values, [ci for _, ci in options], masks, counts, lower, deadline, cancel)
    chosen = lower_pack if result.chosen is None else [options[i] for i in result.chosen]
    if result.finished:
        return Status.OPTIMAL, chosen, max(result.value, lower), result.stats
    return Status.UNKNOWN, chosen, -1, result.stats
