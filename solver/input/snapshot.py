"""Read `18xx-route-snapshot/1` objects (see the corpus FORMAT.md) into the board model."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain, compress, count
from operator import is_not
from pathlib import Path as FsPath
from typing import Any

from solver import rulesets
from solver.input.hex_reuse import HexReuse, Known, LastBoard
from solver.input.validate import validate_board
from solver.model.board import NODE_KINDS, Board, DistanceRow, Hex, Node, Path, PathEnd, Token, Train
from solver.model.errors import BoardError
from solver.model.jsonread import (
    boolean,
    field,
    file_value,
    integer,
    kind_of,
    label_of,
    loads,
    lst,
    number,
    obj,
    str_list,
    text,
)
from solver.model.limits import (
    MAX_DISTANCE,
    MAX_GROUPS,
    MAX_HEXES,
    MAX_ID_LENGTH,
    MAX_LANE_WIDTH,
    MAX_MULTIPLIER,
    MAX_NODES,
    MAX_PATHS,
    MAX_REVENUE,
    MAX_SLOTS,
    MAX_TRAINS,
    MAX_VISIT_COST,
)
from solver.modifiers.parse import modifiers_from_json

SNAPSHOT_FORMAT = "18xx-route-snapshot/1"


@dataclass
class Position:
    """One snapshot as read from a file: the raw object and where it came from."""

    source: str
    raw: dict[str, Any] | None
    error: str | None = None


def _end(value: Any, where: str) -> PathEnd:
    if isinstance(value, bool):
        raise BoardError(where, f"must be an edge number or a node id, got {kind_of(value)}")
    if isinstance(value, int):
        return PathEnd(edge=integer(value, where, 0, 5))
    if isinstance(value, str) and value:
        return PathEnd(node=text(value, where))
    raise BoardError(where, f"must be an edge number or a node id, got {kind_of(value)}")


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _flag(raw: dict[str, Any], key: str, where: str, default: bool = False) -> bool:
    value = raw.get(key, default)
    if value is True or value is False:  # the common case, without building the field's name
        return value
    return boolean(field(raw, key, where, default), _at(where, key))


def _str(raw: dict[str, Any], key: str, where: str, default: str = "", non_empty: bool = False) -> str:
    """A string field; an empty string means the default, as an unset protobuf field does."""
    value = raw.get(key)
    if value.__class__ is str and value and len(value) <= MAX_ID_LENGTH:  # the common case, checked below otherwise
        return value
    if value is None and not non_empty and key not in raw:  # absent: the default
        return default
    if non_empty and key not in raw:
        raise BoardError(_at(where, key), "missing")
    value = text(field(raw, key, where, default), _at(where, key), non_empty=non_empty)
    return value or default


def _int(raw: dict[str, Any], key: str, where: str, default: int, lo: int, hi: int) -> int:
    value = raw.get(key, default)
    if value.__class__ is int and lo <= value <= hi:  # the common case (a boolean's class is bool)
        return value
    return integer(field(raw, key, where, default), _at(where, key), lo, hi)


def _lanes(raw: dict[str, Any], where: str) -> tuple[tuple[int, int], tuple[int, int]]:
    value = field(raw, "lanes", where, [])
    at = where + ".lanes"
    if value == []:
        return (1, 0), (1, 0)
    pairs = lst(value, at)
    if len(pairs) != 2:
        raise BoardError(at, f"give two [width, index] pairs, got {len(pairs)} entries")
    out = []
    for i, pair in enumerate(pairs):
        pair = lst(pair, f"{at}[{i}]")
        if len(pair) != 2:
            raise BoardError(f"{at}[{i}]", "must be [width, index]")
        out.append((integer(pair[0], f"{at}[{i}][0]", 1, MAX_LANE_WIDTH),
                    integer(pair[1], f"{at}[{i}][1]", 0, MAX_LANE_WIDTH - 1)))
    return out[0], out[1]


_EDGE_ENDS = {e: PathEnd(edge=e) for e in range(6)}  # frozen: one instance per edge serves every path
_PLAIN_LANES = ((1, 0), (1, 0))


_new = object.__new__  # a frozen dataclass's __init__ sets each field through object.__setattr__: 4x slower


def _plain_end(value: Any) -> PathEnd | None:
    """A well-formed path end read directly; None when it needs the checked reading."""
    if value.__class__ is int:
        return _EDGE_ENDS.get(value)
    if value.__class__ is str and value and len(value) <= MAX_ID_LENGTH:
        end = _new(PathEnd)
        end.__dict__.update(edge=None, node=value)
        return end
    return None


def _plain_flag(raw: dict[str, Any], key: str) -> bool | None:
    value = raw.get(key, False)
    return value if value is True or value is False else None


def _plain_path(raw: dict[str, Any], hex_id: str) -> Path | None:
    """The common, well-formed path read without naming its fields; None when any field needs the
    checked reading of `_path` (which then names the field at fault)."""
    pid, track, lanes = raw.get("id"), raw.get("track", "broad"), raw.get("lanes", [])
    a, b = _plain_end(raw.get("a")), _plain_end(raw.get("b"))
    terminal, ignore = _plain_flag(raw, "terminal"), _plain_flag(raw, "ignore")
    ignore_gauge_walk = _plain_flag(raw, "ignore_gauge_walk")
    if (a is None or b is None or terminal is None or ignore is None or ignore_gauge_walk is None or lanes != []
            or pid.__class__ is not str or not pid or len(pid) > MAX_ID_LENGTH
            or track.__class__ is not str or not track or len(track) > MAX_ID_LENGTH):
        return None
    path = _new(Path)  # as Path(...) does, without its frozen __init__
    path.__dict__.update(id=pid, hex=hex_id, a=a, b=b, track=track, lanes=_PLAIN_LANES, terminal=terminal,
                         ignore=ignore, ignore_gauge_walk=ignore_gauge_walk)
    return path


def _path(raw: Any, hex_id: str, index: int) -> Path:
    if raw.__class__ is dict:
        plain = _plain_path(raw, hex_id)
        if plain is not None:
            return plain
    where = f"hexes[{hex_id}].paths[{label_of(raw, index)}]"
    raw = obj(raw, where)
    return Path(
        id=_str(raw, "id", where, non_empty=True), hex=hex_id,
        a=_end(field(raw, "a", where), where + ".a"), b=_end(field(raw, "b", where), where + ".b"),
        track=_str(raw, "track", where, "broad"), lanes=_lanes(raw, where),
        terminal=_flag(raw, "terminal", where), ignore=_flag(raw, "ignore", where),
        ignore_gauge_walk=_flag(raw, "ignore_gauge_walk", where),
    )


def _token(raw: Any, where: str) -> Token | None:
    if raw is None:
        return None  # an empty slot
    raw = obj(raw, where)
    return Token(corp=_str(raw, "corp", where), status=_str(raw, "status", where, "active"),
                 type=_str(raw, "type", where, "normal"))


def _near_edge(raw: dict[str, Any], where: str) -> float | None:
    """A town's edge (0..5), or a half edge such as 5.5 between two edges; None when not given."""
    value = field(raw, "near_edge", where, None, nullable=True)
    if value is None:
        return None
    edge = number(value, where + ".near_edge", 0, 5.5)
    if edge * 2 != int(edge * 2):
        raise BoardError(where + ".near_edge", f"must be an edge 0..5 or a half edge such as 5.5, got {edge}")
    return int(edge) if edge == int(edge) else edge


