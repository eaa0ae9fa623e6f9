"""Hexes read before, kept for the next board: a batch audit reads the positions of a game one after
the other, and most of a game's hexes are the same from one position to the next.

`HexReuse` keeps, per hex id, the last raw hex object read, as bytes (`marshal`, which tells `true`,
`1` and `1.0` apart where `==` does not), and what it gave: the `Hex`, its nodes and its paths. A raw
hex with the same bytes gives the same objects again instead of being read anew. Boards built so
share those objects: nothing changes a board's hexes, nodes or paths once it is read (a what-if lays
track on a copy, from hexes it reads itself).

Snapshots given as text are best read with `HexReuse.loads` (`hex_texts.HexTexts`): a hex whose text is
unchanged is then the very object read before, and that object needs no bytes to be known again. The
board read last from such a text is kept too (`LastBoard`): the next board whose `hexes` list is the next
text's holds the same objects at most places, and is read from it place by place, the changed places only
(`solver.input.snapshot`).
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from typing import Any

from solver.input.hex_texts import HexTexts
from solver.model.board import Hex, Node, Path
from solver.model.walk_memo import WalkMemo

Known = tuple[Hex, tuple[Node, ...], tuple[Path, ...]]


@dataclass(slots=True)
class LastBoard:
    """The hexes of the last board read from a `hexes` list of `HexReuse.loads`, kept to read the next one by
    its changes: per place in the list the raw hex, its Hex and its nodes and paths as (id, object) pairs,
    and the board's dicts (its own copies: a board's dicts may be changed once read, these never are)."""

    raws: tuple[Any, ...]
    hexes: list[Hex]
    node_pairs: list[tuple[tuple[str, Node], ...]]
    path_pairs: list[tuple[tuple[str, Path], ...]]
    hex_dict: dict[str, Hex]
    node_dict: dict[str, Node]
    path_dict: dict[str, Path]
    valid: bool = False  # whether the board of these dicts passed `validate_board`


class HexReuse:
    """The last raw hex and its reading per hex id (one per id: memory stays the size of a few boards). One
    `HexReuse` is used by one thread at a time: its last board and walks are changed as each board is read."""

    LIMIT = 20_000  # hex ids kept at most (then all is dropped): a long stream of boards with new ids stays bounded

    def __init__(self) -> None:
        # hex id -> bytes, reading, raw hex, the bytes of its `paths` list
        self._known: dict[str, tuple[bytes, Known, dict[str, Any], bytes]] = {}
        self._checked: dict[int, Hex] = {}  # id -> a hex kept that passed the checks of its own fields (held)
        self._texts = HexTexts()
        self.walks = WalkMemo()  # the legs walked from a node, kept while the hexes they read are these
        self.last: LastBoard | None = None  # the last board read from a `hexes` list of `loads`

    def loads(self, text: str | bytes, where: str) -> Any:
        """A snapshot's JSON text read as `jsonread.loads` reads it, its unchanged hexes taken from the last
        text read here (`HexTexts`). The value shares objects with the values given before, and `find` knows
        its hexes by those objects: it must be read only, never changed (a board read from it may be)."""
        return self._texts.loads(text, where)

    def gave_list(self, value: Any) -> bool:
        """Whether `value` is the `hexes` list of the last text `loads` read (its items then are unchanged
        objects: one that is an item of `last.raws` reads as it read then)."""
        return self._texts.gave_list(value)

    def find(self, raw: dict[str, Any]) -> tuple[bytes | None, Known | None]:
        """The raw hex's bytes (None when it has none: not JSON data, or when it is known without them) and
        what the same bytes read to before. A hex of the last text `loads` read that is the very object
        read before is known at once."""
        hid = raw.get("id")
        known = self._known.get(hid) if hid.__class__ is str else None
        if known is not None and known[2] is raw and self._texts.gave(raw):
            return None, known[1]
        try:
            key = marshal.dumps(raw, 0)  # version 0: no references, so equal data gives equal bytes
        except ValueError:
            return None, None
        return key, (known[1] if known is not None and known[0] == key else None)

    def paths_key(self, raw: dict[str, Any]) -> bytes:
        """The bytes of a raw hex's `paths` value, b"" when it has none (of a raw hex that has bytes: `find`
        gave them)."""
        return marshal.dumps(raw["paths"], 0) if "paths" in raw else b""

    def same_paths(self, hid: str, paths_key: bytes) -> tuple[Path, ...] | None:
        """The paths of the hex kept for this id when its `paths` list had these bytes, else None: a path
        reads from its raw object and its hex id alone (and a Path is never changed), so a hex whose other
        fields changed (a node's token, say) takes its paths again."""
        known = self._known.get(hid)
        return known[1][2] if known is not None and known[3] == paths_key else None

    def keep(self, key: bytes, known: Known, raw: dict[str, Any], paths_key: bytes) -> None:
        """Keep a raw hex's bytes, its reading, the raw hex itself and the bytes of its paths (replacing the
        one kept for its id)."""
        if len(self._known) >= self.LIMIT:
            self._known.clear()
            self._checked.clear()
        old = self._known.get(known[0].id)
        if old is not None:
            self._checked.pop(id(old[1][0]), None)
        self._known[known[0].id] = (key, known, raw, paths_key)

    def checked(self, hx: Hex) -> bool:
        """Whether this hex (the object) passed the checks of its own fields, nodes and paths on a board before
        (`solver.input.validate`): they read nothing else, so it passes them again."""
        return self._checked.get(id(hx)) is hx

    def passed(self, hx: Hex) -> None:
        """Note that a hex passed those checks (only a hex kept here is noted)."""
        known = self._known.get(hx.id)
        if known is not None and known[1][0] is hx:
            self._checked[id(hx)] = hx
