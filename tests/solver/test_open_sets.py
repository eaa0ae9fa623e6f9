"""`packing.open_sets`: the options a key mask leaves open, read a group of keys at a time and
cached, match the options that share no key with it, whatever the cache's room."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.packing.open_sets import GROUP_KEYS, OpenSets

N_KEYS = 3 * GROUP_KEYS + 5  # masks over several groups, the last one partial


@st.composite
def _table(draw: st.DrawFn) -> tuple[list[int], int, list[int], int]:
    """Per key the options holding it, the number of options, some key masks and the cache's room."""
    n = draw(st.integers(1, 60))
    users = draw(st.lists(st.integers(0, (1 << n) - 1), min_size=1, max_size=N_KEYS))
    masks = draw(st.lists(st.integers(0, (1 << len(users)) - 1), min_size=1, max_size=12))
    return users, n, masks + masks[:3], draw(st.integers(0, 8))  # some masks twice: the cache is read


def _clear(users: list[int], n: int, mask: int) -> int:
    """The options holding no key of `mask`, one option at a time."""
    return sum(1 << j for j in range(n) if not any(mask >> k & 1 and users[k] >> j & 1 for k in range(len(users))))


@settings(max_examples=300, deadline=None)
@given(_table(), st.data())
def test_left_open_and_clear_of_match_the_options_sharing_no_key(table, data: st.DataObject) -> None:
    users, n, masks, room = table
    full = (1 << n) - 1
    sets = OpenSets([full ^ u for u in users], full, room)
    for mask in masks:
        start = data.draw(st.integers(0, full))
        assert sets.clear_of(mask, start) == start & _clear(users, n, mask)
        assert sets.left_open(mask) == _clear(users, n, mask)
    assert sets.stored <= room
