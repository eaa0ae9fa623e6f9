"""The order of an 1873 run's routes, which decides who is paid where.

City and factory money of a hex go to the first route (of its kind) that stops there; a mine
pays the first of the largest trains there. For a chosen set of routes, the best order is found
by choosing, in every contested hex, which visitor comes first, keeping only choices that some
order satisfies (an acyclic precedence graph), and pricing each with the rules' own revenue.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import product

from solver.model.board import Board
from solver.rulesets.r_1873.rules import ResolvedRoute, run_revenue
from solver.rulesets.r_1873.view import Harzbahn

MAX_COMBINATIONS = 4096


def _topological(n: int, edges: set[tuple[int, int]]) -> list[int] | None:
    """An order of 0..n-1 with a before b for every edge (a, b), or None when there is a cycle."""
    preds = defaultdict(set)
    for a, b in edges:
        preds[b].add(a)
    order: list[int] = []
    left = list(range(n))
    while left:
        ready = next((i for i in left if not (preds[i] - set(order))), None)
        if ready is None:
            return None
        order.append(ready)
        left.remove(ready)
    return order


def _signature(board: Board, route: ResolvedRoute, hex_id: str) -> tuple:
    """What decides a route's earnings in a hex if it comes first: its stops there, blocked or not."""
    return tuple(sorted((n, board.nodes[n].blocks) for n in route.nodes if board.nodes[n].hex == hex_id))


def best_order(board: Board, ctx: Harzbahn, routes: Sequence[ResolvedRoute]) -> tuple[int, list[int], bool]:
    """The best revenue over route orders, an order that earns it, and whether the search was
    exhaustive (False only when the contested hexes have too many combinations)."""
    nodes = board.nodes
    choices: list[list[set[tuple[int, int]]]] = []  # per contested hex: alternative precedence sets
    for diesel in (False, True):
        visitors: dict[str, list[int]] = defaultdict(list)
        for i, r in enumerate(routes):
            if r.diesel == diesel:
                for h in dict.fromkeys(nodes[n].hex for n in r.nodes):
                    visitors[h].append(i)
        for h, who in visitors.items():
            if len(who) < 2:
                continue
            if len({_signature(board, routes[i], h) for i in who}) > 1:
                choices.append([{(w, o) for o in who if o != w} for w in who])
            if diesel or h not in ctx.mine_multiplier:
                continue
            top = max(routes[i].distance for i in who)
            tops = [i for i in who if routes[i].distance == top]
            if len({_signature(board, routes[i], h) for i in tops}) > 1:
                choices.append([{(w, o) for o in tops if o != w} for w in tops])
    total = 1
    for c in choices:
        total *= len(c)
    exhaustive = total <= MAX_COMBINATIONS
    options = product(*choices) if exhaustive else [tuple(c[0] for c in choices)]
    best_value, best = -1, list(range(len(routes)))
    seen: set[tuple[int, ...]] = set()
    for combo in options:
        edges = set().union(*combo) if combo else set()
        order = _topological(len(routes), edges)
        if order is None or tuple(order) in seen:
            continue
        seen.add(tuple(order))
        value = sum(sum(v) for v in run_revenue(board, ctx, [routes[i] for i in order]))
        if value > best_value:
            best_value, best = value, order
    if best_value < 0:  # only when the single heuristic combination has a cycle
        best = list(range(len(routes)))
        best_value = sum(sum(v) for v in run_revenue(board, ctx, list(routes)))
    return best_value, best, exhaustive
