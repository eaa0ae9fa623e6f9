"""Legs walked from a node, kept for the next board: a batch audit reads the positions of a game one after
the other with one `HexReuse`, which gives an unchanged hex as the very `Hex` read before, with the very
nodes and paths (`solver.input.hex_reuse`). A walk from a node (`legs.walk_legs`) reads only the hexes it
enters (their neighbours, paths, and the id, kind and edge of their nodes: `track_of`) and whether each
neighbour of those is on the board; when each of those hexes has the same track again (the very Hex, or one
read anew for a token or a revenue only), each neighbour is on the board or not as before, and the walk
allows the same gauges, it walks the same legs in the same order, over the same number of steps.

That holds on a board as read (`board_from_snapshot` with a `HexReuse`, which binds the memo to it:
`WalkMemo.bind`): there a hex's nodes and paths are those it was read with. A board made from it with
other nodes or paths (a ruleset's view, a what-if) holds other dicts, and walks anew (`BoardWalks.memo_for`).
"""
from __future__ import annotations

import marshal
from dataclasses import dataclass
from typing import Any

Key = tuple[str, "frozenset[str] | None"]  # (start node, the gauges a walk may use; None: all)


@dataclass(frozen=True, slots=True)
class Walked:
    """One walk as it went: its legs in order, its path steps, and what of the board it read."""

    legs: tuple[Any, ...]
    steps: int
    hexes: tuple[tuple[str, Any, bytes], ...]  # (hex id, the Hex, its `track_of`) of each hex whose paths it read
    around: tuple[tuple[str, bool], ...]  # (hex id, whether on the board) of their other neighbours


def track_of(board: Any, hx: Any) -> bytes:
    """All a walk reads of a hex (`legs.PathIndex.read`, `legs.path_keys`, `legs._walk`): its id and neighbours,
    each of its paths (every field), and the id, hex, kind and edge of each of its nodes, as bytes (`marshal`:
    1, 1.0 and True differ). Its revenue, tokens and the like are not read: a token placed leaves it as it was."""
    paths, nodes = board.paths, board.nodes
    try:
        return marshal.dumps((hx.id, tuple(hx.neighbors.items()),
                          tuple([(p.id, p.hex, p.a.edge, p.a.node, p.b.edge, p.b.node, p.track, p.lanes, p.terminal,
                                  p.ignore, p.ignore_gauge_walk) for p in map(paths.__getitem__, hx.paths)]),
                          tuple([(n.id, n.hex, n.kind, n.near_edge) for n in map(nodes.__getitem__, hx.nodes)])), 0)
    except ValueError:  # not plain data: unlike any other (its walks are walked anew)
        return object()  # type: ignore[return-value]


class WalkMemo:
    """The last walk per (start node, gauges), for boards read one after another (one per batch, held
    by its `HexReuse`). Bounded: past LIMIT walks or LEG_LIMIT legs held, all is dropped; the tracks of hexes
    are kept for the last Hex per hex id (as `HexReuse` keeps them), at most HEX_LIMIT ids."""

    LIMIT = 20_000
    LEG_LIMIT = 100_000
    HEX_LIMIT = 20_000

    def __init__(self) -> None:
        self._walks: dict[Key, Walked] = {}
        self._legs = 0  # legs held over all walks
        self._tracks: dict[str, tuple[Any, bytes]] = {}  # hex id -> the last Hex seen and its `track_of`

    def track(self, board: Any, hx: Any) -> bytes:
        """`track_of` the hex on this board (as read: a Hex object comes with the same paths and nodes
        on every board, so its track is made once while it is the last one of its id)."""
        known = self._tracks.get(hx.id)
        if known is not None and known[0] is hx:
            return known[1]
        if len(self._tracks) >= self.HEX_LIMIT:
            self._tracks.clear()
        made = track_of(board, hx)
        self._tracks[hx.id] = (hx, made)
        return made

    def bind(self, board: Any) -> None:
        """Let walks over this board (as read, its hexes, nodes and paths as they are now) use the memo."""
        board.walks = BoardWalks(self, board.hexes, board.nodes, board.paths)

    def get(self, key: Key, board: Any) -> Walked | None:
        """The walk kept for `key` when it read nothing that differs on this board (as read)."""
        walked = self._walks.get(key)
        if walked is None:
            return None
        hexes = board.hexes
        get = hexes.get
        other = False  # some hex is another Hex with the same track (a token placed, another company's)
        for hid, was, made in walked.hexes:
            hx = get(hid)
            if hx is not was:
                if hx is None or self.track(board, hx) != made:
                    return None
                other = True
        for hid, present in walked.around:
            if (hid in hexes) is not present:
                return None
        if other:  # kept with this board's hexes: the next board most likely has them
            walked = self._walks[key] = Walked(walked.legs, walked.steps,
                                               tuple([(hid, hexes[hid], made) for hid, _was, made in walked.hexes]),
                                               walked.around)
        return walked

    def put(self, key: Key, walked: Walked) -> None:
        """Keep a walk (replacing the one kept for its key)."""
        old = self._walks.pop(key, None)
        if old is not None:
            self._legs -= len(old.legs)
        if len(self._walks) >= self.LIMIT or self._legs + len(walked.legs) > self.LEG_LIMIT:
            self._walks.clear()
            self._legs = 0
        self._walks[key] = walked
        self._legs += len(walked.legs)

    def __len__(self) -> int:
        return len(self._walks)


@dataclass(frozen=True, slots=True)
class BoardWalks:
    """A memo bound to one board as read: its dicts of hexes, nodes and paths."""

    memo: WalkMemo
    hexes: dict[str, Any]
    nodes: dict[str, Any]
    paths: dict[str, Any]

    def memo_for(self, board: Any) -> WalkMemo | None:
        """The memo, when `board` holds the very dicts it was bound with (a board copied with `replace`
        and other nodes or paths, or hexes, walks anew)."""
        return self.memo if board.holds_track_of(self) else None
