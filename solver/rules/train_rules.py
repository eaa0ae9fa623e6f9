"""What a train may run and what it earns: distance by unit, stop revenue, best-paying subsets.

These functions are the single definition of the train kinds; the evaluator and the optimiser's
candidate generator both call them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from solver.model.board import Board, DistanceRow, Node, Train
from solver.model.limits import MAX_SUBSET_SEARCH


def serves(train: Train, node: Node) -> bool:
    """Whether the train serves this stop: a classed train (1871sc freight or passenger) passes
    the other class's stops, which neither count nor pay for it."""
    return not (train.klass and node.klass and node.klass != train.klass)


def has_token_for(train: Train, node: Node) -> bool:
    """Whether the node holds a company station this train may count (of its class, if classed)."""
    if not node.tokened_by_company:
        return False
    return not (train.klass and node.token_class and node.token_class != train.klass)


def stop_revenue(node: Node, train: Train, row: DistanceRow | None = None) -> int:
    """A stop's revenue for this train: `revenue_by_train[name]` (which already includes any
    multiplier), else the node's revenue times the train's (and row's) multiplier; 0 for a stop
    of the other class."""
    if not serves(train, node):
        return 0
    if train.name in node.revenue_by_train:
        return node.revenue_by_train[train.name]
    mult = train.multiplier * (row.multiplier if row else 1)
    return node.revenue * mult


def pour_fits(rows: Sequence[DistanceRow], nodes: Sequence[Node]) -> bool:
    """Length check of a list-distance train: pour each kind's visit cost into the rows accepting it."""
    by_kind: dict[str, int] = {}
    for n in nodes:
        by_kind[n.kind] = by_kind.get(n.kind, 0) + n.visit_cost
    return pour_fits_costs(rows, by_kind)


def pour_fits_costs(rows: Sequence[DistanceRow], by_kind: dict[str, int]) -> bool:
    """`pour_fits` on the visit cost per node kind: kinds accepted by fewer rows are poured first."""
    capacity = [r.visit for r in rows]
    accepting = {k: [i for i, r in enumerate(rows) if k in r.kinds] for k in by_kind}
    for kind in sorted(by_kind, key=lambda k: len(accepting[k])):
        left = by_kind[kind]
        for i in accepting[kind]:
            if left == 0:
                break
            take = min(left, capacity[i])
            capacity[i] -= take
            left -= take
        if left > 0:
            return False
    return True


def within_distance(train: Train, nodes: Sequence[Node], crossings: int, cost: int | None = None) -> bool:
    """Whether a route over `nodes` crossing `crossings` hex boundaries fits the train's distance.
    `cost`, when given, is the precomputed sum of the nodes' visit costs (ignored for a classed
    train, which does not count the other class's stops)."""
    if train.unit in ("none", "express", "flood"):
        return True
    if train.unit == "hexes":
        return crossings <= train.distance
    if train.klass:
        nodes = [n for n in nodes if serves(train, n)]
        cost = None
    if train.unit == "stops_by_type":
        return pour_fits(train.rows, nodes)
    return (sum(n.visit_cost for n in nodes) if cost is None else cost) <= train.distance


def _row_of(rows: Sequence[DistanceRow], kind: str, used: list[int]) -> int | None:
    for i, r in enumerate(rows):
        if kind in r.kinds and used[i] < r.pay:
            return i
    return None


def searchable_stops(train: Train, nodes: Sequence[Node], rows: Sequence[DistanceRow]) -> list[int] | None:
    """The indices of the stops a paying subset may hold: each node once (its first visit), of a kind
    some row accepts; None when no subset can hold the company's token. Dropping the others changes
    neither the subsets that fit nor their order, so a search over these is exact and never
    exponential in repeated or unpayable stops."""
    seen: set[str] = set()
    out = []
    for i, n in enumerate(nodes):
        if n.id not in seen and any(n.kind in r.kinds for r in rows):
            seen.add(n.id)
            out.append(i)
    if train.requires_token and not any(has_token_for(train, nodes[i]) for i in out):
        return None
    return out


