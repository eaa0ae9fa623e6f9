"""`routes.bit_table`: masks turned around with numpy mean what the bits say, checked against a loop
over every bit of random masks (including none, and masks that are all 0)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.routes.bit_table import (
    RowInts,
    bit_columns,
    holders,
    int_words,
    mask_words,
    masks_over,
    row_int,
    users_per_bit,
    word_ints,
)

MASKS = st.lists(st.integers(0, (1 << 150) - 1) | st.sampled_from([0, 1, 1 << 63, 1 << 64, 1 << 149]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(MASKS)
def test_columns_are_each_bits_holders_and_turn_back_into_the_masks(masks: list[int]) -> None:
    columns = bit_columns(masks)
    width = max((m.bit_length() for m in masks), default=0)
    assert columns.shape[0] == width
    for bit in range(width):
        users = sum(1 << j for j, m in enumerate(masks) if m >> bit & 1)
        assert row_int(columns[bit]) == users
        assert holders(columns)[bit] == users.bit_count()
    assert masks_over(columns, len(masks)) == masks


@settings(max_examples=300, deadline=None)
@given(MASKS, st.data())
def test_some_rows_give_the_masks_over_those_bits(masks: list[int], data: st.DataObject) -> None:
    columns = bit_columns(masks)
    rows = sorted(data.draw(st.sets(st.integers(0, max(0, len(columns) - 1)), max_size=len(columns))))
    expect = [sum(1 << q for q, bit in enumerate(rows) if m >> bit & 1) for m in masks]
    assert masks_over(columns[rows], len(masks)) == expect


@settings(max_examples=300, deadline=None)
@given(MASKS)
def test_users_per_bit_names_every_held_bit_once(masks: list[int]) -> None:
    users = users_per_bit(masks)
    for bit in range(max((m.bit_length() for m in masks), default=0) + 2):
        holders_ = sum(1 << j for j, m in enumerate(masks) if m >> bit & 1)
        assert users.get(bit, 0) == holders_
        assert (bit in users) == (holders_ != 0)


@settings(max_examples=300, deadline=None)
@given(MASKS)
def test_row_ints_read_each_mask_back(masks: list[int]) -> None:
    """`RowInts` over the words of every row reads each mask again, one at a time."""
    columns = bit_columns(masks)
    rows = RowInts(mask_words(columns, len(masks)))
    assert len(rows) == len(masks)
    assert [rows[i] for i in range(len(rows))] == masks
    with pytest.raises(IndexError):
        rows[len(masks)]


@settings(max_examples=300, deadline=None)
@given(MASKS, st.integers(0, 2))
def test_masks_given_as_rows_of_words_give_the_same_columns(masks: list[int], spare: int) -> None:
    """`bit_columns` of the masks as rows of 64-bit words (any number of zero words past the widest) is that of
    the ints."""
    words = -(-max((m.bit_length() for m in masks), default=0) // 64) + spare
    rows = int_words(masks, words)
    assert rows.shape == (len(masks), words)
    assert np.array_equal(bit_columns(rows), bit_columns(masks))
    assert users_per_bit(rows) == users_per_bit(masks)


@settings(max_examples=300, deadline=None)
@given(MASKS)
def test_int_words_turn_back_into_the_masks(masks: list[int]) -> None:
    """`int_words` (as many words as the widest mask needs, at least one) and `word_ints` undo each other."""
    rows = int_words(masks)
    assert rows.shape[1] == max(1, -(-max((m.bit_length() for m in masks), default=0) // 64))
    assert word_ints(rows) == masks
