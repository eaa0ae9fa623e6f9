"""`setpack.best_packing`'s search run by the compiled kernel (`solver/native/setpack.c`): the tables the
Python search reads (options by value, merged keys, Hall sets, class tops) as arrays of 64-bit words,
and the answer read back. Same order, same bounds: the same packing after the same nodes."""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from solver.model.cancel import CancelToken
from solver.native import library


class MergedKeys(Protocol):
    """What the kernel reads of `setpack._merged_keys`: rows of 64-bit words."""

    users_words: np.ndarray  # per merged key: the options using it
    kmask_words: np.ndarray  # per option: its merged keys


_P = ctypes.c_void_p
_I32, _I64 = ctypes.c_int32, ctypes.c_int64
ABI = 1  # the version of `rm_best_packing`'s arguments this module passes (`rm_setpack_abi`)


def _kernel() -> ctypes._CFuncPtr | None:
    lib = library("setpack")
    if lib is None:
        return None
    try:  # a build of another version (a stale in-tree build) is not used
        version, fn = lib.rm_setpack_abi, lib.rm_best_packing
    except AttributeError:
        return None
    version.restype = ctypes.c_int32
    if version() != ABI:
        return None
    if fn.argtypes is None:
        fn.restype = ctypes.c_int
        fn.argtypes = [_I32, _I32, _I32, _I32, _P, _P, _P, _P, _P, _P, _P, _P, _P, _I32, _P, _P, _I32, _I32, _P,
                       _P, _I64, ctypes.c_double, _I64, _I64, _P, _I64, _P, _P]
    return fn


def available() -> bool:
    """Whether the compiled search is built and switched on."""
    return _kernel() is not None


@dataclass
class Found:
    """What the search found: its best value and options (numbers in value order; None when nothing
    beat the lower bound), its nodes, and whether it stopped early."""

    value: int
    chosen: list[int] | None
    nodes: int
    stopped: bool


def _words(sets: Sequence[int], width: int) -> np.ndarray:
    """Bit sets (ints) as rows of `width` little-endian 64-bit words (one zero row for none)."""
    if not sets:
        return np.zeros(max(1, width), dtype=np.uint64)
    return np.frombuffer(b"".join(s.to_bytes(width * 8, "little") for s in sets), dtype="<u8")


def _numbered(fit: np.ndarray) -> tuple[dict[int, int], np.ndarray]:
    """The distinct fits numbered in the order they first appear, and each option's fit by number."""
    distinct, first, inverse = np.unique(fit, return_index=True, return_inverse=True)
    by_first = np.argsort(first)
    number = np.empty(len(distinct), dtype=np.int32)
    number[by_first] = np.arange(len(distinct), dtype=np.int32)
    return dict(zip(distinct[by_first].tolist(), range(len(distinct)))), number[inverse.reshape(-1)]


def _ptr(a: np.ndarray) -> int:
    return a.ctypes.data


def native_search(vals: Sequence[int] | np.ndarray, fit: Sequence[int] | np.ndarray, keys: MergedKeys,
                  within: dict[int, list[int]], room: dict[int, int], closes: dict[int, int],
                  fitting: Sequence[int | None], active: bool, counts: Sequence[int], lower: int,
                  deadline: float | None, cancel: CancelToken | None, node_limit: int | None,
                  check_every: int, cache_bits: int) -> Found | None:
    """The search over `best_packing`'s tables (options numbered by value, best last): `keys`, the merged
    keys as words (per key the options using it, per option its keys); `within`, `room`, `closes` per Hall
    set (`_Slots`); `fitting` per class (`_ClassTops`, None for every option). Like the Python search it looks
    at the clock, the token and the node limit every `check_every` nodes (the token sets a flag the kernel
    reads). None when the kernel is not built or switched off, for values or a bound not integers, or when it
    ran out of memory (the Python search runs then)."""
    fn = _kernel()
    n = len(vals)
    values = np.asarray(vals)
    # none built, nothing to search, or values (or a bound) the kernel cannot hold exactly: the Python search
    if fn is None or n == 0 or values.dtype.kind != "i" or lower != int(lower):
        return None
    values = values.astype(np.int64, copy=False)
    nw, nkeys = (n + 63) // 64, len(keys.users_words)
    kmask = np.ascontiguousarray(keys.kmask_words, dtype="<u8")
    kw = kmask.shape[1]
    prefix = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(values, out=prefix[1:])
    fit_no, fit_ids = _numbered(np.asarray(fit, dtype=np.int64))
    sets = list(room)
    set_no = {t: i for i, t in enumerate(sets)}
    starts, lengths, members = [], [], []
    for f in fit_no:
        starts.append(len(members))
        lengths.append(len(within[f]))
        members.extend(set_no[t] for t in within[f])
    class_alone = {1 << c: c for c in range(len(counts))}
    full = (1 << n) - 1
    arrays = {
        "vals": values, "prefix": prefix, "kmask": kmask,
        "users": np.ascontiguousarray(keys.users_words) if nkeys else np.zeros(nw, dtype="<u8"),
        "fitid": fit_ids,
        "wstart": np.asarray(starts, dtype=np.int32), "wlen": np.asarray(lengths, dtype=np.int32),
        "widx": np.asarray(members or [0], dtype=np.int32),
        "alone": np.asarray([class_alone.get(f, -1) for f in fit_no], dtype=np.int32),
        "room": np.asarray([room[t] for t in sets] or [0], dtype=np.int32),
        "closes": _words([closes[t] for t in sets], nw),
        "fitting": _words([full if f is None else f for f in fitting], nw),
        "counts": np.asarray(counts, dtype=np.int32),
    }
    out = np.zeros(sum(counts) + 1, dtype=np.int32)
    result = np.zeros(4, dtype=np.int64)
    cancelled = ctypes.c_int32(0)  # set by the token, from the thread that cancels; read by the kernel
    unregister = cancel.on_cancel(lambda: setattr(cancelled, "value", 1)) if cancel is not None else None
    a = arrays
    try:
        failed = fn(n, nw, kw, nkeys, _ptr(a["vals"]), _ptr(a["prefix"]), _ptr(a["kmask"]), _ptr(a["users"]),
                    _ptr(a["fitid"]), _ptr(a["wstart"]), _ptr(a["wlen"]), _ptr(a["widx"]), _ptr(a["alone"]), len(sets),
                    _ptr(a["room"]), _ptr(a["closes"]), len(counts), int(active), _ptr(a["fitting"]),
                    _ptr(a["counts"]), int(lower), -1.0 if deadline is None else deadline,
                    -1 if node_limit is None else max(0, node_limit), check_every, ctypes.addressof(cancelled),
                    cache_bits // 64, _ptr(out), _ptr(result))
    finally:
        if unregister is not None:
            unregister()
    if failed:
        return None
    count = int(result[3])
    return Found(value=int(result[0]), chosen=out[:count].tolist() if count >= 0 else None, nodes=int(result[1]),
                 stopped=bool(result[2]))