def _plain_text(raw: dict[str, Any], key: str, default: str) -> str | None:
    """A string field read directly: absent is the default, a non-empty string itself; else None."""
    value = raw.get(key)
    if value is None:
        return None if key in raw else default
    return value if value.__class__ is str and value and len(value) <= MAX_ID_LENGTH else None


def _plain_int(raw: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int | None:
    value = raw.get(key, default)
    return value if value.__class__ is int and lo <= value <= hi else None


def _plain_tokens(raw: dict[str, Any]) -> list[Token | None] | None:
    """Token slots read directly (empty slots and tokens of plain strings); None otherwise."""
    value = raw.get("tokens", [])
    if value.__class__ is not list or len(value) > MAX_SLOTS:
        return None
    out: list[Token | None] = []
    for t in value:
        if t is None:
            out.append(None)
            continue
        if t.__class__ is not dict:
            return None
        corp, status = _plain_text(t, "corp", ""), _plain_text(t, "status", "active")
        kind = _plain_text(t, "type", "normal")
        if corp is None or status is None or kind is None:
            return None
        out.append(Token(corp=corp, status=status, type=kind))
    return out


_NODE_TEXTS = (("sig", "sig"), ("klass", "class"), ("token_class", "token_class"), ("country", "country"),
               ("exchange_owner", "exchange_owner"))


def _plain_node(raw: dict[str, Any], hex_id: str) -> Node | None:
    """The common, well-formed node read without naming its fields; None when any field needs the
    checked reading of `_node` (which then names the field at fault)."""
    if "h1873" in raw or raw.get("revenue_by_train", {}) != {} or raw.get("groups", []) != []:
        return None
    near_edge = raw.get("near_edge")
    if near_edge is not None and not (near_edge.__class__ is int and 0 <= near_edge <= 5):
        return None
    fields = {"id": _plain_text(raw, "id", ""), "kind": _plain_text(raw, "kind", ""),
              "revenue": _plain_int(raw, "revenue", 0, -MAX_REVENUE, MAX_REVENUE),
              "visit_cost": _plain_int(raw, "visit_cost", 1, 0, MAX_VISIT_COST),
              "route": _plain_text(raw, "route", "mandatory"), "slots": _plain_int(raw, "slots", 0, 0, MAX_SLOTS),
              "tokens": _plain_tokens(raw), "blocks": _plain_flag(raw, "blocks"),
              "terminal": _plain_flag(raw, "terminal"), "tokened_by_company": _plain_flag(raw, "tokened_by_company")}
    for name, key in _NODE_TEXTS:
        fields[name] = _plain_text(raw, key, "")
    if None in fields.values() or not fields["id"] or not fields["kind"]:
        return None
    return Node(hex=hex_id, near_edge=near_edge, **fields)


def _node(raw: Any, hex_id: str, index: int) -> Node:
    if raw.__class__ is dict:
        plain = _plain_node(raw, hex_id)
        if plain is not None:
            return plain
    where = f"hexes[{hex_id}].nodes[{label_of(raw, index)}]"
    raw = obj(raw, where)
    by_train = obj(field(raw, "revenue_by_train", where, {}), where + ".revenue_by_train")
    extra = {"h1873": obj(raw["h1873"], where + ".h1873")} if "h1873" in raw else {}
    return Node(
        id=_str(raw, "id", where, non_empty=True), hex=hex_id, kind=_str(raw, "kind", where, non_empty=True),
        revenue=_int(raw, "revenue", where, 0, -MAX_REVENUE, MAX_REVENUE),
        revenue_by_train={text(k, f"{where}.revenue_by_train", non_empty=True):
                          integer(v, f"{where}.revenue_by_train.{k}", -MAX_REVENUE, MAX_REVENUE)
                          for k, v in by_train.items()},
        visit_cost=_int(raw, "visit_cost", where, 1, 0, MAX_VISIT_COST),
        route=_str(raw, "route", where, "mandatory"),
        groups=tuple(str_list(field(raw, "groups", where, []), where + ".groups", MAX_GROUPS)),
        slots=_int(raw, "slots", where, 0, 0, MAX_SLOTS),
        tokens=[_token(t, f"{where}.tokens[{i}]")
                for i, t in enumerate(lst(field(raw, "tokens", where, []), where + ".tokens", MAX_SLOTS))],
        blocks=_flag(raw, "blocks", where), terminal=_flag(raw, "terminal", where),
        tokened_by_company=_flag(raw, "tokened_by_company", where), near_edge=_near_edge(raw, where),
        sig=_str(raw, "sig", where), klass=_str(raw, "class", where), token_class=_str(raw, "token_class", where),
        country=_str(raw, "country", where), exchange_owner=_str(raw, "exchange_owner", where), extra=extra,
    )


def _row(raw: Any, where: str) -> DistanceRow:
    raw = obj(raw, where)
    kinds = tuple(str_list(field(raw, "nodes", where), where + ".nodes", len(NODE_KINDS)))
    pay = _int(raw, "pay", where, 0, 0, MAX_DISTANCE)
    return DistanceRow(kinds=kinds, pay=pay, visit=_int(raw, "visit", where, pay, 0, MAX_DISTANCE),
                       multiplier=_int(raw, "multiplier", where, 1, 0, MAX_MULTIPLIER))


def _train(raw: Any, index: int) -> Train:
    where = f"trains[{index}]"
    raw = obj(raw, where)
    unit = _str(raw, "distance_unit", where, "stops")
    if "distance" not in raw and unit != "flood":
        raise BoardError(f"{where}.distance", "missing: how far the train runs")
    dist = field(raw, "distance", where, 0)
    rows: tuple[DistanceRow, ...] = ()
    if isinstance(dist, list) != (unit == "stops_by_type"):
        raise BoardError(where + ".distance", f"a list of rows goes with distance_unit 'stops_by_type' (and only "
                                              f"with it); distance_unit is {unit!r}")
    if isinstance(dist, list):
        rows = tuple(_row(r, f"{where}.distance[{j}]") for j, r in enumerate(lst(dist, where + ".distance", 8)))
        dist = sum(r.visit for r in rows)
    else:
        dist = integer(dist, where + ".distance", 0, MAX_DISTANCE)
    extra = []
    if "super" in raw:
        extra.append(("super", text(raw["super"], where + ".super")))
    if "diesel" in raw:
        extra.append(("diesel", boolean(raw["diesel"], where + ".diesel")))
    if "type" in raw:
        extra.append(("type", text(raw["type"], where + ".type")))
    train_id = _str(raw, "id", where, non_empty=True)
    return Train(id=train_id, name=_str(raw, "name", where, train_id), unit=unit, distance=dist, rows=rows,
                 multiplier=_int(raw, "multiplier", where, 1, 1, MAX_MULTIPLIER), local=_flag(raw, "local", where),
                 requires_token=_flag(raw, "requires_token", where, True), klass=_str(raw, "class", where),
                 by_hex=_flag(raw, "by_hex", where), extra=tuple(sorted(extra)))


_EDGES = {str(e): e for e in range(6)}


def _neighbors(raw: dict[str, Any], where: str) -> dict[int, str]:
    at = where + ".neighbors"
    out: dict[int, str] = {}
    for key, other in obj(field(raw, "neighbors", where, {}), at).items():
        edge = _EDGES.get(key)
        if edge is None:
            raise BoardError(f"{at}[{key[:20]!r}]", "an edge must be one of '0'..'5'")
        if other.__class__ is str and other and len(other) <= MAX_ID_LENGTH:
            out[edge] = other
        else:
            out[edge] = text(other, f"{at}[{key}]", non_empty=True)
    return out


def _plain_hex(raw: dict[str, Any]) -> Hex | None:
    """The common, well-formed hex (without its nodes and paths) read without naming its fields; None
    when any field needs the checked reading of `_checked_hex` (which then names the field at fault)."""
    hid, neighbors = raw.get("id"), raw.get("neighbors", {})
    if hid.__class__ is not str or not hid or len(hid) > MAX_ID_LENGTH or neighbors.__class__ is not dict \
            or "h1873" in raw:
        return None
    by_edge: dict[int, str] = {}
    for key, other in neighbors.items():
        edge = _EDGES.get(key)
        if edge is None or other.__class__ is not str or not other or len(other) > MAX_ID_LENGTH:
            return None
        by_edge[edge] = other
    tile, color = _plain_text(raw, "tile", ""), _plain_text(raw, "color", "")
    location, framed = _plain_text(raw, "location", ""), _plain_flag(raw, "framed")
    if tile is None or color is None or location is None or framed is None:
        return None
    return Hex(id=hid, neighbors=by_edge, tile=tile, color=color, framed=framed, location=location)


def _checked_hex(raw: Any, index: int, hexes: dict[str, Hex]) -> Hex:
    """A hex (without its nodes and paths) read field by field: a BoardError names the first field out of spec."""
    where = f"hexes[{label_of(raw, index)}]"
    raw = obj(raw, where)
    hid = _str(raw, "id", where, non_empty=True)
    _new_hex_id(hid, hexes)
    return Hex(id=hid, neighbors=_neighbors(raw, where), tile=_str(raw, "tile", where),
               color=_str(raw, "color", where), framed=_flag(raw, "framed", where),
               location=_str(raw, "location", where),
               extra={"h1873": obj(raw["h1873"], where + ".h1873")} if "h1873" in raw else {})


def _entries(raw: dict[str, Any], index: int, key: str, limit: int) -> list[Any]:
    """A hex's list of nodes or paths (an absent list is empty), at most `limit` long."""
    value = raw.get(key, [])
    if value.__class__ is list and len(value) <= limit:
        return value
    where = f"hexes[{label_of(raw, index)}]"
    return lst(field(raw, key, where, []), f"{where}.{key}", limit)


def _hex(raw: Any, index: int, hexes: dict[str, Hex], nodes: dict[str, Node], paths: dict[str, Path],
         reuse: HexReuse | None = None) -> None:
    """Read one raw hex (or take its reading from `reuse`) and add it, its nodes and its paths to the board;
    ids are checked as they are added, nodes first."""
    key, known = reuse.find(raw) if reuse is not None and raw.__class__ is dict else (None, None)
    if known is not None:
        _add_known(known, hexes, nodes, paths)
        return
    hx = _plain_hex(raw) if raw.__class__ is dict else None
    if hx is None:
        hx = _checked_hex(raw, index, hexes)
    else:
        _new_hex_id(hx.id, hexes)
    hid = hx.id
    for i, rn in enumerate(_entries(raw, index, "nodes", MAX_NODES)):
        hx.nodes.append(_put(hid, "node", _node(rn, hid, i), nodes))
    paths_key = reuse.paths_key(raw) if key is not None else b""  # type: ignore[union-attr]
    same = reuse.same_paths(hid, paths_key) if key is not None else None  # type: ignore[union-attr]
    if same is not None:  # the paths of this hex's last reading, read from the same raw paths
        for path in same:
            hx.paths.append(_put(hid, "path", path, paths))
    else:
        for i, rp in enumerate(_entries(raw, index, "paths", MAX_PATHS)):
            hx.paths.append(_put(hid, "path", _path(rp, hid, i), paths))
    hexes[hid] = hx
    if key is not None:
        reuse.keep(key, (hx, tuple(nodes[n] for n in hx.nodes), tuple(paths[p] for p in hx.paths)), raw,  # type: ignore[union-attr]
                   paths_key)


def _add_known(known: Known, hexes: dict[str, Hex], nodes: dict[str, Node], paths: dict[str, Path]) -> None:
    """A hex read before (`HexReuse`) added to the board, with the checks `_hex` makes as it adds one."""
    hx, hx_nodes, hx_paths = known
    _new_hex_id(hx.id, hexes)
    for node in hx_nodes:
        _put(hx.id, "node", node, nodes)
    for path in hx_paths:
        _put(hx.id, "path", path, paths)
    hexes[hx.id] = hx


def _new_hex_id(hid: str, hexes: dict[str, Hex]) -> None:
    if hid in hexes:
        raise BoardError(f"hexes[{hid}].id", "duplicate hex id")


def _put(hid: str, kind: str, item: Any, into: dict[str, Any]) -> str:
    """Add a node or a path of hex `hid` to the board's (`kind`: "node" or "path"); its id, new on the board."""
    if item.id in into:
        raise BoardError(f"hexes[{hid}].{kind}s[{item.id}].id", f"duplicate {kind} id")
    into[item.id] = item
    return item.id


def read_hexes(raw: Any, where: str) -> tuple[dict[str, Hex], dict[str, Node], dict[str, Path]]:
    """Hexes in snapshot form (a list of `hexes[]` objects) with their nodes and paths, read strictly
    (the what-if track scenarios: a tile laid in a hex). Errors name the field under `where`."""
    hexes: dict[str, Hex] = {}
    nodes: dict[str, Node] = {}
    paths: dict[str, Path] = {}
    try:
        for i, raw_hex in enumerate(lst(raw, where, MAX_HEXES)):
            _hex(raw_hex, i, hexes, nodes, paths)
    except BoardError as exc:
        raise BoardError(exc.field if exc.field.startswith(where) else f"{where}.{exc.field}", exc.message) from None
    return hexes, nodes, paths


def _revenue_model(snap: dict[str, Any]) -> str:
    return text(field(snap, "revenue_model", "", ""), "revenue_model")


def read_source(snap: dict[str, Any]) -> dict[str, Any]:
    """The `source` block: copied, with the fields a message or the protocol reads checked."""
    source = dict(obj(field(snap, "source", "", {}), "source"))
    for key in ("title", "fixture"):
        if key in source:
            text(source[key], f"source.{key}", max_len=1000)
    if "action_id" in source:
        integer(source["action_id"], "source.action_id", 0, 2**62)
    if "position" in source:
        integer(source["position"], "source.position", 0, 2**31 - 1)
    return source


def _options(snap: dict[str, Any]) -> dict[str, Any]:
    """Ruleset request options: the ones the protocol's RulesOptions carries, with its types."""
    raw = obj(field(snap, "options", "", {}), "options")
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key == "port_token":
            out[key] = text(value, "options.port_token")
        elif key in ("location_bonus", "towns_plus_10", "port_token_own", "classes_share_track"):
            out[key] = boolean(value, f"options.{key}")
        else:
            raise BoardError(f"options.{key[:40]}", "unknown option; known: location_bonus, towns_plus_10, "
                                                    "port_token, port_token_own, classes_share_track")
    return {k: v for k, v in out.items() if v}


def _company(snap: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]], list[str]]:
    company = obj(field(snap, "company", "", {}), "company")
    tokens = []
    for i, t in enumerate(lst(field(company, "tokens", "company", []), "company.tokens", MAX_NODES)):
        t = obj(t, f"company.tokens[{i}]")
        tokens.append((_str(t, "hex", f"company.tokens[{i}]"), _str(t, "node", f"company.tokens[{i}]")))
    home = field(company, "home", "company", None, nullable=True)
    homes = ([] if home is None else [text(home, "company.home", non_empty=True)] if isinstance(home, str)
             else str_list(home, "company.home", MAX_HEXES))
    return company, tokens, homes


