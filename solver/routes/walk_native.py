"""`walk.enumerate_routes` (plain, with the two-train floors, or the one-train branch and bound), run by the
compiled walk (`solver/native/routewalk.c`): the same routes in the same order, kept as arrays (`WalkedShapes`) and
made `RouteShape`s only when read; the stop pay of every route summed per table in one pass
(`WalkedShapes.values`). The Python walk is the reference (the tests run both and compare them) and runs
wherever the kernel does not apply: a graph of under NATIVE_FROM_LEGS legs, classed or flood trains, more than
64 node groups, values beyond 64 bits, or no built kernel."""

from __future__ import annotations

import ctypes
import math
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, overload

import numpy as np

from solver.model.board import NODE_KINDS, Board, DistanceRow, Node, Train
from solver.model.cancel import CancelToken
from solver.model.legs import Leg
from solver.native import library
from solver.routes.leg_graph import LegGraph
from solver.routes.made_on_read import MadeOnRead
from solver.routes.route_bound import ReachBound
from solver.routes.route_shape import CHECK_EVERY, KIND_BITS, KIND_SHIFT, RouteShape, WalkRules

NODE_KINDS_LAYOUT = (20, 6)  # the route's kind code routewalk.c writes: 20 bits a kind, six kinds
# the routes the Python walk keeps per second, at most (about 250,000 on long 1870 walks; 140,000 on a dense
# board): under a deadline the kernel keeps no more, since the pricing and the packing after a walk cut short
# take every route it kept, at a few microseconds each
PYTHON_ROUTES_PER_SECOND = 250_000
# legs of the leg graph from which the kernel runs: on smaller graphs (the early game) the Python walk takes a
# tenth of a millisecond, less than making the kernel's tables (measured on the corpus: 0.09 against 0.26 ms
# below 40 legs, 0.5 against 0.4 ms from 40 to 80, 1.3 against 0.5 ms above)
NATIVE_FROM_LEGS = 40
MAX_CAP = 1 << 62  # a larger cap (or an infinite one) is no cap: the kernel counts in 64 bits
ABI = 4  # the version of `rm_walk`'s arguments this module passes (`rm_routewalk_abi`)
_P = ctypes.c_void_p
_I32, _I64 = ctypes.c_int32, ctypes.c_int64
_ON_KEPT = ctypes.CFUNCTYPE(_I64, _I64, _I32, ctypes.POINTER(_I32), ctypes.POINTER(_I32))  # routewalk.c's `Improve`
STOP = -(1 << 63)  # what `_ON_KEPT` gives to stop the walk (INT64_MIN)
MODE_PLAIN, MODE_FLOORS, MODE_IMPROVE = 0, 1, 2  # routewalk.c's modes
Improve = Callable[[RouteShape, tuple[int, ...]], int]  # `enumerate_routes`' `improve`


class _Out(ctypes.Structure):
    """`WalkOut` of routewalk.c."""

    _fields_ = [("nroutes", _I64), ("nentries", _I64), ("cap_routes", _I64), ("cap_entries", _I64),
                ("off", _P), ("nodes", _P), ("steps", _P), ("masks", _P), ("cross", _P), ("cost", _P),
                ("token", _P), ("codes", _P), ("stopped", _I32), ("failed", _I32), ("raised", _I32)]


def _kernel() -> ctypes.CDLL | None:
    lib = library("routewalk")
    if lib is None:
        return None
    try:  # a build of another version (a stale in-tree build) is not used
        version, walk, free, values = lib.rm_routewalk_abi, lib.rm_walk, lib.rm_walk_free, lib.rm_route_values
    except AttributeError:
        return None
    version.restype = _I32
    if version() != ABI:
        return None
    if walk.argtypes is None:  # `walk`'s types last: a thread that sees them sees the others' too
        free.restype = None
        free.argtypes = [ctypes.POINTER(_Out)]
        values.restype = None
        values.argtypes = [_I64, _P, _P, _I32, _I32, _P, _I32, _I32, _P, _P, _P, _P]
        walk.restype = ctypes.c_int
        walk.argtypes = [_I32, _I32, _I32, _I32, *[_P] * len(_WALK_ARRAYS), _I32, _P, _P,
                         _I32, _I32, _I32, _I32, _I32, _I32, _P, _P, _P, _I64, ctypes.c_double, _I64, _P, _I32, _I32,
                         *[_P] * len(_FLOOR_ARRAYS), _ON_KEPT, _I64, ctypes.POINTER(_Out)]
    return lib


