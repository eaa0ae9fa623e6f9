"""The exact branch and bound of the plain packing against brute force on random instances,
and its stops (deadline, node limit, cancel) reported as unfinished."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from solver.model.cancel import CancelToken
from solver.packing.setpack import assign_trains, best_packing


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
    result = best_packing(values, [1 << c for c in classes], [sum(1 << k for k in ks) for ks in keys], counts)
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
    fits = [1 << c for c in classes]
    assert best_packing(values, fits, keys, counts).value == 8
    result = best_packing(values, fits, keys, counts, lower=8)
    assert result.finished and result.chosen is None and result.value == 8


def _big(rng: random.Random):
    n = 3000
    values = [rng.randint(1, 1000) for _ in range(n)]
    keys = [sum(1 << k for k in rng.sample(range(40), 6)) for _ in range(n)]
    return values, [1] * n, keys, [6]


def test_stops_at_node_limit_deadline_and_cancel() -> None:
    values, classes, keys, counts = _big(random.Random(1))
    assert not best_packing(values, classes, keys, counts, node_limit=100).finished
    assert not best_packing(values, classes, keys, counts, deadline=time.monotonic() - 1).finished
    token = CancelToken()
    token.cancel()
    result = best_packing(values, classes, keys, counts, cancel=token)
    assert not result.finished
    assert result.chosen  # the best packing found so far is still given


def _brute_fits(values, fits, keys, counts) -> int:
    """The best packing by brute force, each option on a train class it fits (by trying every
    assignment of classes)."""
    best = 0
    n = len(values)
    for size in range(1, sum(counts) + 1):
        for combo in itertools.combinations(range(n), size):
            taken = [k for i in combo for k in keys[i]]
            if len(taken) != len(set(taken)):
                continue
            options = [[c for c in range(len(counts)) if fits[i] >> c & 1] for i in combo]
            if any(all(a.count(c) <= counts[c] for c in range(len(counts))) for a in itertools.product(*options)):
                best = max(best, sum(values[i] for i in combo))
    return best


@pytest.mark.parametrize("seed", range(60))
def test_options_fitting_several_classes_match_brute_force(seed: int) -> None:
    """Options that several train classes may run (a route a 5 and a D both run for the same
    revenue) are one option: the search keeps Hall's condition, and the trains assigned after it
    respect the counts."""
    rng = random.Random(1000 + seed)
    n_classes = rng.randint(1, 3)
    values, _, keys, counts = _instance(rng, rng.randint(1, 12), rng.randint(3, 10), n_classes)
    fits = [rng.randint(1, (1 << n_classes) - 1) for _ in values]
    expected = _brute_fits(values, fits, keys, counts)
    result = best_packing(values, fits, [sum(1 << k for k in ks) for ks in keys], counts)
    assert result.finished and result.value == expected
    chosen = result.chosen or []
    assert sum(values[i] for i in chosen) == expected
    classes = assign_trains([fits[i] for i in chosen], counts)
    assert all(fits[i] >> c & 1 for i, c in zip(chosen, classes, strict=True))
    assert all(classes.count(c) <= counts[c] for c in range(n_classes))


@pytest.mark.parametrize("seed", range(30))
def test_routes_of_many_track_keys_match_brute_force(seed: int) -> None:
    """Options of up to a dozen keys out of dozens (late-game routes): the search reads the keys a
    group at a time (`open_sets`), and with three or four trains it bounds each option by those open
    beside it before going deeper."""
    rng = random.Random(7000 + seed)
    n, n_keys = rng.randint(6, 13), rng.randint(20, 70)
    values = [rng.randint(1, 60) for _ in range(n)]
    keys = [rng.sample(range(n_keys), rng.randint(1, 12)) for _ in range(n)]
    fits = [rng.randint(1, 3) for _ in range(n)]
    counts = [rng.randint(1, 2), rng.randint(1, 2)]
    expected = _brute_fits(values, fits, keys, counts)
    result = best_packing(values, fits, [sum(1 << k for k in ks) for ks in keys], counts)
    assert result.finished and result.value == expected
    chosen = result.chosen or []
    assert sum(values[i] for i in chosen) == expected
    taken = [k for i in chosen for k in keys[i]]
    assert len(taken) == len(set(taken))


def test_an_option_worth_nothing_or_less_is_never_taken() -> None:
    """Options worth nothing or less (a route walked back may earn less than nothing) never improve a packing;
    the bounds, which count the best options for every slot left, must not hide a better one behind them."""
    result = best_packing([50, 10, -20], [1, 1, 1], [0b01, 0b01, 0b10], [3], lower=35)
    assert result.finished and result.value == 50 and result.chosen == [0]


@pytest.mark.parametrize("seed", range(30))
def test_options_of_any_sign_match_brute_force(seed: int) -> None:
    rng = random.Random(9000 + seed)
    values, classes, keys, counts = _instance(rng, rng.randint(1, 12), rng.randint(3, 10), rng.randint(1, 3))
    values = [v - 25 for v in values]
    lower = rng.choice([0, rng.randint(0, 40)])
    expected = _brute(values, classes, keys, counts)
    result = best_packing(values, [1 << c for c in classes], [sum(1 << k for k in ks) for ks in keys], counts, lower)
    assert result.finished and result.value == max(expected, lower)
    if expected > lower:
        assert sum(values[i] for i in result.chosen or []) == expected
    assert all(values[i] > 0 for i in result.chosen or [])


def test_assign_trains_refuses_options_that_do_not_fit() -> None:
    with pytest.raises(ValueError):
        assign_trains([0b01, 0b01], [1, 1])  # two options for the one train of class 0


@pytest.mark.parametrize("seed", range(10))
def test_many_classes_of_one_train_each(seed: int) -> None:
    """Eight train classes, one class per option: the Hall sets are the classes alone (not their
    255 unions), and the answer is still the brute-force optimum."""
    rng = random.Random(5000 + seed)
    values, classes, keys, _ = _instance(rng, rng.randint(4, 12), rng.randint(4, 10), 8)
    counts = [1] * 8
    expected = _brute(values, classes, keys, counts)
    result = best_packing(values, [1 << c for c in classes], [sum(1 << k for k in ks) for ks in keys], counts)
    assert result.finished and result.value == expected


def test_a_class_full_of_the_best_options_is_bounded_by_its_trains() -> None:
    """Two trains of class 1, whose options are the best, and one of class 0, whose options conflict with
    each other: once a class-1 option is chosen, the slots left are one class-1 train and the class-0 train,
    so every later class-1 option is bounded by 100 + 100 + 5 (the best packing's worth, found first) and
    cut at once, where the best open options overall (100 + 100 + 100) would let the search go on (about
    1,800 nodes: each class-1 option's subtree tries the others again)."""
    n_best = 60
    values = [100] * n_best + [5] * 10
    fits = [0b10] * n_best + [0b01] * 10
    keys = [1 << i for i in range(n_best)] + [1 << n_best] * 10  # the class-0 options share one key
    result = best_packing(values, fits, keys, [1, 2])
    assert result.finished and result.value == 205
    # the first subtree tries the other class-1 options once, then the root tries each once more
    assert result.stats["bb_nodes"] <= 2 * n_best
    assert sorted(values[i] for i in result.chosen or []) == [5, 100, 100]
