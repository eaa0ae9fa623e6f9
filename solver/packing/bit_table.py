"""Track masks (Python ints, one bit per track key) as a bit matrix, and back, with numpy: turning many
masks around (per key, the masks that hold it) costs a few array operations instead of a loop per bit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def bit_table(masks: Sequence[int]) -> np.ndarray:
    """A (masks x bits) 0/1 uint8 matrix: row i holds the bits of masks[i], lowest bit first (no columns
    when every mask is 0)."""
    width = max((m.bit_length() for m in masks), default=0)
    if not masks or width == 0:
        return np.zeros((len(masks), 0), dtype=np.uint8)
    nbytes = (width + 7) // 8
    raw = np.frombuffer(b"".join(m.to_bytes(nbytes, "little") for m in masks), dtype=np.uint8)
    return np.unpackbits(raw.reshape(len(masks), nbytes), axis=1, bitorder="little")[:, :width]


def as_ints(table: np.ndarray) -> list[int]:
    """Each row of a 0/1 matrix as an int (column j: bit j)."""
    return [int.from_bytes(row.tobytes(), "little") for row in np.packbits(table, axis=1, bitorder="little")]


def users_per_bit(masks: Sequence[int]) -> dict[int, int]:
    """Per bit that some mask holds, the set of masks holding it, as an int over their positions."""
    table = bit_table(masks)
    held = np.flatnonzero(table.any(axis=0))
    return dict(zip(held.tolist(), as_ints(table[:, held].T)))
