"""Legs: chains of paths that join one stop to the next, and the track they occupy.

A leg starts at a node, follows one of its paths to an edge, crosses into the neighbour at the
opposite edge (gauges and lanes must fit), continues through edge-to-edge paths and junctions,
and ends at the first non-junction node it reaches. `walk_legs` enumerates every leg from a node
(for the optimiser); `leg_from_paths` checks one claimed leg path by path (for the evaluator).
Both name the track a leg occupies with the same keys, so "no shared track" means one thing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from solver.model.board import Board, Path, PathEnd
from solver.model.errors import BoardError
from solver.model.limits import MAX_BOARD_WALK_STEPS, MAX_WALK_STEPS

TrackKey = tuple


@dataclass(frozen=True)
class Leg:
    """A walk from node `a` to node `b`; `keys` is the track it occupies."""

    a: str
    b: str
    paths: tuple[str, ...]
    keys: frozenset[TrackKey]
    hexes: tuple[str, ...]
    crossings: int
    terminal_first: bool
    terminal_last: bool
    terminal_inner: bool
    has_terminal: bool = False  # any terminal path: only then can its position in a route matter

    def may_stand(self, index: int, count: int) -> bool:
        """Whether this leg may be leg `index` of a route with `count` legs (terminal paths at the ends only)."""
        if self.terminal_inner:
            return False
        first, last = index == 0, index == count - 1
        if len(self.paths) == 1 and self.terminal_first:
            return first or last
        return (not self.terminal_first or first) and (not self.terminal_last or last)


def gauges_fit(a: Path, b: Path) -> bool:
    """Whether track may continue from path a onto path b across a hex edge."""
    if a.ignore_gauge_walk or b.ignore_gauge_walk:
        return True
    if a.track == "dual" or b.track == "dual":
        return True
    return a.track == b.track


def lanes_fit(lane_a: tuple[int, int], lane_b: tuple[int, int]) -> bool:
    """Whether lane `(width, index)` meets lane_b across an edge (the narrower one is centred)."""
    (wa, ia), (wb, ib) = lane_a, lane_b
    if wa == wb:
        return ib == wa - 1 - ia
    if wa > wb:
        (wa, ia), (wb, ib) = (wb, ib), (wa, ia)
    return ib - (wb - wa) // 2 == wa - 1 - ia


def path_keys(board: Board, path: Path) -> list[TrackKey]:
    """The track keys one path occupies: its edge ends by lane, a node-to-node path itself,
    and for a town placed next to an edge, entry from another edge."""
    keys: list[TrackKey] = []
    if not path.a.is_edge and not path.b.is_edge:
        keys.append(("path", path.id))
    for end, lane in ((path.a, path.lanes[0]), (path.b, path.lanes[1])):
        if end.is_edge:
            keys.append((path.hex, end.edge, lane[1]))
    for town_end, edge_end, lane in ((path.a, path.b, path.lanes[0]), (path.b, path.a, path.lanes[1])):
        if town_end.node is None or not edge_end.is_edge:
            continue
        town = board.nodes[town_end.node]
        if town.near_edge is not None and town.kind in ("town", "halt") and town.near_edge != edge_end.edge:
            keys.append((path.hex, town.id, lane[1]))
    return keys


class PathIndex:
    """The paths at each (hex, end), and each path's track keys, computed once per board."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.at: dict[tuple[str, int | None, str | None], list[Path]] = {}  # (hex, edge, node): plain hashing
        self.keys: dict[str, list[TrackKey]] = {}
        self.key_sets: dict[str, frozenset[TrackKey]] = {}
        self.repeats: set[str] = set()  # paths that use one track key twice (never part of a leg)
        self.steps = 0  # path steps walked over this board, held to MAX_BOARD_WALK_STEPS
        for p in board.paths.values():
            for end in (p.a, p.b):
                self.at.setdefault((p.hex, end.edge, end.node), []).append(p)
            keys = self.keys[p.id] = path_keys(board, p)
            self.key_sets[p.id] = frozenset(keys)
            if len(self.key_sets[p.id]) != len(keys):
                self.repeats.add(p.id)

    def paths_at(self, hex_id: str, end: PathEnd) -> list[Path]:
        return self.at.get((hex_id, end.edge, end.node), [])