def available() -> bool:
    """Whether the compiled walk is built and switched on."""
    return _kernel() is not None


def _ptr(a: np.ndarray) -> int:
    return a.ctypes.data


@dataclass(frozen=True)
class Gate:
    """The walk's distance test as the kernel runs it: every route passes (`always`), or one whose visit cost
    is within `sure_cost`, whose crossings are within `sure_cross` (hex trains), or whose visit cost per kind
    some list train's rows take (`lists`, each train's rows)."""

    always: bool
    sure_cost: int
    sure_cross: int
    lists: tuple[tuple[DistanceRow, ...], ...]


def _gate(trains: Sequence[Train]) -> Gate | None:
    """`walk._distance_gate` in the kernel's terms, or None where it must ask a train itself (a classed train
    counting stops, a flood train)."""
    if any(t.unit in ("none", "express") for t in trains):
        return Gate(True, -1, -1, ())
    if not all(t.unit == "hexes" or (t.unit in ("stops", "stops_by_type") and not t.klass) for t in trains):
        return None
    return Gate(False, max((t.distance for t in trains if t.unit == "stops"), default=-1),
                max((t.distance for t in trains if t.unit == "hexes"), default=-1),
                tuple(tuple(t.rows) for t in trains if t.unit == "stops_by_type"))


def walk_natively(board: Board, graph: LegGraph, trains: Sequence[Train], cap: int, deadline: float | None,
                  rules: WalkRules, cancel: CancelToken | None, bound: ReachBound | None = None,
                  floors: Sequence[tuple[int, int]] = (), improve: Improve | None = None, avoid: int = 0
                  ) -> tuple[WalkedShapes, bool] | None:
    """`enumerate_routes(board, graph, trains, cap, deadline, rules, cancel, bound, floors, improve, avoid)` by
    the kernel: the routes and whether the walk was complete; None where the kernel does not apply (a small
    graph, a bound with neither floors nor `improve`, trains it cannot measure) or is not built. A branch and bound
    (`improve`) walks in the plain order, so its routes are that order's: `improve` is handed each route
    with its place there, and gives the same best route (the first in that order of those earning most)."""
    if sum(map(len, graph.legs_from.values())) < NATIVE_FROM_LEGS:
        return None  # a small graph: the Python walk is done before the kernel's tables are made
    lib = _kernel()
    gate = _gate(trains)
    mode = MODE_PLAIN if bound is None else MODE_FLOORS if floors and improve is None else \
        MODE_IMPROVE if improve is not None and not floors else None
    if lib is None or gate is None or mode is None or NODE_KINDS_LAYOUT != (KIND_BITS, len(NODE_KINDS)) or \
            any(len(rows) > 64 or any(k not in NODE_KINDS for r in rows for k in r.kinds) for rows in gate.lists):
        return None
    cap = int(min(cap, MAX_CAP))
    if deadline is not None and math.isfinite(deadline) and improve is None:
        # no more routes than the Python walk would keep by then: the steps after it price every one
        cap = min(cap, max(1, int((deadline - time.monotonic()) * PYTHON_ROUTES_PER_SECOND)))
    nodes = board.nodes
    tables = _tables(board, graph, rules, avoid, bound)
    if tables is None:
        return None
    ids, index, order, step_legs, step_masks, tw, sw, n_hexes, arrays = tables
    starts = [s for s in graph.legs_from if s in rules.starts]
    bound_arrays = None if bound is None else _floor_arrays(bound, floors, step_legs, starts, nodes) if floors \
        else _improve_arrays(bound, step_legs, starts, nodes)
    if bound is not None:
        if bound_arrays is None:
            return None
        starts = bound_arrays.pop("starts")  # type: ignore[assignment]
    f = {**_NO_FLOORS, **(bound_arrays or {})}
    raised: list[BaseException] = []
    on_kept = _ON_KEPT(_pricing(improve, bound, board, ids, step_legs, step_masks, raised)) \
        if improve is not None and bound is not None else _ON_KEPT()
    start_at, firsts = np.array([[index[s] for s in starts], [order[s] for s in starts]] if starts else [[0], [0]],
                                dtype=np.int32)
    need_token = all(t.requires_token for t in trains)
    rows = [r for train_rows in gate.lists for r in train_rows]
    lists = {"lstart": np.asarray(np.cumsum([0, *map(len, gate.lists)]), dtype=np.int32),
             "rvisit": np.asarray([min(r.visit, 1 << 30) for r in rows] or [0], dtype=np.int32),
             "rkinds": np.asarray([sum(1 << NODE_KINDS.index(k) for k in set(r.kinds)) for r in rows] or [0],
                                  dtype=np.uint8)}
    out = _Out()
    cancelled = ctypes.c_int32(0)  # set by the token, from the thread that cancels; read by the kernel
    unregister = cancel.on_cancel(lambda: setattr(cancelled, "value", 1)) if cancel is not None else None
    a = arrays
    try:
        failed = lib.rm_walk(len(ids), sw, tw, n_hexes, *(_ptr(a[name]) for name in _WALK_ARRAYS), len(starts),
                             _ptr(start_at), _ptr(firsts), int(rules.one_per_hex), int(need_token), int(gate.always),
                             gate.sure_cost, gate.sure_cross, len(gate.lists), *(_ptr(lists[name]) for name in
                                                                                 ("lstart", "rvisit", "rkinds")),
                             cap, -1.0 if deadline is None else deadline, CHECK_EVERY,
                             ctypes.addressof(cancelled), mode, bound.distance if bound else 0,
                             *(_ptr(f[name]) for name in _FLOOR_ARRAYS), on_kept, -bound.const if bound else 0,
                             ctypes.byref(out))
    finally:
        if unregister is not None:
            unregister()
    if out.raised:  # the pricing raised: so does the walk, as the Python walk would
        lib.rm_walk_free(ctypes.byref(out))
        raise raised[0]
    if failed:  # out of memory: the Python walk
        return None
    # the shapes read the kernel's arrays where it wrote them (no copy), and free them when they go
    shapes = WalkedShapes(lib, board, ids, step_legs, tw, sw, out)
    weakref.finalize(shapes, lib.rm_walk_free, ctypes.byref(out))
    return shapes, not out.stopped