def _paying_greedy(train: Train, nodes: Sequence[Node], rows: Sequence[DistanceRow]) -> list[tuple[Node, int]]:
    """A bounded stand-in for the search on a route too long to search (no real train runs one):
    the best-paying stops first (each at its pay in the first row taking its kind), each into the first row
    with room, and of those the most, from the best, that earn something together. Where rows share no
    kind, or one row's kinds hold the other's at one multiplier, the first s so taken are the best s stops
    that fit, so that is the largest set that earns something (a stop paying less than nothing is left out
    with those after it); the company's token is not sought."""
    first_row = {k: r for r in reversed(rows) for k in r.kinds}
    used = [0] * len(rows)
    paid: list[tuple[Node, int]] = []
    for n in sorted(nodes, key=lambda n: -stop_revenue(n, train, first_row.get(n.kind))):
        i = _row_of(rows, n.kind, used)
        if i is not None:
            used[i] += 1
            paid.append((n, stop_revenue(n, train, rows[i])))
    running, size = 0, 0
    for i, (_n, v) in enumerate(paid):
        running += v
        if running > 0:
            size = i + 1
    paid = paid[:size]
    if train.requires_token and not any(has_token_for(train, n) for n, _ in paid):
        return []
    return paid


def _paying_by_search(train: Train, nodes: Sequence[Node], rows: Sequence[DistanceRow]) -> list[tuple[Node, int]]:
    """The engine's rule: the largest subset with positive revenue, best revenue among that size
    (examining at most MAX_SUBSET_SEARCH subsets, else `_paying_greedy`)."""
    keep = searchable_stops(train, nodes, rows)
    if keep is None:
        return []
    nodes = [nodes[i] for i in keep]
    budget = MAX_SUBSET_SEARCH
    top = min(sum(r.pay for r in rows), len(nodes))
    for size in range(top, 0, -1):
        best: list[tuple[Node, int]] | None = None
        best_rev = -1
        for combo in combinations(nodes, size):
            budget -= 1
            if budget < 0:
                return _paying_greedy(train, nodes, rows)
            if train.requires_token and not any(has_token_for(train, n) for n in combo):
                continue
            used = [0] * len(rows)
            paid: list[tuple[Node, int]] = []
            for n in combo:
                i = _row_of(rows, n.kind, used)
                if i is None:
                    break
                used[i] += 1
                paid.append((n, stop_revenue(n, train, rows[i])))
            else:
                rev = sum(v for _, v in paid)
                if rev > best_rev:
                    best, best_rev = paid, rev
        if best is not None and best_rev > 0:
            return best
    return []


def _paying_disjoint(train: Train, nodes: Sequence[Node], rows: Sequence[DistanceRow],
                     bonus: Callable[[Node, int], int] | None = None, swap: bool = True) -> list[tuple[Node, int]]:
    """Exact shortcut when no kind is accepted by two rows: the best `pay` nodes of each row. With
    `bonus` (what a stop adds to the route beside its pay, when that depends on the stop alone) the
    nodes are ranked by pay plus bonus; the pays returned are the stops' own. When none of them holds
    the company's token (and the train needs one), the best stop with a token is swapped in; with
    `swap` False, no stop is: [] instead."""
    def worth(entry: tuple[Node, int]) -> int:
        return entry[1] + bonus(entry[0], entry[1]) if bonus is not None else entry[1]

    chosen: list[tuple[Node, int]] = []
    best_token_swap: tuple[int, int, tuple[Node, int]] | None = None  # (gain, row, entry)
    per_row: list[list[tuple[Node, int]]] = []
    for r in rows:
        cands = sorted(((n, stop_revenue(n, train, r)) for n in nodes if n.kind in r.kinds),
                       key=lambda e: -worth(e))
        per_row.append(cands)
        chosen.extend(cands[: r.pay])
    if not chosen:
        return []
    if train.requires_token and not any(has_token_for(train, n) for n, _ in chosen):
        if not swap:
            return []
        for i, (r, cands) in enumerate(zip(rows, per_row)):
            if r.pay == 0:
                continue
            for entry in cands[r.pay:]:
                if has_token_for(train, entry[0]):
                    gain = worth(entry) - worth(cands[r.pay - 1])
                    if best_token_swap is None or gain > best_token_swap[0]:
                        best_token_swap = (gain, i, entry)
                    break
        if best_token_swap is None:
            return []
        _, i, entry = best_token_swap
        drop = per_row[i][rows[i].pay - 1]
        chosen = [e for e in chosen if e is not drop] + [entry]
    if sum(worth(e) for e in chosen) <= 0:
        return []
    return chosen


