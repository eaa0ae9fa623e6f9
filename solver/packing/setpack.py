"""An exact branch and bound for the plain packing (no run rules): choose options (routes), each on
a train class it fits, at most `counts[ci]` of class ci, no two sharing a track key within their
track group, for the most revenue.

A route that several classes run for the same revenue is one option fitting all of them; the
search keeps Hall's condition (for every set T of classes, no more chosen options that fit only
within T than T has trains), and `assign_trains` matches the chosen options to trains after it.

Options are numbered by value, best last, and every set of options is visited once, as a
decreasing sequence of numbers. The options still open at a search node are one bit set (a Python
int over option numbers), so the best open option is its highest set bit (`bit_length`, which
costs nothing, where finding the lowest bit of a big int costs a negation) and the bound "this
node's value plus, for the slots left, the best open option and the options numbered just below
it" costs one `bit_length` (values are sorted: no other open option is worth more than those). With
several train classes, a node that still branches is bounded class by class too (`_ClassTops`: each
class's trains left take its best open options), so that the best options of a class with one train left
do not stand in for the others' slots. Track
keys used by the same options are merged first (a few dozen remain on late-game boards); a chosen
option closes every option sharing a key with it by a few ANDs with cached sets (`open_sets`), and
the options it leaves open bound it before the search goes deeper.

Companies run few trains (two to four in the stress set), so the search is shallow; on the stress
set it proves optimality 5 to 30 times faster than the CP-SAT packing of the same candidates.
It stops at a deadline, a node limit or on cancel and then reports itself unfinished.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

import networkx as nx
import numpy as np

from solver.model.cancel import CancelToken
from solver.model.results import Status
from solver.packing.open_sets import OpenSets
from solver.packing.outcome import Choice, Packing
from solver.packing.setpack_native import available as native_available
from solver.packing.setpack_native import native_search
from solver.routes.bit_table import RowInts, bit_columns, holders, mask_words, row_int, row_words
from solver.routes.priced_on_read import PricedOnRead, candidate_masks, candidate_totals
from solver.routes.pricing import Candidate

CHECK_EVERY = 64  # search nodes between looks at the clock and the cancel token
MERGE_CLASSES = 6  # with more train classes than this, one option per class (the Hall sets grow)
CACHE_BITS = 10**9  # at most this many bits (125 MB) of cached "left open" sets
KERNEL_FROM = 256  # search nodes after which the compiled kernel takes the search over (0: at once; `setpack_native`)


@dataclass
class PackResult:
    """The best packing found (option indices into the caller's list), its value, and whether the
    search finished (then it is optimal)."""

    chosen: list[int] | None  # None: nothing beats the `lower` given
    value: int
    finished: bool
    stats: dict[str, float] = field(default_factory=dict)


def _by_value(values: Sequence[int]) -> tuple[np.ndarray, list[int], np.ndarray | None]:
    """The options worth more than nothing, by value (ties in their order): the search's numbering, and their
    values in it, as a list and as integers (None when numpy holds no integers for them)."""
    array = np.asarray(values)
    if array.dtype.kind not in "iu":  # values numpy holds no integers for: Python's sort
        order = sorted((i for i in range(len(values)) if values[i] > 0), key=lambda i: values[i])
        return np.asarray(order, dtype=np.int64), [values[i] for i in order], None
    worth = np.flatnonzero(array > 0)
    order = worth[np.argsort(array[worth], kind="stable")]
    numbered = array[order]
    return order, numbered.tolist(), numbered


def _bitset(indices: Sequence[int], n: int) -> int:
    flags = np.zeros(n, dtype=bool)
    flags[np.asarray(indices, dtype=np.int64)] = True
    return _flag_set(flags)


def _flag_set(flags: np.ndarray) -> int:
    """The positions of the true flags as a bit set."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


@dataclass
class _Keys:
    """The merged track keys of `_merged_keys`: per key the options using it and per option its keys, as ints
    (`users`, `kmask`) and as rows of 64-bit words (`users_words`, `kmask_words`, for the compiled search)."""

    users: list[int]
    kmask: RowInts
    users_words: np.ndarray
    kmask_words: np.ndarray


def _merged_keys(masks: Sequence[int] | np.ndarray, n: int) -> _Keys:
    """Per merged key, the options using it (a bit set over options), and per option its merged
    keys (a small mask). Keys used by the same options are merged into one; keys used by a
    single option are dropped (they exclude nothing)."""
    columns = bit_columns(masks)  # key x option, packed
    columns = columns[holders(columns) > 1]
    first: dict[bytes, int] = {}
    for k, col in enumerate(columns):
        first.setdefault(col.tobytes(), k)
    keep = sorted(first.values())
    words = mask_words(columns[keep], n)
    return _Keys([row_int(columns[k]) for k in keep], RowInts(words), row_words(columns[keep], (n + 63) // 64), words)


class _Slots:
    """The train slots left, for options that several classes may run: option i fits the classes
    set in `fits[i]`. A set of options can be given trains iff, for every set T of classes, at most
    `counts` of T options fit only classes in T (Hall's condition); an option is closed once a T
    it fits within is full."""

    def __init__(self, fits: np.ndarray, counts: Sequence[int], full: int) -> None:
        self.within: dict[int, list[int]] = defaultdict(list)  # fit -> the sets T containing it
        distinct = set(np.unique(fits).tolist())
        # Hall's condition needs only the unions of fits; with one class per option, the classes alone
        sets = sorted(distinct) if all(f & (f - 1) == 0 for f in distinct) else _union_closure(distinct)
        self.room = {t: sum(counts[c] for c in range(len(counts)) if t >> c & 1) for t in sets}
        for f in distinct:
            self.within[f] = [t for t in sets if f & t == f]
        by_option = fits
        self.closes = {t: full ^ _flag_set((by_option & ~t) == 0) for t in sets}  # the options fitting within t
        self.used = dict.fromkeys(sets, 0)

    def take(self, fit: int, child: int) -> int:
        """Count an option of `fit` in and return `child` without the options that no longer fit."""
        for t in self.within[fit]:
            self.used[t] += 1
            if self.used[t] == self.room[t]:
                child &= self.closes[t]
        return child

    def give_back(self, fit: int) -> None:
        for t in self.within[fit]:
            self.used[t] -= 1


class _ClassTops:
    """A bound on what the trains left add, class by class: each class's trains left take its best open
    options (an option several classes may run counts for each of them), and the best `slots` of those
    count. A class's trains left are its count less the chosen options that fit it alone (those must run
    on it). With one class it is the plain bound (`active` False)."""

    def __init__(self, vals: Sequence[int], fits: np.ndarray, counts: Sequence[int]) -> None:
        self.vals = vals
        self.active = len(counts) > 1
        n = len(fits)
        by_option = fits
        # per class, the options it may run (None: every option)
        self.fitting: list[int | None] = []
        for c in range(len(counts) if self.active else 0):
            runs = np.flatnonzero((by_option >> c) & 1)
            self.fitting.append(None if len(runs) == n else _bitset(runs, n))
        self.left = list(counts)  # per class: its count less the chosen options that fit it alone
        self.alone = {1 << c: c for c in range(len(counts))}

    def take(self, fit: int) -> None:
        c = self.alone.get(fit)
        if c is not None:
            self.left[c] -= 1

    def give_back(self, fit: int) -> None:
        c = self.alone.get(fit)
        if c is not None:
            self.left[c] += 1

    def rest(self, open_: int, slots: int) -> int:
        """The most `slots` more options from `open_` may add, class by class."""
        vals = self.vals
        tops: list[int] = []
        for c, left in enumerate(self.left):
            if left <= 0:
                continue
            fitting = self.fitting[c]
            y = open_ if fitting is None else open_ & fitting
            for _ in range(min(left, slots)):
                if not y:
                    break
                k = y.bit_length() - 1
                tops.append(vals[k])
                y ^= 1 << k
        if len(tops) > slots:
            tops.sort(reverse=True)
            return sum(tops[:slots])
        return sum(tops)


def _union_closure(fits: set[int]) -> list[int]:
    """Every union of one or more of `fits` (bit sets)."""
    closure = set(fits)
    frontier = set(fits)
    while frontier:
        frontier = {a | b for a in frontier for b in fits} - closure
        closure |= frontier
    return sorted(closure)


def assign_trains(fits: Sequence[int], counts: Sequence[int]) -> list[int]:
    """A train class for each chosen option (fits: the classes it may run on, as bits), never more
    than `counts[c]` of class c: a maximum bipartite matching of options to train slots."""
    slots = [("slot", c, k) for c, cnt in enumerate(counts) for k in range(cnt)]
    graph = nx.Graph()
    graph.add_nodes_from(range(len(fits)))
    graph.add_nodes_from(slots)
    graph.add_edges_from((i, s) for i, f in enumerate(fits) for s in slots if f >> s[1] & 1)
    matching = nx.bipartite.maximum_matching(graph, top_nodes=range(len(fits)))
    if any(i not in matching for i in range(len(fits))):
        raise ValueError("the chosen options do not fit the trains")
    return [matching[i][1] for i in range(len(fits))]


def best_packing(values: Sequence[int], fits: Sequence[int], masks: Sequence[int] | np.ndarray,
                 counts: Sequence[int], lower: int = 0, deadline: float | None = None,
                 cancel: CancelToken | None = None, node_limit: int | None = None) -> PackResult:
    """The best set of options: option i earns `values[i]`, may run on the train classes set in
    `fits[i]` (bit c: class c) and occupies the keys set in `masks[i]` (two chosen options never
    share a key; ints, or an array of rows of 64-bit words). At most `counts[c]` trains of class c. Only
    packings worth more than `lower` are searched for (`chosen` None: none is); an option worth nothing or less
    is never chosen."""
    t0 = time.monotonic()
    if sum(counts) <= 0:  # no train: nothing runs
        return PackResult(chosen=[] if lower < 0 else None, value=max(lower, 0), finished=True,
                          stats={"bb_options": 0.0, "bb_keys": 0.0, "bb_nodes": 0.0, "bb_setup_ms": 0.0, "bb_ms": 0.0})
    # the best option is the highest bit; an option worth nothing or less never improves a packing (and the
    # bounds count the best options for every slot left, which holds for positive values only)
    order, vals, numbered = _by_value(values)
    n = len(order)
    fit_array = np.asarray(fits, dtype=np.int64)[order]
    fit = fit_array.tolist()
    keys = _merged_keys(masks[order] if isinstance(masks, np.ndarray) else [masks[i] for i in order.tolist()], n)
    users, kmask = keys.users, keys.kmask
    full = (1 << n) - 1
    closes = [full ^ u for u in users]  # AND with these: the options left open once a key is taken
    slots_left = _Slots(fit_array, counts, full)
    best_value, best_set = lower, None
    open_sets = OpenSets(closes, full, max(64, CACHE_BITS // max(1, n)))
    cache = open_sets.known  # key mask -> the options it leaves open (as a mask)
    chosen: list[int] = []
    all_slots = sum(counts)
    by_class = _ClassTops(vals, fit_array, counts)
    nodes = [0]
    stopped = [False]

    # a search that runs past KERNEL_FROM nodes is handed to the compiled kernel, which searches again from the
    # start (the same search: the same packing after the same nodes); the short ones cost less than handing over
    hand_over = [native_available()]

    def out_of_time() -> bool:
        if ((deadline is not None and time.monotonic() > deadline) or (cancel is not None and cancel.cancelled)
                or (node_limit is not None and nodes[0] > node_limit)):
            hand_over[0] = False
            return True
        return hand_over[0] and nodes[0] > KERNEL_FROM

    def left_open(j: int) -> int:
        """The options that share no key with option j."""
        return open_sets.left_open(kmask[j])

    within, used, room, closes_t = slots_left.within, slots_left.used, slots_left.room, slots_left.closes

    def last_but_one(fit_j: int) -> int:
        """With two trains left, what choosing an option of `fit_j` closes for the last one: the options
        of each class set it fills (no count changes: the last train's choice needs none)."""
        keep = full
        for t in within[fit_j]:
            if used[t] + 1 == room[t]:
                keep &= closes_t[t]
        return keep

    def search(open_: int, value: int, slots: int) -> None:
        nonlocal best_value, best_set
        if value > best_value:
            best_value, best_set = value, list(chosen)
        x = open_
        leaf_close: dict[int, int] = {}  # with two trains left: per fit, `last_but_one`
        while x:
            j = x.bit_length() - 1
            x ^= 1 << j  # positive masks only: Python's AND with a negative int is several times slower
            vj = vals[j]
            if slots == 1:  # the last train: the best open option is the best completion
                if value + vj > best_value:
                    best_value, best_set = value + vj, chosen + [j]
                break
            # the bound: no later option (worth less, with fewer open after it) does better
            if slots == 2:
                rest = vals[x.bit_length() - 1] if x else 0
            else:  # the best open option after j, and those numbered just below it (at the root: all open)
                t = x.bit_length()
                rest = sum(vals[max(0, t - slots + 1):t])
            if value + vj + rest <= best_value:
                break
            nodes[0] += 1
            if nodes[0] % CHECK_EVERY == 0 and out_of_time():
                stopped[0] = True
                return
            if slots == 2:  # one train after j: its best open option completes the packing (no call)
                fj = fit[j]
                close = leaf_close.get(fj)
                if close is None:
                    close = leaf_close[fj] = last_but_one(fj)
                keep = cache.get(kmask[j])  # `left_open`, inlined
                child = x & (keep if keep is not None else left_open(j))
                if close != full:
                    child &= close
                if value + vj > best_value:
                    best_value, best_set = value + vj, chosen + [j]
                if child:
                    k = child.bit_length() - 1
                    if value + vj + vals[k] > best_value:
                        best_value, best_set = value + vj + vals[k], chosen + [j, k]
                continue
            # at the root each option is tried once (nothing to cache), and the options below it are fewer
            child = open_sets.clear_of(kmask[j], x) if slots == all_slots else x & left_open(j)
            t = child.bit_length()  # the options open beside j: the best, and those numbered just below it
            if value + vj + sum(vals[max(0, t - slots + 1):t]) <= best_value:
                continue  # cannot complete a better packing
            child = slots_left.take(fit[j], child)
            by_class.take(fit[j])
            if by_class.active and value + vj + by_class.rest(child, slots - 1) <= best_value:
                by_class.give_back(fit[j])
                slots_left.give_back(fit[j])
                continue  # the trains left, class by class, cannot complete a better packing
            chosen.append(j)
            search(child, value + vj, slots - 1)
            chosen.pop()
            by_class.give_back(fit[j])
            slots_left.give_back(fit[j])
            if stopped[0]:
                return

    setup_ms = (time.monotonic() - t0) * 1000.0
    try:
        at_once = hand_over[0] and KERNEL_FROM == 0
        if not at_once:
            search(full, 0, all_slots)
        if at_once or (stopped[0] and hand_over[0]):
            found = native_search(vals if numbered is None else numbered, fit_array, keys, within, room,
                                  slots_left.closes, by_class.fitting, by_class.active, counts, lower, deadline,
                                  cancel, node_limit, CHECK_EVERY, CACHE_BITS)
            if found is not None and not (found.stopped and found.value < best_value):
                best_value, best_set, nodes[0], stopped[0] = found.value, found.chosen, found.nodes, found.stopped
            elif found is not None:  # stopped before it found what the Python search had: that packing stands
                nodes[0] = found.nodes
            else:  # the kernel ran out of memory: the Python search goes on from the start
                hand_over[0], best_value, best_set, nodes[0], stopped[0] = False, lower, None, 0, False
                search(full, 0, all_slots)
    finally:  # the recursive closures refer to themselves: break the cycles for reference counting
        search = None  # noqa: F841
    picked = [int(order[j]) for j in best_set] if best_set is not None else None
    stats = {"bb_options": float(n), "bb_keys": float(len(users)), "bb_nodes": float(nodes[0]), "bb_setup_ms": setup_ms,
             "bb_ms": (time.monotonic() - t0) * 1000.0}
    return PackResult(chosen=picked, value=best_value, finished=not stopped[0], stats=stats)


def packing_options(cands: Sequence[Candidate], groups: Sequence[str], merge: bool,
                    tag: Callable[[Candidate, int], Hashable] | None = None
                    ) -> tuple[list[Choice], list[int], list[int]]:
    """The options of the packing: per route and track group, one option for the train classes
    that earn the same on it (`merge`; else one per class) and, with `tag`, are tagged alike, as
    (route, first class), value, and the classes as bits."""
    found = cands.class_values() if isinstance(cands, PricedOnRead) and tag is None else None
    if found is not None:
        routes, classes, values, fits = _column_options(*found, groups, merge)
        return list(zip(routes.tolist(), classes.tolist())), values.tolist(), fits.tolist()
    options: list[Choice] = []
    values: list[int] = []
    fits: list[int] = []
    for r, totals in enumerate(candidate_totals(cands)):
        if len(totals) == 1:  # a route of one class (most, on boards of several classes): its one option
            for ci, v in totals.items():
                options.append((r, ci))
                values.append(v)
                fits.append(1 << ci)
            continue
        same: dict[tuple[str, int, Hashable], int] = {}  # (track group, value, tag) -> option index
        for ci, v in totals.items():
            key = (groups[ci], v, tag(cands[r], ci) if tag is not None else None)
            k = same.get(key) if merge else None
            if k is None:
                same[key] = len(options)
                options.append((r, ci))
                values.append(v)
                fits.append(1 << ci)
            else:
                fits[k] |= 1 << ci
    return options, values, fits


def _column_options(columns: np.ndarray, present: np.ndarray, groups: Sequence[str], merge: bool
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`packing_options` (untagged) from the values per class as arrays (`PricedOnRead.class_values`), as arrays:
    per option its route, its first class, its value and its classes as bits. A class opens an option on a route
    unless a class before it in the same track group earns the same there (`merge`), whose option then takes it
    in."""
    n_classes = len(columns)
    opens = present.copy()
    fit = np.zeros(columns.shape, dtype=np.int64)  # per opening class and route, the classes of its option
    for ci in range(n_classes):
        joins = present[ci].copy()  # class ci's routes not yet taken in by an option of a class before it
        for cj in range(ci) if merge else ():
            if groups[cj] == groups[ci]:
                same = joins & opens[cj] & (columns[cj] == columns[ci])
                fit[cj, same] |= 1 << ci
                joins &= ~same
        opens[ci] = joins
        fit[ci, joins] |= 1 << ci
    routes, classes = np.nonzero(opens.T)  # by route, then class: the order the routes' classes are listed in
    return routes, classes, columns[classes, routes], fit[classes, routes]


def option_keys(cands: Sequence[Candidate], options: Sequence[Choice], groups: Sequence[str]) -> list[int]:
    """Per option (route, class), the keys it occupies (two chosen options never share one): its track
    within its class's track group, or for a route without track, the route itself once per group."""
    group_no = {g: k for k, g in enumerate(sorted(set(groups)))}
    masks = candidate_masks(cands)
    width = max((m.bit_length() for m in masks), default=0)
    shift = [group_no[groups[ci]] * width for ci in range(len(groups))]  # track groups on separate keys
    spare = len(group_no) * width  # keys after the track: a route without track, once per group
    trackless = {r: k for k, r in enumerate(r for r, m in enumerate(masks) if not m)}
    return [masks[r] << shift[ci] if masks[r] else
            1 << (spare + trackless[r] * len(group_no) + group_no[groups[ci]]) for r, ci in options]


def _option_rows(cands: Sequence[Candidate], routes: np.ndarray, groups: Sequence[str]) -> np.ndarray | None:
    """`option_keys` of the options on these routes as rows of 64-bit words, where every class shares one track
    group and every route has track (each option's keys its route's track) and the candidates' tracks are rows
    already (`PricedOnRead.mask_rows`); else None."""
    rows = cands.mask_rows() if isinstance(cands, PricedOnRead) and len(set(groups)) == 1 else None
    if rows is None or not rows.any(axis=1).all():
        return None
    return rows[routes]


def _options_read(cands: Sequence[Candidate], groups: Sequence[str], merge: bool
                  ) -> tuple[Sequence[Choice], np.ndarray, Sequence[int], Sequence[int]]:
    """`packing_options` (untagged), with each option's route as an array; read from the values per class as
    arrays where the candidates have them (`PricedOnRead.class_values`): then the values and fits are arrays and
    the options are made only when their keys are (`option_keys`), or for the chosen ones."""
    found = cands.class_values() if isinstance(cands, PricedOnRead) else None
    if found is None:
        options, values, fits = packing_options(cands, groups, merge)
        return options, np.fromiter(map(itemgetter(0), options), dtype=np.int64, count=len(options)), values, fits
    routes, classes, values, fits = _column_options(*found, groups, merge)
    return _Choices(routes, classes), routes, values, fits


class _Choices(Sequence[Choice]):
    """The options (route, first class) of `_options_read` held as arrays, each made when read."""

    def __init__(self, routes: np.ndarray, classes: np.ndarray) -> None:
        self.routes, self.classes = routes, classes

    def __len__(self) -> int:
        return len(self.routes)

    def __getitem__(self, i: int) -> Choice:  # type: ignore[override]
        return int(self.routes[i]), int(self.classes[i])

    def __iter__(self) -> Iterator[Choice]:
        return zip(self.routes.tolist(), self.classes.tolist())


def exact_packing(cands: Sequence[Candidate], counts: Sequence[int], groups: Sequence[str], lower: int,
                  lower_pack: list[Choice], deadline: float, cancel: CancelToken | None = None,
                  ) -> Packing:
    """The plain packing of candidates by `best_packing`: OPTIMAL with
    the best choices when it finished, else UNKNOWN with the best packing found (at least
    `lower_pack`, worth `lower`) and no bound."""
    options, routes, values, fits = _options_read(cands, groups, merge=len(counts) <= MERGE_CLASSES)
    keys = _option_rows(cands, routes, groups)
    result = best_packing(values, fits, keys if keys is not None else option_keys(cands, options, groups), counts,
                          lower, deadline, cancel)
    chosen = lower_pack
    if result.chosen is not None:
        classes = assign_trains([int(fits[i]) for i in result.chosen], counts)
        chosen = [(options[i][0], ci) for i, ci in zip(result.chosen, classes, strict=True)]
    if result.finished:
        return Packing(Status.OPTIMAL, chosen, max(result.value, lower), result.stats)
    return Packing(Status.UNKNOWN, chosen, None, result.stats)
