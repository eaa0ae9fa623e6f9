"""Track masks (Python ints, one bit per track key) turned around with numpy: per bit, the masks that hold
it, and back, in a few array operations instead of a loop per bit.

The masks' bytes are laid out as a (bytes x masks) matrix first, a few bytes per mask, and each bit of a byte
row packed on its own (`packbits` reads any nonzero byte as a one), so each bit's row comes out contiguous; a
(masks x bits) 0/1 matrix is never transposed (that transpose alone cost more than the rest together on the
stress set's 35,000 options)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def bit_columns(masks: Sequence[int] | np.ndarray) -> np.ndarray:
    """Per bit (rows, lowest bit first, as many as the widest mask has), the masks holding it as packed
    bits over their positions (columns: bytes, lowest position first; `row_int` reads one as an int).
    `masks`: ints, or an array of rows of little-endian 64-bit words (a mask a row)."""
    rows = np.ascontiguousarray(masks, dtype="<u8") if isinstance(masks, np.ndarray) else None
    if rows is not None:
        width = int.from_bytes(np.bitwise_or.reduce(rows, axis=0).tobytes(), "little").bit_length() if len(rows) \
            else 0
    else:
        width = max((m.bit_length() for m in masks), default=0)  # type: ignore[union-attr]
    if not len(masks) or width == 0:
        return np.zeros((width, (len(masks) + 7) // 8), dtype=np.uint8)
    nbytes = (width + 7) // 8
    raw = rows.view(np.uint8)[:, :nbytes] if rows is not None else np.frombuffer(
        b"".join(m.to_bytes(nbytes, "little") for m in masks), dtype=np.uint8).reshape(len(masks), nbytes)
    by_byte = np.ascontiguousarray(raw.T)  # byte x mask: a few rows
    out = np.empty((8 * len(by_byte), (len(masks) + 7) // 8), dtype=np.uint8)
    for j in range(8):  # bit 8c + j: bit j of byte c, for every c at once
        out[j::8] = np.packbits(by_byte & np.uint8(1 << j), axis=1, bitorder="little")
    return out[:width]


def row_words(columns: np.ndarray, words: int) -> np.ndarray:
    """Rows of `bit_columns` as `words` 64-bit words each (a row x word array, zeros past the row's bytes)."""
    out = np.zeros((len(columns), words * 8), dtype=np.uint8)
    out[:, :columns.shape[1]] = columns
    return out.view("<u8")


def row_int(row: np.ndarray) -> int:
    """One packed row as an int (byte k: bits 8k to 8k + 7)."""
    return int.from_bytes(row.tobytes(), "little")


def holders(columns: np.ndarray) -> np.ndarray:
    """Per row of `bit_columns`, how many masks hold the bit."""
    return np.bitwise_count(columns).sum(axis=1, dtype=np.int64)


def mask_words(columns: np.ndarray, count: int) -> np.ndarray:
    """The masks of `masks_over` as 64-bit words: a (position x word) array, word w holding rows 64w to
    64w + 63 (one word of zeros without rows)."""
    if len(columns) == 0:
        return np.zeros((count, 1), dtype="<u8")
    bits = np.unpackbits(columns, axis=1, count=count, bitorder="little")  # row x position
    # byte c x position: rows 8c to 8c + 7, OR-ed in row by row (`packbits` along the first axis is slower)
    by_byte = np.zeros((-(-len(columns) // 64) * 8, count), dtype=np.uint8)
    for r, row in enumerate(bits):
        by_byte[r // 8] |= row << np.uint8(r % 8)
    return np.ascontiguousarray(by_byte.T).view("<u8")  # position x 64-row word


def masks_over(columns: np.ndarray, count: int) -> list[int]:
    """The masks again from some rows of `bit_columns` (of `count` masks): mask i has bit r when row r holds
    position i."""
    if len(columns) == 0:
        return [0] * count
    return word_ints(mask_words(columns, count))


def int_words(masks: Sequence[int], words: int | None = None) -> np.ndarray:
    """Masks (ints) as rows of `words` little-endian 64-bit words (default: as many as the widest needs, at least
    one): `word_ints` the other way."""
    if words is None:
        words = max(1, (max(masks, default=0).bit_length() + 63) // 64)
    raw = b"".join(m.to_bytes(8 * words, "little") for m in masks)
    return np.frombuffer(raw, dtype="<u8").reshape(len(masks), words)


def word_ints(words: np.ndarray) -> list[int]:
    """The rows of a (position x word) array of `mask_words` as ints."""
    if words.shape[1] == 1:
        return words[:, 0].tolist()
    out = words[:, -1].tolist()
    for w in range(words.shape[1] - 2, -1, -1):
        out = [(high << 64) | low for high, low in zip(out, words[:, w].tolist(), strict=True)]
    return out


class RowInts:
    """The rows of a (position x word) array of `mask_words` as ints, each made when read: `word_ints` without
    making them all (a search that hands over after a few hundred nodes reads few of tens of thousands)."""

    def __init__(self, words: np.ndarray) -> None:
        self._raw = np.ascontiguousarray(words, dtype="<u8").tobytes()
        self._width = words.shape[1] * 8  # bytes per row
        self._count = len(words)

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i: int) -> int:
        if not 0 <= i < self._count:
            raise IndexError(i)
        return int.from_bytes(self._raw[i * self._width:(i + 1) * self._width], "little")


def users_per_bit(masks: Sequence[int] | np.ndarray) -> dict[int, int]:
    """Per bit that some mask holds, the set of masks holding it, as an int over their positions (`masks`: ints,
    or rows of 64-bit words as `bit_columns` reads them)."""
    columns = bit_columns(masks)
    return {int(b): row_int(columns[b]) for b in np.flatnonzero(columns.any(axis=1))}