def _axes(snap: dict[str, Any]) -> dict[str, Any]:
    if "axes" not in snap:
        return {}
    axes = obj(field(snap, "axes", ""), "axes")
    values = [axes.get("x"), axes.get("y")]
    if set(axes) != {"x", "y"} or not all(isinstance(v, str) for v in values) or set(values) != {"letter", "number"}:
        raise BoardError("axes", "must be {\"x\": \"number\", \"y\": \"letter\"} or the other way round")
    return {"axes": dict(axes)}


def board_from_snapshot(snap: dict[str, Any], reuse: HexReuse | None = None) -> Board:
    """Build and validate a Board from one snapshot object; every field out of spec is a BoardError.
    With `reuse`, hexes equal to ones read before are taken from it (`solver.input.hex_reuse`), and legs
    walked on boards read before over hexes unchanged (`solver.model.walk_memo`)."""
    snap = obj(snap, "snapshot")
    if snap.get("format") != SNAPSHOT_FORMAT:
        raise BoardError("format", f"expected {SNAPSHOT_FORMAT!r}, got {kind_of(snap.get('format'))}")
    raw_hexes = lst(field(snap, "hexes", "", []), "hexes", MAX_HEXES)
    changed = last = None
    if reuse is not None and reuse.last is not None and reuse.gave_list(raw_hexes):
        read = _by_changes(raw_hexes, reuse, reuse.last)
        if read is not None:
            hexes, nodes, paths, changed = read
            last = reuse.last
    if last is None:
        hexes, nodes, paths = _board_hexes(raw_hexes, reuse)
        if reuse is not None:
            reuse.last = last = _kept(raw_hexes, hexes, nodes, paths) if reuse.gave_list(raw_hexes) else None
    company, tokens, homes = _company(snap)
    source = read_source(snap)
    ruleset = _str(snap, "ruleset", "")
    extra: dict[str, Any] = {**_axes(snap), "company_home": homes}
    if "h1873" in snap:
        extra["h1873"] = obj(snap["h1873"], "h1873")
    if "super_trains" in snap:
        extra["super_trains"] = lst(snap["super_trains"], "super_trains", MAX_TRAINS)
    board = Board(
        ruleset=ruleset or rulesets.for_title(str(source.get("title", ""))),
        company=_str(company, "id", "company"), company_type=_str(company, "type", "company", "corporation"),
        options=_options(snap), hexes=hexes, nodes=nodes, paths=paths,
        trains=[_train(t, i) for i, t in enumerate(lst(field(snap, "trains", "", []), "trains", MAX_TRAINS))],
        phase=_str(obj(field(snap, "phase", "", {}), "phase"), "name", "phase"),
        layout=_str(snap, "layout", "", "pointy"), company_tokens=tokens, source=source,
        modifiers=modifiers_from_json(snap["modifiers"]) if "modifiers" in snap else (),
        revenue_model=_revenue_model(snap), extra=extra,
    )
    validate_board(board, reuse, changed)
    if last is not None:
        last.valid = True
    if reuse is not None:
        reuse.walks.bind(board)
    return board


