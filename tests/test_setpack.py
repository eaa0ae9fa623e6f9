"""The exact branch and bound of the plain packing against brute force on random instances,
and its stops (deadline, node limit, cancel) reported as unfinished."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from solver.cancel import CancelToken
from solver.setpack import best_packing


def _brute(values, classes, keys, counts) -> int:
    best = 0
    n = len(values)
    for size in range(1, sum(counts) + 1):
        for combo in itertools.combinations(range(n), size):
            used: set = set()
            ok = True
            per: dict[int, int] = {}
            for i in combo:
                per[classes[i]] = per.get(classes[i], 0) + 1
                if per[classes[i]] > counts[classes[i]] or used & set(keys[i]):
                    ok = False
                    break
                used |= set(keys[i])
            if ok:
                best = max(best, sum(values[i] for i in combo))
    return best


def _instance(rng: random.Random, n: int, n_keys: int, n_classes: int):
    values = [rng.randint(0, 60) for _ in range(n)]
    classes = [rng.randrange(n_classes) for _ in range(n)]
    keys = [rng.sample(range(n_keys), rng.randint(1, min(4, n_keys))) for _ in range(n)]
    counts = [rng.randint(1, 2) for _ in range(n_classes)]
    return values, classes, keys, counts


@pytest.mark.parametrize("seed", range(60))
def test_best_packing_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    values, classes, keys, counts = _instance(rng, rng.randint(1, 14), rng.randint(3, 12), rng.randint(1, 3))
    expected = _brute(values, classes, keys, counts)
    result = best_packing(values, classes, [sum(1 << k for k in ks) for ks in keys], counts)
    assert result.finished
    assert result.value == expected
    chosen = result.chosen or []
    assert sum(values[i] for i in chosen) == expected
    taken = [k for i in chosen for k in keys[i]]
    assert len(taken) == len(set(taken))  # no key twice
    for c, limit in enumerate(counts):
        assert sum(classes[i] == c for i in chosen) <= limit


def test_lower_bound_not_beaten_gives_no_choice() -> None:
    values, classes, keys, counts = [5, 4, 3], [0, 0, 0], [0b01, 0b01, 0b10], [2]
    assert best_packing(values, classes, keys, counts).value == 8
    result = best_packing(values, classes, keys, counts, lower=8)
    assert result.finished and result.chosen is None and result.value == 8


def _big(rng: random.Random):
    n = 3000
    values = [rng.randint(1, 1000) for _ in range(n)]
    keys = [sum(1 << k for k in rng.sample(range(40), 6)) for _ in range(n)]
    return values, [0] * n, keys, [6]


def test_stops_at_node_limit_deadline_and_cancel() -> None:
    values, classes, keys, counts = _big(random.Random(1))
    assert not best_packing(values, classes, keys, counts, node_limit=100).finished
    assert not best_packing(values, classes, keys, counts, deadline=time.monotonic() - 1).finished
    token = CancelToken()
    token.cancel()
    result = best_packing(values, classes, keys, counts, cancel=token)
    assert not result.finished
    assert result.chosen  # the best packing found so far is still given
