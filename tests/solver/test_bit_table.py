"""`packing.bit_table`: masks turned around with numpy mean what the bits say, checked against a loop
over every bit of random masks (including none, and masks that are all 0)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from solver.packing.bit_table import as_ints, bit_table, users_per_bit

MASKS = st.lists(st.integers(0, (1 << 150) - 1) | st.sampled_from([0, 1, 1 << 149]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(MASKS)
def test_rows_are_the_masks_and_columns_their_users(masks: list[int]) -> None:
    table = bit_table(masks)
    width = max((m.bit_length() for m in masks), default=0)
    assert table.shape == (len(masks), width)
    if masks:
        assert as_ints(table) == masks
    users = users_per_bit(masks)
    for bit in range(width + 2):
        holders = sum(1 << j for j, m in enumerate(masks) if m >> bit & 1)
        assert users.get(bit, 0) == holders
        assert (bit in users) == (holders != 0)