Tables = tuple[list[str], dict[str, int], dict[str, int], list[Leg], list[int], int, int, int, dict[str, np.ndarray]]


def _tables(board: Board, graph: LegGraph, rules: WalkRules, avoid: int, bound: ReachBound | None) -> Tables | None:
    """The walk's tables as `rm_walk` reads them: the node ids by number, each id's number, each start's order
    (by id), the steps (legs) from node 0 on, their track bits, the words of a track mask and of a node set,
    the number of hexes, and the arrays (`_WALK_ARRAYS`); None for more than 64 node groups. The rows of a
    kind are made one array at once (a numpy conversion costs more than the few values it converts)."""
    nodes = board.nodes
    ids = list(nodes)
    index = {nid: i for i, nid in enumerate(ids)}
    group_bit: dict[str, int] = {}
    node_groups: list[int] = []
    for n in nodes.values():
        bits = 0
        for g in n.groups:
            bits |= group_bit.setdefault(g, 1 << len(group_bit))
        node_groups.append(bits)
    if len(group_bit) > 64:
        return None
    hex_no: dict[str, int] = {}
    order = {nid: i for i, nid in enumerate(sorted(graph.legs_from))}
    visitable, masks = rules.visitable, graph.masks
    by_node = {index[nid]: [leg for leg in legs if leg.b in visitable and not masks[id(leg)] & avoid]
               for nid, legs in graph.legs_from.items()}
    step_legs: list[Leg] = []
    step_start = [0] * (len(ids) + 1)
    for i in range(len(ids)):
        step_legs.extend(by_node.get(i, ()))
        step_start[i + 1] = len(step_legs)
    step_masks = [masks[id(leg)] for leg in step_legs]
    tw = max(1, (max(step_masks, default=0).bit_length() + 63) // 64)
    sw = max(1, (len(ids) + 63) // 64)
    ends, passable = rules.ends, rules.passable
    vals = nodes.values()
    costs = [n.visit_cost for n in vals]
    # a route's visit cost as the walk counts it (with a list train's bound: its limiting row's stops)
    visits = costs if bound is None or bound.cost is None else [bound.cost.get(n.id, n.visit_cost) for n in vals]
    node_rows = np.array([visits, costs, [order.get(nid, -1) if nid in ends else -1 for nid in ids],
                          [hex_no.setdefault(n.hex, len(hex_no)) for n in vals],
                          [NODE_KINDS.index(n.kind) for n in vals]], dtype=np.int32)
    node_flags = np.array([[n.tokened_by_company for n in vals], [nid in passable for nid in ids]], dtype=np.uint8)
    sto, scross = np.array([[index[leg.b] for leg in step_legs], [leg.crossings for leg in step_legs]]
                           if step_legs else [[0], [0]], dtype=np.int32)
    arrays = {
        "sstart": np.array(step_start, dtype=np.int32), "sto": sto, "scross": scross,
        "smask": np.frombuffer(b"".join([m.to_bytes(tw * 8, "little") for m in step_masks]) or bytes(8 * tw),
                               dtype="<u8"),
        "sterm": np.array([_term_flags(leg) if leg.has_terminal else 0 for leg in step_legs] or [0], dtype=np.uint8),
        "nvisit": node_rows[0], "ncost": node_rows[1], "nend": node_rows[2], "nhex": node_rows[3],
        "nkind": node_rows[4], "ntok": node_flags[0], "npass": node_flags[1],
        "ngroups": np.array(node_groups, dtype=np.uint64),
    }
    return ids, index, order, step_legs, step_masks, tw, sw, len(hex_no), arrays


_WALK_ARRAYS = ("sstart", "sto", "scross", "smask", "sterm", "nvisit", "nend", "nhex", "nkind", "ncost", "ntok",
                "npass", "ngroups")  # `rm_walk`'s arrays, in its order


_FLOOR_ARRAYS = ("sweight", "sahead", "keep_need", "gstart", "gleft", "gneed", "start_values", "start_bounds")
_NO_FLOORS = {name: np.zeros(1, dtype=np.int64 if name not in ("gstart", "gleft") else np.int32)
              for name in _FLOOR_ARRAYS}
INT64_SAFE = 1 << 62  # a bound's values within this add up without overflow in the kernel


def _floor_arrays(bound: ReachBound, floors: Sequence[tuple[int, int]], step_legs: list[Leg], starts: list[str],
                  nodes: dict[str, Node]) -> dict[str, np.ndarray | list[str]] | None:
    """`enumerate_routes`' floors as the kernel reads them: per step what it adds and what a continuation
    adds per stops left, per visit cost the least a kept route adds up to and the classes it may grow for,
    and the starts a route earning a floor may leave from (with what each adds); None for values beyond
    64-bit integers."""
    longest, const = bound.distance, bound.const
    keep_need = [min((f - const for d, f in floors if d >= cost), default=INT64_SAFE) for cost in range(longest + 1)]
    grow_needs = [[(d - cost, f - const) for d, f in floors if d > cost] for cost in range(longest + 1)]
    sahead = _aheads(bound, step_legs)
    if sahead is False:
        return None
    kept = [(s, bound.node[s]) for s in starts if any(
        bound.node[s] + bound.start_ahead(s)[left] >= f
        for left, f in grow_needs[min(_visit_of(bound, nodes[s]), longest)])]
    gstart = [0]
    for needs in grow_needs:
        gstart.append(gstart[-1] + len(needs))
    arrays = {"sweight": _int64s([bound.node[leg.b] + bound.leg[id(leg)] for leg in step_legs]),
              "sahead": sahead, "keep_need": _int64s(keep_need),
              "gneed": _int64s([v for needs in grow_needs for _left, v in needs]),
              "start_values": _int64s([v for _s, v in kept])}
    if any(a is None for a in arrays.values()):
        return None
    return {**arrays, "gstart": np.asarray(gstart, dtype=np.int32),  # type: ignore[dict-item]
            "gleft": np.asarray([left for needs in grow_needs for left, _v in needs] or [0], dtype=np.int32),
            "starts": [s for s, _v in kept]}


def _improve_arrays(bound: ReachBound, step_legs: list[Leg], starts: list[str], nodes: dict[str, Node]
                    ) -> dict[str, np.ndarray | list[str]] | None:
    """A branch and bound's bound as the kernel reads it: per step what it adds and what a continuation adds
    per stops left, and per start what it adds and the most a route from it adds; None for values beyond
    64-bit integers."""
    longest = bound.distance
    sahead = _aheads(bound, step_legs)
    if sahead is False:
        return None
    values = [bound.node[s] for s in starts]
    most = [v + bound.start_ahead(s)[max(0, longest - _visit_of(bound, nodes[s]))] for s, v in zip(starts, values)]
    arrays = {"sweight": _int64s([bound.node[leg.b] + bound.leg[id(leg)] for leg in step_legs]),
              "sahead": sahead, "start_values": _int64s(values), "start_bounds": _int64s(most)}
    if any(a is None for a in arrays.values()) or abs(bound.const) > INT64_SAFE:
        return None
    return {**arrays, "starts": starts}  # type: ignore[dict-item]


def _aheads(bound: ReachBound, step_legs: list[Leg]) -> np.ndarray | None | Literal[False]:
    """Per step, what a continuation adds per stops left (`ReachBound.step_ahead`, its first `distance + 1`),
    one row after another as `_int64s` gives them; False when some step's list is shorter. Steps share
    their lists (parallel legs, a flat bound's one list): each list is read once."""
    longest = bound.distance
    row_of: dict[int, int] = {}  # id of a step's list -> its row
    rows: list[list[int]] = []
    at: list[int] = []
    ahead_of, otherwise = bound.ahead.get, bound.otherwise  # `ReachBound.step_ahead`, without a call per step
    for leg in step_legs:
        ahead = ahead_of((leg.a, leg.b), otherwise)
        row = row_of.get(id(ahead))
        if row is None:
            if len(ahead) < longest + 1:
                return False
            row = row_of[id(ahead)] = len(rows)
            rows.append(ahead if len(ahead) == longest + 1 else ahead[:longest + 1])
        at.append(row)
    table = _int64s(rows)
    if table is None or not rows:
        return table
    return table.reshape(len(rows), longest + 1)[at].ravel()


def _visit_of(bound: ReachBound, node: Node) -> int:
    """What a stop costs a walk with this bound: its visit cost, or what the bound counts (`ReachBound.cost`:
    a list train's limiting row)."""
    return node.visit_cost if bound.cost is None else bound.cost.get(node.id, node.visit_cost)


def _int64s(numbers: list[int] | list[list[int]]) -> np.ndarray | None:
    """Integers (or rows of as many) as a flat 64-bit array (one zero for none), or None for a number that
    is no integer or beyond what the kernel adds up without overflow."""
    try:
        found = np.asarray(numbers if len(numbers) and (not isinstance(numbers[0], list) or numbers[0]) else [0])
    except ValueError:  # rows of unequal length
        return None
    if found.dtype.kind not in "iu" or int(found.max()) > INT64_SAFE or int(found.min()) < -INT64_SAFE:
        return None  # a float, an integer beyond 64 bits (an object array), or too large
    return found.astype(np.int64).ravel()


def _pricing(improve: Improve, bound: ReachBound, board: Board, ids: list[str], step_legs: list[Leg],
             step_masks: list[int], raised: list[BaseException]) -> Callable[[int, int, object, object], int]:
    """The kernel's `Improve`: route k (its nodes and steps by number) made a `RouteShape` and handed to
    `improve` with its place (k, the plain walk order); the best price less the bound's constant, or STOP
    with what `improve` raised kept in `raised`."""
    nodes = board.nodes
    node_code = [n.visit_cost << KIND_SHIFT[n.kind] for n in nodes.values()]
    visit = [_visit_of(bound, n) for n in nodes.values()]  # the walk's cost (a list train's: its limiting row)
    tokened = [n.tokened_by_company for n in nodes.values()]
    crossings = [leg.crossings for leg in step_legs]

    def on_kept(k: int, n: int, node_at: ctypes.Array, step_at: ctypes.Array) -> int:
        try:
            at, steps = node_at[:n], step_at[:n - 1]
            mask = 0
            for s in steps:
                mask |= step_masks[s]
            shape = _new_shape(RouteShape, (
                tuple(map(ids.__getitem__, at)), tuple(map(step_legs.__getitem__, steps)), mask,
                sum(map(crossings.__getitem__, steps)), sum(map(visit.__getitem__, at)),
                any(map(tokened.__getitem__, at)), sum(map(node_code.__getitem__, at))))
            return improve(shape, (k,)) - bound.const
        except BaseException as exc:  # noqa: BLE001  handed to the caller once the kernel has stopped
            raised.append(exc)
            return STOP
    return on_kept


def _term_flags(leg: Leg) -> int:
    """A leg's terminal paths as routewalk.c's TERM_ flags (`Leg.may_stand`)."""
    if not leg.has_terminal:
        return 0
    return 1 | (2 if leg.terminal_inner else 0) | (4 if len(leg.paths) == 1 and leg.terminal_first else 0) \
        | (8 if leg.terminal_first else 0) | (16 if leg.terminal_last else 0)


_new_shape = tuple.__new__  # RouteShape(...) through its Python __new__ costs twice as much


def _objects(items: Sequence[object]) -> np.ndarray:
    """Python objects as a numpy array of one dimension (to pick many of them by number at once)."""
    out = np.empty(len(items), dtype=object)
    for i, item in enumerate(items):
        out[i] = item
    return out


def _view(address: int | None, count: int, dtype: type) -> np.ndarray:
    """The `count` values the kernel wrote at `address`, where they are (valid until its arrays are freed)."""
    if not count or not address:
        return np.zeros(0, dtype=dtype)
    kind = np.dtype(dtype)  # the bytes there as a buffer (`np.ctypeslib.as_array` costs five times as much)
    return np.frombuffer((ctypes.c_char * (count * kind.itemsize)).from_address(address), dtype=kind)


def shape_list(shapes: Sequence[RouteShape], stop: Callable[[], bool] | None = None) -> Sequence[RouteShape]:
    """The shapes of a walk as a list (a compiled walk's made a block at a time); with `stop`, until it says
    so (a deadline, a cancel): then the compiled walk's shapes, the rest made when read."""
    if not isinstance(shapes, WalkedShapes):
        return shapes
    return shapes.made if shapes.make_all(stop) else shapes  # type: ignore[return-value]


MAKE_BLOCK = 4096  # routes made at once (`WalkedShapes.make_all`) between looks at the clock and the cancel token


class WalkedShapes(MadeOnRead[RouteShape]):
    """The routes of a compiled walk, in order: arrays, each made a `RouteShape` when first read, or a block
    at a time (`make_all`: cheaper when most are read)."""

    def __init__(self, lib: ctypes.CDLL, board: Board, ids: list[str], step_legs: list[Leg], tw: int, sw: int,
                 out: _Out) -> None:
        n, entries = int(out.nroutes), int(out.nentries)
        self.lib, self.ids, self.tw, self.sw = lib, ids, tw, sw  # the kernel that walked (`values` runs it too)
        # the kernel's arrays, read where it wrote them (the walk frees them with these shapes)
        self.off_array = _view(out.off, n + 1, np.int32) if n else np.zeros(1, dtype=np.int32)
        self.node_array = _view(out.nodes, entries, np.int32)
        self.step_array = _view(out.steps, entries - n, np.int32)
        self.masks = memoryview(_view(out.masks, n * tw, np.uint64)).cast("B")
        self.cross_array, self.cost_array = _view(out.cross, n, np.int32), _view(out.cost, n, np.int32)
        self.token_array, self.codes = _view(out.token, n, np.uint8), _view(out.codes, 2 * n, np.uint64)
        self._step_legs = step_legs
        self._objects: tuple[np.ndarray, np.ndarray] | None = None  # the ids and legs to pick by number
        self._mask_bytes: bytes | None = None  # `masks` copied, when first read
        self._number: dict[str, int] | None = None  # node id -> its number (`numbers`), when first asked
        self.made: list[RouteShape | None] = [None] * n

    def distinct_codes(self) -> tuple[list[int], np.ndarray]:
        """The routes' distinct kind codes (`RouteShape.kinds`), and per route the place of its code among them."""
        pairs = self.codes.reshape(-1, 2)
        if not pairs[:, 1].any():
            found, at = np.unique(pairs[:, 0], return_inverse=True)
            return found.tolist(), at.ravel()
        found, at = np.unique(pairs, axis=0, return_inverse=True)
        return [lo | hi << 64 for lo, hi in found.tolist()], at.ravel()

    def kind_codes(self) -> list[int]:
        """Per route, its kind code (`RouteShape.kinds`)."""
        lo, hi = self.codes.reshape(-1, 2).T
        if not hi.any():
            return lo.tolist()
        return [a | b << 64 if b else a for a, b in zip(lo.tolist(), hi.tolist())]

    def mask(self, k: int) -> int:
        """Route k's track bits."""
        return self.masks_of([k])[0]

    def masks_of(self, ks: Sequence[int]) -> list[int]:
        """The track bits of these routes."""
        if self._mask_bytes is None:  # a copy: bytes slice faster than the kernel's memory
            self._mask_bytes = self.masks.tobytes()
        size, data, from_bytes = 8 * self.tw, self._mask_bytes, int.from_bytes
        return [from_bytes(data[k * size:(k + 1) * size], "little") for k in ks]

    def mask_rows(self, ks: Sequence[int]) -> np.ndarray:
        """The track bits of these routes, a row of words each."""
        return np.frombuffer(self.masks, dtype=np.uint64).reshape(-1, self.tw)[np.asarray(ks, dtype=np.int64)]

    def make(self, ks: np.ndarray) -> None:
        """Make the shapes of these routes (ascending numbers; those made already are made again alike)."""
        if not len(ks):
            return
        starts, stops = self.off_array[ks], self.off_array[ks + 1]
        lengths = stops - starts
        # the entries of every route one after another: route i's from starts[i], and its legs from starts[i] - k
        first = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(int(lengths.sum()))
        if self._objects is None:
            self._objects = _objects(self.ids), _objects(self._step_legs)
        id_objects, leg_objects = self._objects
        node_ids = id_objects[self.node_array[first]].tolist()
        leg_first = np.repeat(starts - ks - np.cumsum(lengths - 1) + lengths - 1, lengths - 1) + \
            np.arange(int((lengths - 1).sum()))
        legs = leg_objects[self.step_array[leg_first]].tolist()
        codes = self.codes.reshape(-1, 2)[ks].tolist()
        cross, cost = self.cross_array[ks].tolist(), self.cost_array[ks].tolist()
        token = self.token_array[ks].astype(bool).tolist()
        made, at, leg_at = self.made, 0, 0
        for i, (k, n, mask) in enumerate(zip(ks.tolist(), lengths.tolist(), self.masks_of(ks.tolist()))):
            lo, hi = codes[i]
            made[k] = _new_shape(RouteShape, (tuple(node_ids[at:at + n]), tuple(legs[leg_at:leg_at + n - 1]), mask,
                                              cross[i], cost[i], token[i], lo | hi << 64 if hi else lo))
            at, leg_at = at + n, leg_at + n - 1

    def _make(self, start: int, stop: int) -> None:
        """Make the shapes of routes start..stop-1 not made yet."""
        ks = np.arange(start, stop, dtype=np.int64)
        self.make(ks[[self.made[k] is None for k in range(start, stop)]])

    def make_all(self, stop: Callable[[], bool] | None = None) -> bool:
        """Make every route's shape, a block at a time, asking `stop` before each. Whether all are made."""
        n = len(self.made)
        for start in range(0, n, MAKE_BLOCK):
            if stop is not None and stop():
                return False
            self._make(start, min(n, start + MAKE_BLOCK))
        return True

    def made_all(self) -> list[RouteShape]:
        """Every route made a `RouteShape`, in order."""
        self.make_all()
        return self.made  # type: ignore[return-value]

    def __iter__(self) -> Iterator[RouteShape]:
        return iter(self.made_all())

    def make_item(self, k: int) -> RouteShape:
        """Route k's shape, made alone."""
        self.make(np.asarray([k], dtype=np.int64))
        return self.made[k]  # type: ignore[return-value]

    def leg_sums(self, weight: Callable[[Leg], int]) -> np.ndarray:
        """Per route, the weights of its legs summed (each leg weighed once)."""
        per_step = np.asarray([weight(leg) for leg in self._step_legs] or [0], dtype=np.int64)
        n = len(self)
        if not n:
            return np.zeros(0, dtype=np.int64)
        summed = np.concatenate(([0], np.cumsum(per_step[self.step_array])))  # of the steps before each
        ends = self.off_array[:n + 1] - np.arange(n + 1)  # route k's steps: from ends[k] to ends[k + 1] - 1
        return summed[ends[1:]] - summed[ends[:-1]]

    def row(self, pay: dict[str, int]) -> list[int]:
        """What each node pays by its number (`values`' table), from a table by node id (0 where it has none)."""
        return [pay.get(nid, 0) for nid in self.ids]

    def numbers(self, node_ids: Iterable[str]) -> list[int]:
        """The numbers of these nodes (`values`' tests), leaving out those no route of the walk has."""
        if self._number is None:
            self._number = {nid: i for i, nid in enumerate(self.ids)}
        number = self._number
        return [number[n] for n in node_ids if n in number]

    def top_sums(self, tables: Sequence[tuple[Sequence[int], int | None]]) -> np.ndarray | None:
        """Per route, summed over the tables (each a value per node number), the sum of the `count` largest
        values its stops take in the table (None: all of them; with a count, no value may be below 0, so a
        route padded with zeros has the same best values); None for sums beyond 64-bit integers."""
        n = len(self)
        lengths = np.diff(self.off_array)
        longest = int(lengths.max()) if n else 0
        if any(max(map(abs, table), default=0) * longest >= INT64_SAFE // max(1, len(tables)) for table, _c in tables):
            return None
        whole = [table for table, count in tables if count is None or count >= longest]
        total = self.values(whole, [], arrays=True)[0].sum(axis=0) if whole else np.zeros(n, dtype=np.int64)
        partial = [(table, count) for table, count in tables if count is not None and count < longest]
        if partial:  # the routes' values a row each, padded with zeros, sorted: the last `count` columns
            route_of = np.repeat(np.arange(n), lengths)
            column = np.arange(len(self.node_array)) - np.repeat(self.off_array[:-1], lengths)
            for table, count in partial:
                padded = np.zeros((n, longest), dtype=np.int64)
                padded[route_of, column] = np.asarray(table, dtype=np.int64)[self.node_array]
                padded.sort(axis=1)
                total += padded[:, longest - count:].sum(axis=1)
        return total

    @overload
    def values(self, tables: Sequence[Sequence[int]], tests: Sequence[tuple[Sequence[int], bool]]
               ) -> tuple[list[list[int]], list[int]]: ...

    @overload
    def values(self, tables: Sequence[Sequence[int]], tests: Sequence[tuple[Sequence[int], bool]], arrays: bool
               ) -> tuple[np.ndarray, np.ndarray]: ...

    def values(self, tables: Sequence[Sequence[int]], tests: Sequence[tuple[Sequence[int], bool]],
               arrays: bool = False) -> tuple[list[list[int]], list[int]] | tuple[np.ndarray, np.ndarray]:
        """Per route, what its stops pay summed per table (each a value per node number), and per route the
        tests it fails as bits (a test: node numbers, and whether only a route's ends are looked at); as lists,
        or with `arrays` as numpy arrays (values: a row per table)."""
        lib = self.lib
        assert len(tests) <= 64
        n, nn = len(self), len(self.ids)
        table_rows = np.asarray(tables, dtype=np.int64).reshape(len(tables), nn) if tables else np.zeros(1, np.int64)
        sets = np.zeros((max(1, len(tests)), self.sw), dtype=np.uint64)
        for t, (members, _ends) in enumerate(tests):
            for i in members:
                sets[t, i >> 6] |= np.uint64(1 << (i & 63))
        ends_only = np.asarray([e for _m, e in tests] or [0], dtype=np.uint8)
        values = np.zeros((max(1, n), max(1, len(tables))), dtype=np.int64)
        hits = np.zeros(max(1, n), dtype=np.uint64)
        lib.rm_route_values(n, _ptr(self.off_array), _ptr(self.node_array) if n else 0, nn, len(tables),
                            _ptr(table_rows), len(tests), self.sw, _ptr(sets), _ptr(ends_only), _ptr(values),
                            _ptr(hits))
        if arrays:  # per table a row of values per route
            return np.ascontiguousarray(values[:n, :len(tables)].T), hits[:n]
        return values[:n, :len(tables)].T.tolist(), hits[:n].tolist()