class _Walker:
    """Depth-first enumeration of legs from one node, with an explicit stack (no recursion, so a
    chain of track as long as a board may hold never reaches Python's recursion limit)."""

    def __init__(self, board: Board, allowed_tracks: frozenset[str] | None, index: PathIndex | None = None) -> None:
        self.board = board
        self.allowed = allowed_tracks
        self.legs: list[Leg] = []
        self.index = index or PathIndex(board)
        self.chain: list[Path] = []
        self.in_chain: set[str] = set()
        self.used: set[TrackKey] = set()

    def usable(self, p: Path) -> bool:
        return self.allowed is None or p.track in self.allowed

    def start(self, node_id: str) -> list[Leg]:
        node = self.board.nodes[node_id]
        entry = PathEnd(node=node_id)
        firsts = [(p, entry) for p in self.index.paths_at(node.hex, entry) if not p.ignore and self.usable(p)]
        self.walk(node_id, firsts)
        return self.legs

    def walk(self, start: str, firsts: list[tuple[Path, PathEnd]]) -> None:
        """Each stack frame holds the next paths to try after the chain's last path; a frame that
        runs out takes its path off the chain again."""
        stack: list[tuple[Iterator[tuple[Path, PathEnd]], Path | None]] = [(iter(firsts), None)]
        steps = 0
        index = self.index
        while stack:
            nexts, owner = stack[-1]
            step = next(nexts, None)
            if step is None:
                stack.pop()
                if owner is not None:
                    self.pop(owner)
                continue
            path, entry = step
            keys = index.key_sets[path.id]
            if path.id in index.repeats or not self.used.isdisjoint(keys):
                continue  # a leg never uses the same track twice
            steps += 1
            index.steps += 1
            if steps > MAX_WALK_STEPS or index.steps > MAX_BOARD_WALK_STEPS:
                raise BoardError(f"hexes[{self.board.nodes[start].hex}].nodes[{start}]",
                                 f"the track branches into more than {MAX_WALK_STEPS:,} path steps from one node or "
                                 f"{MAX_BOARD_WALK_STEPS:,} over the board (limit); no 18xx map has such track")
            self.chain.append(path)
            self.in_chain.add(path.id)
            self.used.update(keys)
            children = self.continuations(start, path, entry)
            if children is None:
                self.pop(path)
            else:
                stack.append((children, path))

    def pop(self, path: Path) -> None:
        self.chain.pop()
        self.in_chain.discard(path.id)
        self.used.difference_update(self.index.key_sets[path.id])

    def continuations(self, start: str, path: Path, entry: PathEnd) -> Iterator[tuple[Path, PathEnd]] | None:
        """The paths that may follow `path` (the chain's last), lazily; None when the leg ends here
        (a leg is emitted when it reached a stop)."""
        board = self.board
        exit_end = path.other(entry)
        if exit_end.node is not None:
            target = board.nodes[exit_end.node]
            if target.id == start:
                return None
            if target.kind == "junction":
                return ((q, exit_end) for q in self.index.paths_at(path.hex, exit_end)
                        if q.id not in self.in_chain and self.usable(q))
            self.legs.append(make_leg(board, start, target.id, list(self.chain), self.index.keys))
            return None
        nb = board.hexes[path.hex].neighbors.get(exit_end.edge)  # type: ignore[arg-type]
        if nb is None or nb not in board.hexes:
            return None
        entry2 = PathEnd(edge=(exit_end.edge + 3) % 6)  # type: ignore[operator]
        lane = path.lane_at(exit_end)
        return ((q, entry2) for q in self.index.paths_at(nb, entry2)
                if q.id not in self.in_chain and self.usable(q) and gauges_fit(path, q)
                and lanes_fit(lane, q.lane_at(entry2)))


