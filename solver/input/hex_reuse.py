"""Hexes read before, kept for the next board: a batch audit reads the positions of a game one after
the other, and most of a game's hexes are the same from one position to the next.

`HexReuse` keeps, per hex id, the last raw hex object read and what it gave (the `Hex`, its nodes and
its paths). A raw hex equal to the one kept (a deep comparison, in C) gives the same objects again
instead of being read anew. Boards built so share those objects: nothing changes a board's hexes,
nodes or paths once it is read (a what-if lays track on a copy, from hexes it reads itself).
"""

from __future__ import annotations

from typing import Any

from solver.model.board import Hex, Node, Path

Known = tuple[dict[str, Any], Hex, tuple[Node, ...], tuple[Path, ...]]


class HexReuse:
    """The last raw object and reading of each hex id (one per id: memory stays the size of a board or two)."""

    def __init__(self) -> None:
        self._known: dict[str, Known] = {}

    def get(self, raw: dict[str, Any]) -> Known | None:
        """What an equal raw hex read to, or None."""
        hid = raw.get("id")
        known = self._known.get(hid) if hid.__class__ is str else None
        return known if known is not None and known[0] == raw else None

    def keep(self, known: Known) -> None:
        """Keep a raw hex and its reading (replacing the one kept for its id)."""
        self._known[known[1].id] = known