def _board_hexes(raw_hexes: list[Any], reuse: HexReuse | None
                 ) -> tuple[dict[str, Hex], dict[str, Node], dict[str, Path]]:
    """A board's hexes, nodes and paths read hex by hex (with `reuse`, a hex read before is taken again)."""
    hexes: dict[str, Hex] = {}
    nodes: dict[str, Node] = {}
    paths: dict[str, Path] = {}
    if reuse is not None:
        reuse.last = None  # (set again once this board's hexes are read)
    for i, raw_hex in enumerate(raw_hexes):
        _hex(raw_hex, i, hexes, nodes, paths, reuse)
        if len(nodes) > MAX_NODES or len(paths) > MAX_PATHS:
            what, limit = ("nodes", MAX_NODES) if len(nodes) > MAX_NODES else ("paths", MAX_PATHS)
            raise BoardError("hexes", f"at most {limit:,} {what} allowed on a board")
    return hexes, nodes, paths


def _kept(raw_hexes: list[Any], hexes: dict[str, Hex], nodes: dict[str, Node], paths: dict[str, Path]) -> LastBoard:
    """What `HexReuse.last` keeps of a board read hex by hex from `raw_hexes` (its hexes in their order)."""
    hex_list = list(hexes.values())
    return LastBoard(raws=tuple(raw_hexes), hexes=hex_list,
                     node_pairs=[tuple(zip(hx.nodes, map(nodes.__getitem__, hx.nodes))) for hx in hex_list],
                     path_pairs=[tuple(zip(hx.paths, map(paths.__getitem__, hx.paths))) for hx in hex_list],
                     hex_dict=dict(hexes), node_dict=dict(nodes), path_dict=dict(paths))