def paying_disjoint(train: Train, nodes: Sequence[Node], bonus: Callable[[Node, int], int], swap: bool = True
                    ) -> list[tuple[Node, int]] | None:
    """A list train's paying stops when each stop's worth is its pay plus `bonus` and no kind fits
    two rows (then the best stops of each row are the engine's choice); None when kinds share rows.
    `swap` False: [] where a stop would have to be swapped in for the company's token."""
    rows = sorted(train.rows, key=lambda r: len(r.kinds))
    kinds = [k for r in rows for k in r.kinds]
    if len(kinds) != len(set(kinds)):
        return None
    return _paying_disjoint(train, nodes, rows, bonus, swap)


def _paying_express(train: Train, nodes: Sequence[Node]) -> list[tuple[Node, int]]:
    """An express train pays only its best `distance` stops, or with `by_hex` its best hexes
    (a hex earns what its stops on the route earn together)."""
    values = [(n, stop_revenue(n, train)) for n in nodes]
    if not train.by_hex:
        return sorted(values, key=lambda e: -e[1])[: train.distance]
    by_hex: dict[str, list[tuple[Node, int]]] = {}
    for n, v in values:
        by_hex.setdefault(n.hex, []).append((n, v))
    best = sorted(by_hex.values(), key=lambda group: -sum(v for _, v in group))[: train.distance]
    return [e for group in best for e in group]


def list_pays_every_stop(train: Train, nodes: Iterable[Node]) -> bool:
    """Whether a list-distance train pays every stop of any route it may run over these nodes: every
    row pays as many stops as it visits, no stop visits free, none pays less than nothing, and each
    stop has one row that takes it, or two nested rows that pay it the same (`_nested_rows`). Then its
    paying stops are the whole route whenever the route earns anything (the largest paying subset is
    the route itself)."""
    if train.unit != "stops_by_type" or train.klass or train.local:
        return False
    kinds = [k for r in train.rows for k in r.kinds]
    if (len(kinds) != len(set(kinds)) and not _nested_rows(train.rows)) or any(r.pay < r.visit for r in train.rows):
        return False
    row_of = row_by_kind(train)
    return all(n.visit_cost >= 1 and (n.kind not in row_of or stop_revenue(n, train, row_of[n.kind]) >= 0)
               for n in nodes if n.kind != "junction")


def _nested_rows(rows: Sequence[DistanceRow]) -> bool:
    """Two rows, one taking some of the other's kinds, at one multiplier (1837's 3+1, 1847 AE's n+n: towns
    in both rows). With each row paying what it visits, a route that passes the length check pays every
    stop: the kinds of the large row alone fill at most its visits (they are poured first), all its stops
    at most both rows' visits, and the paying stops' first fit puts the shared kinds in the small row
    (fewer kinds, so taken first) until it is full and the rest in the large one, no more than it visits."""
    if len(rows) != 2 or rows[0].multiplier != rows[1].multiplier:
        return False
    small, large = sorted((set(r.kinds) for r in rows), key=len)
    return small < large


def row_by_kind(train: Train) -> dict[str, DistanceRow]:
    """Each node kind's first row of a list-distance train."""
    out: dict[str, DistanceRow] = {}
    for r in reversed(train.rows):
        out.update((k, r) for k in r.kinds)
    return out


def paying_stops(train: Train, nodes: Sequence[Node]) -> list[tuple[Node, int]]:
    """The stops that pay for this train, with what each pays."""
    if train.unit == "express":
        return _paying_express(train, nodes)
    if train.unit != "stops_by_type":
        return [(n, stop_revenue(n, train)) for n in nodes]
    rows = sorted(train.rows, key=lambda r: len(r.kinds))
    kinds = [k for r in rows for k in r.kinds]
    if len(kinds) == len(set(kinds)):
        found = _paying_disjoint(train, nodes, rows)
        # the best stops of each row are the best set of the largest size; where it earns nothing or less, only
        # a stop paying less than nothing can leave a smaller set that earns something: the search looks there
        if found or all(stop_revenue(n, train, r) >= 0 for r in rows for n in nodes if n.kind in r.kinds):
            return found
    return _paying_by_search(train, nodes, rows)


def route_stop_revenues(board: Board, train: Train, node_ids: Sequence[str]) -> list[int]:
    """Revenue of each stop of the route, in route order (0 for stops that do not pay)."""
    nodes = [board.nodes[n] for n in node_ids]
    paid = {id(n): v for n, v in paying_stops(train, nodes)}
    return [paid.get(id(n), 0) for n in nodes]