def make_leg(board: Board, a: str, b: str, chain: list[Path], known: dict[str, list[TrackKey]] | None = None) -> Leg:
    """Build a Leg from an already-checked chain of paths (`known`: path keys already computed)."""
    keys: list[TrackKey] = []
    hexes: list[str] = []
    crossings = 0
    for i, p in enumerate(chain):
        keys.extend(known[p.id] if known and p.id in known else path_keys(board, p))
        if not hexes or hexes[-1] != p.hex:
            hexes.append(p.hex)
        if i and chain[i - 1].hex != p.hex:
            crossings += 1
    return Leg(a=a, b=b, paths=tuple(p.id for p in chain), keys=frozenset(keys), hexes=tuple(hexes),
               crossings=crossings, terminal_first=chain[0].terminal, terminal_last=chain[-1].terminal,
               terminal_inner=any(p.terminal for p in chain[1:-1]), has_terminal=any(p.terminal for p in chain))


def walk_legs(board: Board, node_id: str, allowed_tracks: frozenset[str] | None = None,
              index: PathIndex | None = None) -> list[Leg]:
    """Every leg that starts at `node_id`; pass one `index` for many calls on one board."""
    return _Walker(board, allowed_tracks, index).start(node_id)


REUSED_TRACK = "a leg uses the same track twice"


def leg_from_paths(board: Board, a: str, b: str, path_ids: list[str]) -> Leg | str:
    """Check that `path_ids` walk from node a to node b (in either listed order); the Leg, or why not
    (`REUSED_TRACK` when the chain connects but occupies some track twice)."""
    if not path_ids:
        return "a leg needs at least one path"
    unknown = [pid for pid in path_ids if pid not in board.paths]
    if unknown:
        return f"unknown path {unknown[0]!r}"
    chain = [board.paths[pid] for pid in path_ids]
    why = _check_chain(board, a, b, chain)
    if why is None:
        return make_leg(board, a, b, chain)
    if _check_chain(board, a, b, chain[::-1]) is None:
        return make_leg(board, a, b, chain[::-1])
    return why


def _check_chain(board: Board, a: str, b: str, chain: list[Path]) -> str | None:
    if len(set(p.id for p in chain)) != len(chain):
        return "a leg uses a path twice"
    first = chain[0]
    if PathEnd(node=a) not in (first.a, first.b):
        return f"path {first.id} does not start at {a}"
    entry = PathEnd(node=a)
    for i, p in enumerate(chain):
        exit_end = p.other(entry)
        last = i == len(chain) - 1
        if last:
            if exit_end != PathEnd(node=b):
                return f"path {p.id} does not end at {b}"
            keys = [k for q in chain for k in path_keys(board, q)]
            return REUSED_TRACK if len(set(keys)) != len(keys) else None
        q = chain[i + 1]
        if exit_end.node is not None:
            if board.nodes[exit_end.node].kind != "junction":
                return f"the leg passes through node {exit_end.node}"
            if q.hex != p.hex or exit_end not in (q.a, q.b):
                return f"path {q.id} does not continue {p.id}"
            entry = exit_end
            continue
        nb = board.hexes[p.hex].neighbors.get(exit_end.edge)  # type: ignore[arg-type]
        entry2 = PathEnd(edge=(exit_end.edge + 3) % 6)  # type: ignore[operator]
        if nb is None or q.hex != nb or entry2 not in (q.a, q.b):
            return f"path {q.id} does not continue {p.id} across edge {exit_end.edge} of {p.hex}"
        if not gauges_fit(p, q):
            return f"gauges of {p.id} ({p.track}) and {q.id} ({q.track}) do not fit"
        if not lanes_fit(p.lane_at(exit_end), q.lane_at(entry2)):
            return f"lanes of {p.id} and {q.id} do not meet"
        entry = entry2
    return None
