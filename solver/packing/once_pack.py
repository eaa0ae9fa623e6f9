"""An exact branch and bound for runs in which a stop pays once (`StopPaysOnce`, and no other run rule).

A run's value is then not the sum of its routes' values: a pay unit (a stop, or the stops of one
revenue group) that several chosen routes count pays once. With `units` (node -> (pay unit, what it
pays), `RunTerms.units`), a chosen set S of options (route, class) earns

    value(S) = sum over S of (the option's value - what its own stops pay) + what the units S counts pay

which is `RunTerms.value` for such a board. When no unit pays less than nothing, the value is
submodular: what an option adds to S (its "gain": the rest of its value plus the units it counts
that S does not) only shrinks as S grows. So two things bound every run that extends S by at most
k options: value(S) plus the k best gains with respect to S, and value(S) plus the k best rests and
every unit not yet counted that some option still open counts.

A greedy run (the largest gain first) is the first floor. Every set is visited once, as an
increasing sequence of places in the order of the options' values alone; at each search node the
open options are tried most promising first. For the last train, the options are read best value
alone first, each gain worked out only while that value could still beat the best run. On the tram
boards that meet this rule (1877 Stockholm Tramways: two to four trains, a few dozen routes after
the pruning) the search mostly takes well under a millisecond where CP-SAT takes a few. Where routes
overlap so much that the bounds stay loose, CP-SAT's relaxation does better: a search that has
looked at SCAN_LIMIT options stops, and CP-SAT starts from the best run it found.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from solver.model.cancel import CancelToken
from solver.model.results import Status
from solver.modifiers.packing_terms import RunTerms, own_stop_pay, units_paid
from solver.packing.outcome import Choice, Packing
from solver.packing.setpack import option_keys
from solver.routes.pricing import Candidate

CHECK_EVERY = 64  # search nodes between looks at the clock and the cancel token
SCAN_LIMIT = 10_000  # options looked at in all (about 10 ms) before CP-SAT, which bounds such runs better, takes over


def once_search_fits(terms: RunTerms | None) -> bool:
    """Whether `once_packing` prices this board's runs exactly: StopPaysOnce is its only run rule and
    no unit pays less than nothing (else the value is not submodular and its bound would not hold)."""
    return (terms is not None and terms.units is not None and not (terms.best or terms.required or terms.set_rules)
            and terms.drop_at is None and all(v >= 0 for _u, v in terms.units.values()))


def once_packing(cands: Sequence[Candidate], counts: Sequence[int], groups: Sequence[str],
                 units: dict[str, tuple[str, int]], lower: int, lower_pack: list[Choice], deadline: float,
                 cancel: CancelToken | None = None) -> Packing:
    """The best run of the candidates when a stop pays once (see the module; `once_search_fits` says
    when): OPTIMAL with the best choices (`lower_pack`, worth `lower`, when nothing beats it) and that
    value as the bound; UNKNOWN with the best run found and no bound when the deadline, `cancel` or
    `SCAN_LIMIT` stops it (at once for more options than that)."""
    t0 = time.monotonic()
    many = sum(len(c.revenue) for c in cands)
    if many > SCAN_LIMIT:  # the first search node alone would look at more
        return Packing(Status.UNKNOWN, lower_pack, None, {"bb_options": float(many)})
    unit_no: dict[str, int] = {}
    options: list[Choice] = []
    rest: list[int] = []  # per option: its value beside what its own stops pay
    pays: list[list[tuple[int, int]]] = []  # per option: its distinct units, as (bit, what it pays)
    for r, cand in enumerate(cands):
        counted = units_paid(units, cand.nodes)
        unit_pay = [(1 << unit_no.setdefault(u, len(unit_no)), v) for u, v in sorted(counted.items()) if v]
        for ci, stops in cand.revenue.items():
            options.append((r, ci))
            rest.append(sum(stops) - own_stop_pay(cand, ci))
            pays.append(unit_pay)
    alone = [rest[j] + sum(v for _b, v in pays[j]) for j in range(len(options))]
    keys_of = option_keys(cands, options, groups)
    order = sorted((j for j in range(len(options)) if alone[j] > 0), key=lambda j: -alone[j])  # stable
    n = len(order)
    klass = [options[j][1] for j in order]
    keys = [keys_of[j] for j in order]
    rest_at = [rest[j] for j in order]
    alone_at = [alone[j] for j in order]
    pays_at = [pays[j] for j in order]
    units_at = [sum(bit for bit, _v in p) for p in pays_at]  # per option, its units (distinct bits) as one mask
    left = list(counts)
    unit_value = {bit: v for p in pays_at for bit, v in p}

    def gain_of(i: int, covered: int) -> int:
        """What option i adds to a run that counts the units `covered`."""
        return rest_at[i] + sum(v for bit, v in pays_at[i] if not covered & bit)

    def greedy_run() -> tuple[int, list[int]]:
        """A legal run taken greedily, the option that adds the most first: its value and its places."""
        room = list(counts)
        covered = used = value = 0
        run: list[int] = []
        while True:
            top, top_i = 0, -1
            for i in range(n):
                if keys[i] & used or not room[klass[i]]:
                    continue
                gain = gain_of(i, covered)
                if gain > top:
                    top, top_i = gain, i
            if top_i < 0:
                return value, sorted(run)
            run.append(top_i)
            value += top
            room[klass[top_i]] -= 1
            used |= keys[top_i]
            covered |= units_at[top_i]

    def _union_bound(open_: list[tuple[int, int]], slots: int, covered: int) -> int:
        """At most what `slots` more options add: the best `slots` rests and every unit they may count."""
        reach = 0
        for i, _g in open_:
            reach |= units_at[i]
        reach &= ~covered
        return sum(sorted((max(0, rest_at[i]) for i, _g in open_), reverse=True)[:slots]) + \
            sum(v for bit, v in unit_value.items() if reach & bit)

    best_value, best_set = lower, None
    seed_value, seed = greedy_run()
    if seed_value > best_value:
        best_value, best_set = seed_value, seed
    chosen: list[int] = []
    nodes = 0
    scanned = 0
    stopped = False

    def last(start: int, value: int, covered: int, used: int) -> None:
        """The last train: the option that adds the most, looked for best value alone first, until an
        option's value alone (at least its gain) cannot beat the best run."""
        nonlocal best_value, best_set, scanned, stopped
        if scanned > SCAN_LIMIT:
            stopped = True
            return
        for i in range(start, n):
            if value + alone_at[i] <= best_value:
                break
            scanned += 1
            if keys[i] & used or not left[klass[i]]:
                continue
            gain = gain_of(i, covered)
            if value + gain > best_value:
                best_value, best_set = value + gain, [*chosen, i]

    def search(start: int, value: int, covered: int, used: int, slots: int) -> None:
        nonlocal best_value, best_set, nodes, stopped, scanned
        if slots == 1:
            last(start, value, covered, used)
            return
        scanned += n - start
        if scanned > SCAN_LIMIT:
            stopped = True
            return
        # what each option still open adds to this run (its gain), in place order
        open_: list[tuple[int, int]] = []
        for i in range(start, n):
            if keys[i] & used or not left[klass[i]]:
                continue
            gain = gain_of(i, covered)
            if gain > 0:
                open_.append((i, gain))
        # per entry, the most the best `slots - 1` gains after it add (gains only shrink as the run grows)
        after = [0] * len(open_)
        tops: list[int] = []
        for k in range(len(open_) - 1, -1, -1):
            after[k] = sum(tops)
            tops = sorted((*tops, open_[k][1]), reverse=True)[:slots - 1]
        if value + sum(sorted((g for _i, g in open_), reverse=True)[:slots]) <= best_value or \
                value + _union_bound(open_, slots, covered) <= best_value:
            return  # no run from here beats the best
        # every set once (the child takes places after i), the most promising first
        for bound, k in sorted(((gain + after[k], k) for k, (_i, gain) in enumerate(open_)), reverse=True):
            if value + bound <= best_value:
                return
            i, gain = open_[k]
            nodes += 1
            if nodes % CHECK_EVERY == 0 and ((time.monotonic() > deadline) or
                                             (cancel is not None and cancel.cancelled)):
                stopped = True
                return
            chosen.append(i)
            if value + gain > best_value:
                best_value, best_set = value + gain, list(chosen)
            if k + 1 < len(open_):
                left[klass[i]] -= 1
                search(i + 1, value + gain, covered | units_at[i], used | keys[i], slots - 1)
                left[klass[i]] += 1
            chosen.pop()
            if stopped:
                return

    search(0, 0, 0, 0, sum(counts))
    picked = lower_pack if best_set is None else [options[order[i]] for i in best_set]
    stats = {"bb_options": float(n), "bb_nodes": float(nodes), "bb_scanned": float(scanned),
             "bb_ms": (time.monotonic() - t0) * 1000.0}
    if stopped:
        return Packing(Status.UNKNOWN, picked, None, stats)
    return Packing(Status.OPTIMAL, picked, best_value, stats)