def _by_changes(raw_hexes: list[Any], reuse: HexReuse, last: LastBoard
                ) -> tuple[dict[str, Hex], dict[str, Node], dict[str, Path], list[Hex] | None] | None:
    """The hexes, nodes and paths `_board_hexes` reads from `raw_hexes` (a `hexes` list of `reuse.loads`),
    read from the last board's by the places whose raw hex is another object: its dicts copied with those
    places' entries replaced. None when the hex by hex reading must tell (a hex id changed at a place, an
    error, a limit passed, most places changed), `reuse.last` then unchanged. Also the hexes validation must
    check (None: all) when the last board was valid: the others are the same objects with the same hex ids
    about them (`validate_board`)."""
    if len(raw_hexes) != len(last.raws):
        return None
    places = list(compress(count(), map(is_not, raw_hexes, last.raws)))
    if len(places) * 2 > len(raw_hexes):
        return None
    read: list[tuple[int, Hex, tuple[tuple[str, Node], ...], tuple[tuple[str, Path], ...]]] = []
    same_ids = True
    for i in places:
        raw, old = raw_hexes[i], last.hexes[i]
        if raw.__class__ is not dict:
            return None
        hexes: dict[str, Hex] = {}
        nodes: dict[str, Node] = {}
        paths: dict[str, Path] = {}
        try:
            _hex(raw, i, hexes, nodes, paths, reuse)
        except BoardError:
            return None
        hx = next(iter(hexes.values()))
        if hx.id != old.id:
            return None
        same_ids = same_ids and hx.nodes == old.nodes and hx.paths == old.paths
        read.append((i, hx, tuple(nodes.items()), tuple(paths.items())))
    if same_ids:  # the same keys in the same order: the entries replaced in place
        for _i, hx, node_pairs, path_pairs in read:
            last.hex_dict[hx.id] = hx
            last.node_dict.update(node_pairs)
            last.path_dict.update(path_pairs)
    else:  # the nodes and paths of each place in turn, built anew (by C), or the hex by hex reading when an
        # id is taken twice (the lengths tell) or a limit is passed
        node_pairs = last.node_pairs.copy()
        path_pairs = last.path_pairs.copy()
        for i, _hx, np, pp in read:
            node_pairs[i], path_pairs[i] = np, pp
        node_count = len(last.node_dict) + sum(len(np) - len(last.node_pairs[i]) for i, _hx, np, _pp in read)
        path_count = len(last.path_dict) + sum(len(pp) - len(last.path_pairs[i]) for i, _hx, _np, pp in read)
        if node_count > MAX_NODES or path_count > MAX_PATHS:
            return None
        node_dict = dict(chain.from_iterable(node_pairs))
        path_dict = dict(chain.from_iterable(path_pairs))
        if len(node_dict) != node_count or len(path_dict) != path_count:
            return None
        for _i, hx, _np, _pp in read:
            last.hex_dict[hx.id] = hx
        last.node_pairs, last.path_pairs, last.node_dict, last.path_dict = node_pairs, path_pairs, node_dict, path_dict
    for i, hx, np, pp in read:
        last.hexes[i] = hx
        if same_ids:
            last.node_pairs[i], last.path_pairs[i] = np, pp
    was_valid = last.valid
    last.raws, last.valid = tuple(raw_hexes), False
    return (last.hex_dict.copy(), last.node_dict.copy(), last.path_dict.copy(),
            [hx for _i, hx, _np, _pp in read] if was_valid else None)


def read_positions(path: str | FsPath) -> Iterator[Position]:
    """Yield the snapshots of a `.json` file or a `.jsonl.gz` / `.jsonl` file, one per position.

    A line that is not valid JSON yields a Position with `error` set, naming file and line, and
    reading goes on with the next line.
    """
    p = FsPath(path)
    if p.suffix == ".json":
        # the command line names a JSON error's line
        yield Position(source=str(p), raw=file_value(p.read_text(encoding="utf-8"), str(p)))
        return
    opener = gzip.open if p.suffix == ".gz" else open
    with opener(p, "rt", encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                raw = loads(line, f"{p}:{lineno}")
            except BoardError as exc:
                yield Position(source=f"{p}:{lineno}", raw=None, error=exc.message)
                continue
            yield Position(source=f"{p}:{lineno}", raw=raw)
