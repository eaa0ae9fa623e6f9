"""The compiled packing search (`solver/native/setpack.c`) against the Python search it mirrors: the same
packing, value and node count on random instances (several words of options, several groups and words of
keys, classes sharing options, lower bounds, node limits), and the same stops."""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.model.cancel import CancelToken
from solver.packing import setpack, setpack_native
from solver.packing.setpack import best_packing


def test_the_kernel_is_built() -> None:
    """The install builds it (CI has a C compiler): every comparison below runs it."""
    assert setpack_native.available()


@contextlib.contextmanager
def _python_only() -> Iterator[None]:
    """The kernels switched off (`ROUTEMAX_NATIVE=0`) for the block."""
    before = os.environ.get("ROUTEMAX_NATIVE")
    os.environ["ROUTEMAX_NATIVE"] = "0"
    try:
        yield
    finally:
        if before is None:
            del os.environ["ROUTEMAX_NATIVE"]
        else:
            os.environ["ROUTEMAX_NATIVE"] = before


@pytest.fixture(autouse=True)
def _kernel_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel searches from the start (as shipped, the Python search takes the first `KERNEL_FROM` nodes)."""
    monkeypatch.setattr(setpack, "KERNEL_FROM", 0)


def _both(*args, **kwargs):
    native = best_packing(*args, **kwargs)
    with _python_only():
        assert not setpack_native.available()
        python = best_packing(*args, **kwargs)
    return native, python


def _same(native, python) -> None:
    assert (native.chosen, native.value, native.finished) == (python.chosen, python.value, python.finished)
    assert native.stats["bb_nodes"] == python.stats["bb_nodes"]


@st.composite
def instances(draw):
    n = draw(st.integers(1, 300))
    n_keys = draw(st.sampled_from([3, 12, 20, 40, 70, 150]))
    n_classes = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    values = [rng.randint(-5, 200) for _ in range(n)]
    # an option runs on one class, or on several where the classes earn alike (merged options)
    fits = [rng.choice([1 << rng.randrange(n_classes), rng.randint(1, 2**n_classes - 1)]) for _ in range(n)]
    masks = [sum(1 << k for k in rng.sample(range(n_keys), rng.randint(1, min(8, n_keys)))) for _ in range(n)]
    counts = [rng.randint(1, 3) for _ in range(n_classes)]
    lower = draw(st.sampled_from([0, 0, 50, 150]))
    limit = draw(st.sampled_from([None, None, 5, 200]))
    return values, fits, masks, counts, lower, limit


@settings(max_examples=300, deadline=None)
@given(instances())
def test_the_kernel_finds_what_the_python_search_finds(case) -> None:
    values, fits, masks, counts, lower, limit = case
    _same(*_both(values, fits, masks, counts, lower, node_limit=limit))


def _big(seed: int):
    rng = random.Random(seed)
    n = 5000
    values = [rng.randint(900, 1000) for _ in range(n)]  # close values and routes of many keys: a long search
    masks = [sum(1 << k for k in rng.sample(range(90), 20)) for _ in range(n)]
    fits = [rng.choice([1, 2, 3]) for _ in range(n)]
    return values, fits, masks, [2, 1]


@pytest.mark.parametrize("seed", range(3))
def test_long_lists_alike(seed: int) -> None:
    """Thousands of options over two classes and two words of keys, as on late-game boards."""
    native, python = _both(*_big(seed))
    assert native.finished
    _same(native, python)


def test_a_past_deadline_stops_both_at_the_same_node() -> None:
    native, python = _both(*_big(7), deadline=time.monotonic() - 1)
    assert not native.finished
    _same(native, python)


def test_a_cancelled_token_stops_both_at_the_same_node() -> None:
    token = CancelToken()
    token.cancel()
    native, python = _both(*_big(8), cancel=token)
    assert not native.finished
    _same(native, python)


def test_a_token_cancelled_during_the_search_stops_the_kernel() -> None:
    """The token sets a flag the kernel reads (from the thread that cancels)."""
    values, fits, masks, counts = _big(10)
    token = CancelToken()
    timer = threading.Timer(0.05, token.cancel)
    timer.start()
    started = time.monotonic()
    result = best_packing(values * 4, fits * 4, masks * 4, [20], cancel=token)
    timer.join()
    assert not result.finished
    assert time.monotonic() - started < 5
    assert result.value == sum((values * 4)[i] for i in result.chosen or [])


def test_a_full_cache_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for a few cached sets only, the kernel makes the others each time."""
    monkeypatch.setattr(setpack, "CACHE_BITS", 64 * 400)
    native, python = _both(*_big(9))
    assert native.finished
    _same(native, python)


def test_the_python_search_hands_a_long_search_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """As shipped: the Python search takes the first `KERNEL_FROM` nodes, and a search that runs longer is
    searched again by the kernel from the start, with the same result."""
    monkeypatch.setattr(setpack, "KERNEL_FROM", 256)
    calls: list[int] = []

    def spy(*args, **kwargs):
        calls.append(len(args[0]))
        return setpack_native.native_search(*args, **kwargs)

    monkeypatch.setattr(setpack, "native_search", spy)
    short = best_packing([5, 4, 3], [1, 1, 1], [0b01, 0b01, 0b10], [2])
    assert (short.value, calls) == (8, [])  # a few nodes: the Python search alone
    native, python = _both(*_big(11))
    assert native.stats["bb_nodes"] > 256 and len(calls) == 1
    _same(native, python)


def test_no_train_runs_nothing() -> None:
    result = best_packing([5, 3], [1, 1], [0b01, 0b10], [0])
    assert (result.chosen, result.value, result.finished) == (None, 0, True)


def test_values_the_kernel_cannot_hold_run_in_python() -> None:
    """A lower bound or values given as floats: the Python search, not an error."""
    values, fits, masks, counts = _big(12)
    native, python = _both(values, fits, masks, counts, float(sum(sorted(values)[-2:])))
    _same(native, python)
    assert setpack_native.native_search([1.5], [1], None, {}, {}, {}, [], False, [1], 0, None, None, None, 64,
                                        64) is None


@given(st.lists(st.integers(min_value=1, max_value=15), max_size=60))
@settings(max_examples=200, deadline=None)
def test_fits_are_numbered_as_they_first_appear(fits: list[int]) -> None:
    """`_numbered` numbers the distinct fits in the order they first appear, as a dict built over them would."""
    numbers, ids = setpack_native._numbered(np.asarray(fits, dtype=np.int64))
    expected = {f: i for i, f in enumerate(dict.fromkeys(fits))}
    assert list(numbers.items()) == list(expected.items())
    assert ids.dtype == np.int32 and ids.tolist() == [expected[f] for f in fits]
