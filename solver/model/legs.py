"""Legs: chains of paths that join one stop to the next, and the track they occupy.

A leg starts at a node, follows one of its paths to an edge, crosses into the neighbour at the
opposite edge (gauges and lanes must fit), continues through edge-to-edge paths and junctions,
and ends at the first non-junction node it reaches. `walk_legs` enumerates every leg from a node
(for the optimiser); `leg_from_paths` checks one claimed leg path by path (for the evaluator).
Both name the track a leg occupies with the same keys, so "no shared track" means one thing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from solver.model.board import Board, Path, PathEnd
from solver.model.errors import BoardError
from solver.model.leg_checks import checks_of
from solver.model.limits import MAX_BOARD_WALK_STEPS, MAX_WALK_STEPS
from solver.model.walk_memo import Walked, WalkMemo

TrackKey = tuple
_new = object.__new__


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


ONE_LANE = (1, 0)  # a path end that is its edge's only lane: it meets another such end


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
    a, b = path.a, path.b
    edge_a, edge_b = a.edge, b.edge
    if edge_a is not None and edge_b is not None:  # track from edge to edge (most paths)
        return [(path.hex, edge_a, path.lanes[0][1]), (path.hex, edge_b, path.lanes[1][1])]
    if edge_a is None and edge_b is None:  # from node to node
        return [("path", path.id)]
    (_wa, lane_a), (_wb, lane_b) = path.lanes
    # one end at a node: the edge end, and a town placed next to another edge
    town_end, edge, lane_town, key = (a, edge_b, lane_a, (path.hex, edge_b, lane_b)) if edge_a is None else \
        (b, edge_a, lane_b, (path.hex, edge_a, lane_a))
    town = board.nodes[town_end.node]  # type: ignore[index]
    if town.near_edge is not None and town.kind in ("town", "halt") and town.near_edge != edge:
        return [key, (path.hex, town.id, lane_town)]
    return [key]


# A way through a path, as the walk reads it: the path, the lane at the end it is entered by, where it
# leads (a node id, or None), the (hex, edge, node) entered next door when it leads to an edge (None at
# the board's edge or at a node), the lane it leaves by (None at a node), its track keys, and whether it
# uses one key twice (then it is never part of a leg).
Way = tuple[Path, tuple[int, int], "str | None", "tuple | None", "tuple[int, int] | None", frozenset, bool]


class PathIndex:
    """Per board: each way through a path (`Way`, with the path's track keys) by where it is entered.
    A hex's paths (`Hex.paths`) are read when a walk first reaches the hex (most walks stay near the
    company's stations), then kept for every walk. `memo`: the legs walked on boards read before, when
    this board was read with a `HexReuse` (`solver.model.walk_memo`)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        walks = board.walks
        self.memo: WalkMemo | None = walks.memo_for(board) if walks is not None else None
        self.steps = 0  # path steps walked over this board, held to MAX_BOARD_WALK_STEPS
        # (hex, edge, node) -> the ways into a path from there, in the board's order of paths
        self.entries: dict[tuple[str, int | None, str | None], list[Way]] = {}
        self.read_hexes: set[str] = set()  # the hexes whose paths are read (a hex with none too, once asked)

    def ways_in(self, key: tuple[str, int | None, str | None]) -> list[Way]:
        """The ways into a path at (hex, edge, node), in the board's order of paths."""
        if key[0] not in self.read_hexes:
            self.read(key[0])
        return self.entries.get(key, [])

    def read(self, hex_id: str) -> None:
        """Take in one hex's paths (`Hex.paths`, in the board's order)."""
        self.read_hexes.add(hex_id)
        board, entries = self.board, self.entries
        hexes = board.hexes
        hx = hexes[hex_id]
        neighbors = hx.neighbors
        for p in map(board.paths.__getitem__, hx.paths):
            a, b, (lane_a, lane_b) = p.a, p.b, p.lanes
            if a.edge == b.edge and a.node == b.node:  # one end twice: `lane_at` and `other` read it as end a
                lane_b, b = lane_a, a
            keys = path_keys(board, p)
            key_set = frozenset(keys)
            repeat = len(key_set) != len(keys)
            for end, lane, out, lane_out in ((a, lane_a, b, lane_b), (b, lane_b, a, lane_a)):
                if out.node is not None:
                    way = (p, lane, out.node, None, None, key_set, repeat)
                else:
                    nb = neighbors.get(out.edge)  # type: ignore[arg-type]
                    ahead = (nb, (out.edge + 3) % 6, None) if nb is not None and nb in hexes else None  # type: ignore[operator]
                    way = (p, lane, None, ahead, lane_out, key_set, repeat)
                key = (hex_id, end.edge, end.node)
                found = entries.get(key)
                if found is None:
                    entries[key] = [way]
                else:
                    found.append(way)


def _walk(board: Board, index: PathIndex, allowed: frozenset[str] | None, start: str,
          seen: set[str] | None = None) -> list[Leg]:
    """Depth-first enumeration of the legs from node `start`, with an explicit stack (no recursion, so a
    chain of track as long as a board may hold never reaches Python's recursion limit). `seen`, when given,
    gets the id of each hex whose ways the walk reads.

    Each stack frame holds the next ways through a path to try after the chain's last path; a frame
    that runs out takes its path off the chain again. The ways that may follow are listed when their
    frame is made: the chain is the same whenever the frame is asked again."""
    nodes = board.nodes
    first = nodes[start]
    ways_in, entries, read_hexes, read = index.ways_in, index.entries, index.read_hexes, index.read  # ways_in, inlined
    legs: list[Leg] = []
    chain: list[Path] = []
    chain_keys: list[frozenset[TrackKey]] = []
    in_chain: set[str] = set()
    used: set[TrackKey] = set()
    stack: list[Iterator[Way]] = [iter([way for way in ways_in((first.hex, None, start))
                                        if not way[0].ignore and (allowed is None or way[0].track in allowed)])]
    steps = 0
    steps_before = index.steps  # the board's steps before this walk
    if seen is not None:
        seen.add(first.hex)
    while stack:
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if chain:
                in_chain.discard(chain.pop().id)
                used.difference_update(chain_keys.pop())
            continue
        path, _lane, target, ahead, lane, keys, repeat = step
        if repeat or not used.isdisjoint(keys):
            continue  # a leg never uses the same track twice
        steps += 1
        if steps > MAX_WALK_STEPS or steps_before + steps > MAX_BOARD_WALK_STEPS:
            index.steps = steps_before + steps
            raise BoardError(f"hexes[{first.hex}].nodes[{start}]",
                             f"the track branches into more than {MAX_WALK_STEPS:,} path steps from one node or "
                             f"{MAX_BOARD_WALK_STEPS:,} over the board (limit); no 18xx map has such track")
        pid = path.id
        if target is not None:  # the path ends at a node
            if target == start:
                continue
            node = nodes[target]
            if node.kind != "junction":  # a leg reached a stop
                legs.append(_leg(start, target, [*chain, path], keys.union(used)))  # a frozenset: kept as it is
                continue
            nexts = [way for way in entries.get((path.hex, None, target), ())  # the hex is read: the path is in it
                     if way[0].id not in in_chain and way[0].id != pid
                     and (allowed is None or way[0].track in allowed)]
        elif ahead is None:
            continue  # the board's edge
        else:
            if ahead[0] not in read_hexes:
                read(ahead[0])
            if seen is not None:
                seen.add(ahead[0])
            track = path.track
            nexts = [way for way in entries.get(ahead, ())  # one gauge and one lane meet at once (most track)
                     if way[0].id not in in_chain and way[0].id != pid
                     and (allowed is None or way[0].track in allowed)
                     and (way[0].track == track or gauges_fit(path, way[0]))
                     and ((lane == ONE_LANE and way[1] == ONE_LANE) or lanes_fit(lane, way[1]))]  # type: ignore[arg-type]
        if nexts:
            chain.append(path)
            chain_keys.append(keys)
            in_chain.add(pid)
            used.update(keys)
            stack.append(iter(nexts))
    index.steps = steps_before + steps
    return legs


def _leg(a: str, b: str, paths: list[Path], keys: Iterable[TrackKey]) -> Leg:
    """A Leg over these paths occupying `keys` (the walk's and the evaluator's)."""
    hexes: list[str] = []
    last = None
    for p in paths:
        if p.hex != last:
            last = p.hex
            hexes.append(last)
    crossings = len(hexes) - 1  # a crossing into each hex after the first
    inner = len(paths) > 2 and any(p.terminal for p in paths[1:-1])
    first, end = paths[0].terminal, paths[-1].terminal
    leg = _new(Leg)  # a frozen dataclass's __init__ sets each field through object.__setattr__: 3x slower
    leg.__dict__.update(a=a, b=b, paths=tuple([p.id for p in paths]), keys=frozenset(keys), hexes=tuple(hexes),
                        crossings=crossings, terminal_first=first, terminal_last=end, terminal_inner=inner,
                        has_terminal=first or end or inner)
    return leg


def walk_legs(board: Board, node_id: str, allowed_tracks: frozenset[str] | None = None,
              index: PathIndex | None = None) -> list[Leg]:
    """Every leg that starts at `node_id`; pass one `index` for many calls on one board. On a board read
    with a `HexReuse`, the walk from this node on a board read before is taken again when it read nothing
    that differs (`_walk_again`)."""
    index = index or PathIndex(board)
    if index.memo is None:
        return _walk(board, index, allowed_tracks, node_id)
    return _walk_again(board, index, index.memo, allowed_tracks, node_id)


def _walk_again(board: Board, index: PathIndex, memo: WalkMemo, allowed: frozenset[str] | None,
                start: str) -> list[Leg]:
    """The legs from `start` as `_walk` gives them, taken from `memo` when the walk kept there read hexes
    of the same track here (`walk_memo.track_of`: paths, node kinds and edges, neighbours) and the same
    neighbours of theirs are on the board: its very legs, its steps added to the board's. A walk past the
    board's limit of steps, or not kept, is walked (and kept); a walk that fails is not kept, so it fails
    again as it did."""
    key = (start, allowed)
    hexes = board.hexes
    walked = memo.get(key, board)
    if walked is not None and index.steps + walked.steps <= MAX_BOARD_WALK_STEPS:
        index.steps += walked.steps
        return list(walked.legs)
    seen: set[str] = set()
    before = index.steps
    legs = _walk(board, index, allowed, start, seen)
    read = [(hid, hexes[hid]) for hid in seen]
    around = {nb for _hid, hx in read for nb in hx.neighbors.values()}.difference(seen)
    tracks = tuple([(hid, hx, memo.track(board, hx)) for hid, hx in read])
    memo.put(key, Walked(tuple(legs), index.steps - before, tracks, tuple([(nb, nb in hexes) for nb in around])))
    return legs


REUSED_TRACK = "a leg uses the same track twice"


def leg_from_paths(board: Board, a: str, b: str, path_ids: list[str]) -> Leg | str:
    """Check that `path_ids` walk from node a to node b (in either listed order); the Leg, or why not
    (`REUSED_TRACK` when the chain connects but occupies some track twice). Each (a, b, path ids) is checked
    once per board (`solver.model.leg_checks`): asked again, the same answer (the very Leg) is given."""
    checks = checks_of(board)
    key = (a, b, tuple(path_ids))
    answer = checks.answers.get(key)
    if answer is None:
        answer = _check_leg(board, a, b, path_ids)
        checks.keep(key, answer)
    return answer


def _check_leg(board: Board, a: str, b: str, path_ids: list[str]) -> Leg | str:
    """`leg_from_paths`, checked."""
    if not path_ids:
        return "a leg needs at least one path"
    unknown = [pid for pid in path_ids if pid not in board.paths]
    if unknown:
        return f"unknown path {unknown[0]!r}"
    chain = [board.paths[pid] for pid in path_ids]
    why = _check_chain(board, a, b, chain)
    if not isinstance(why, str):
        return _leg(a, b, chain, why)
    back = _check_chain(board, a, b, chain[::-1])
    if not isinstance(back, str):
        return _leg(a, b, chain[::-1], back)
    return why


def _is(end: PathEnd, edge: int | None, node: str | None) -> bool:
    """Whether a path end is the end (edge, node)."""
    return end.edge == edge and end.node == node


def _check_chain(board: Board, a: str, b: str, chain: list[Path]) -> str | list[TrackKey]:
    """Why the chain does not walk from a to b, or the track keys it occupies. Path ends are compared
    by their fields (`_is`): a PathEnd made per comparison costs more than the whole check."""
    if len(set(p.id for p in chain)) != len(chain):
        return "a leg uses a path twice"
    first = chain[0]
    if not (_is(first.a, None, a) or _is(first.b, None, a)):
        return f"path {first.id} does not start at {a}"
    entered_a = _is(first.a, None, a)  # which end of the path the leg enters by (`Path.other`: a first)
    last_i = len(chain) - 1
    for i, p in enumerate(chain):
        exit_end = p.b if entered_a else p.a
        if i == last_i:
            if not _is(exit_end, None, b):
                return f"path {p.id} does not end at {b}"
            keys = [k for q in chain for k in path_keys(board, q)]
            return REUSED_TRACK if len(set(keys)) != len(keys) else keys
        q = chain[i + 1]
        if exit_end.node is not None:
            if board.nodes[exit_end.node].kind != "junction":
                return f"the leg passes through node {exit_end.node}"
            if q.hex != p.hex or not (_is(q.a, exit_end.edge, exit_end.node) or _is(q.b, exit_end.edge, exit_end.node)):
                return f"path {q.id} does not continue {p.id}"
            entered_a = _is(q.a, exit_end.edge, exit_end.node)
            continue
        nb = board.hexes[p.hex].neighbors.get(exit_end.edge)  # type: ignore[arg-type]
        edge2 = (exit_end.edge + 3) % 6  # type: ignore[operator]
        if nb is None or q.hex != nb or not (_is(q.a, edge2, None) or _is(q.b, edge2, None)):
            return f"path {q.id} does not continue {p.id} across edge {exit_end.edge} of {p.hex}"
        if not gauges_fit(p, q):
            return f"gauges of {p.id} ({p.track}) and {q.id} ({q.track}) do not fit"
        lane_out = p.lanes[0] if _is(p.a, exit_end.edge, exit_end.node) else p.lanes[1]  # `Path.lane_at`
        entered_a = _is(q.a, edge2, None)
        if not lanes_fit(lane_out, q.lanes[0] if entered_a else q.lanes[1]):
            return f"lanes of {p.id} and {q.id} do not meet"
    return "a leg needs at least one path"  # not reached: the loop returns at the last path
