"""Read `18xx-route-snapshot/1` objects (see the corpus FORMAT.md) into the board model."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path as FsPath
from typing import Any

from solver import rulesets
from solver.board import Board, DistanceRow, Hex, Node, Path, PathEnd, Token, Train
from solver.errors import BoardError
from solver.modifiers.parse import modifiers_from_json
from solver.validate import validate_board

SNAPSHOT_FORMAT = "18xx-route-snapshot/1"


@dataclass
class Position:
    """One snapshot as read from a file: the raw object and where it came from."""

    source: str
    raw: dict[str, Any] | None
    error: str | None = None


def _end(value: Any, where: str) -> PathEnd:
    if isinstance(value, bool):
        raise BoardError(where, "must be an edge number or a node id")
    if isinstance(value, int):
        return PathEnd(edge=value)
    if isinstance(value, str):
        return PathEnd(node=value)
    raise BoardError(where, "must be an edge number or a node id")


def _path(raw: dict[str, Any], hex_id: str) -> Path:
    where = f"hexes[{hex_id}].paths[{raw.get('id', '?')}]"
    lanes = raw.get("lanes") or [[1, 0], [1, 0]]
    return Path(
        id=raw["id"], hex=hex_id, a=_end(raw.get("a"), where + ".a"), b=_end(raw.get("b"), where + ".b"),
        track=raw.get("track", "broad"),
        lanes=((int(lanes[0][0]), int(lanes[0][1])), (int(lanes[1][0]), int(lanes[1][1]))),
        terminal=bool(raw.get("terminal", False)), ignore=bool(raw.get("ignore", False)),
        ignore_gauge_walk=bool(raw.get("ignore_gauge_walk", False)),
    )


def _node(raw: dict[str, Any], hex_id: str) -> Node:
    tokens = [None if t is None else Token(corp=t.get("corp", ""), status=t.get("status", "active"),
                                           type=t.get("type", "normal"))
              for t in raw.get("tokens", [])]
    return Node(
        id=raw["id"], hex=hex_id, kind=raw.get("kind", ""), revenue=int(raw.get("revenue", 0)),
        revenue_by_train={k: int(v) for k, v in (raw.get("revenue_by_train") or {}).items()},
        visit_cost=int(raw.get("visit_cost", 1)), route=raw.get("route", "mandatory"),
        groups=tuple(raw.get("groups", ())), slots=int(raw.get("slots", 0)), tokens=tokens,
        blocks=bool(raw.get("blocks", False)), terminal=bool(raw.get("terminal", False)),
        tokened_by_company=bool(raw.get("tokened_by_company", False)),
        near_edge=raw.get("near_edge"), sig=raw.get("sig", ""), klass=raw.get("class", ""),
        token_class=raw.get("token_class", ""), country=raw.get("country", ""),
        exchange_owner=raw.get("exchange_owner", ""),
        extra={"h1873": raw["h1873"]} if "h1873" in raw else {},
    )


def _train(raw: dict[str, Any], index: int) -> Train:
    unit = raw.get("distance_unit", "stops")
    if "distance" not in raw and unit != "flood":
        raise BoardError(f"trains[{index}].distance", "missing: how far the train runs")
    dist = raw.get("distance", 0)
    rows: tuple[DistanceRow, ...] = ()
    if isinstance(dist, list):
        rows = tuple(DistanceRow(kinds=tuple(r["nodes"]), pay=int(r["pay"]), visit=int(r.get("visit", r["pay"])),
                                 multiplier=int(r.get("multiplier", 1))) for r in dist)
        dist = sum(r.visit for r in rows)
    elif not isinstance(dist, int) or isinstance(dist, bool):
        raise BoardError(f"trains[{index}].distance", "must be an integer or a list of rows")
    extra = tuple(sorted((k, raw[k]) for k in ("super", "diesel", "type") if k in raw))
    return Train(id=raw["id"], name=raw.get("name", raw["id"]), unit=unit, distance=int(dist), rows=rows,
                 multiplier=int(raw.get("multiplier", 1)), local=bool(raw.get("local", False)),
                 requires_token=bool(raw.get("requires_token", True)), klass=raw.get("class", ""),
                 by_hex=bool(raw.get("by_hex", False)), extra=extra)


def _revenue_model(snap: dict[str, Any]) -> str:
    value = snap.get("revenue_model", "")
    if not isinstance(value, str):
        raise BoardError("revenue_model", f"must be a string, got {value!r}")
    return value


def board_from_snapshot(snap: dict[str, Any]) -> Board:
    """Build and validate a Board from one snapshot object."""
    if snap.get("format") != SNAPSHOT_FORMAT:
        raise BoardError("format", f"expected {SNAPSHOT_FORMAT!r}, got {snap.get('format')!r}")
    hexes: dict[str, Hex] = {}
    nodes: dict[str, Node] = {}
    paths: dict[str, Path] = {}
    for raw_hex in snap.get("hexes", []):
        hid = raw_hex["id"]
        hx = Hex(id=hid, neighbors={int(k): v for k, v in raw_hex.get("neighbors", {}).items()},
                 tile=raw_hex.get("tile", ""), color=raw_hex.get("color", ""),
                 framed=bool(raw_hex.get("framed", False)), location=raw_hex.get("location", ""),
                 extra={"h1873": raw_hex["h1873"]} if "h1873" in raw_hex else {})
        for rn in raw_hex.get("nodes", []):
            node = _node(rn, hid)
            if node.id in nodes:
                raise BoardError(f"hexes[{hid}].nodes[{node.id}].id", "duplicate node id")
            nodes[node.id] = node
            hx.nodes.append(node.id)
        for rp in raw_hex.get("paths", []):
            path = _path(rp, hid)
            if path.id in paths:
                raise BoardError(f"hexes[{hid}].paths[{path.id}].id", "duplicate path id")
            paths[path.id] = path
            hx.paths.append(path.id)
        if hid in hexes:
            raise BoardError(f"hexes[{hid}].id", "duplicate hex id")
        hexes[hid] = hx
    company = snap.get("company", {})
    source = dict(snap.get("source", {}))
    board = Board(
        ruleset=snap.get("ruleset") or rulesets.for_title(source.get("title", "")), company=company.get("id", ""),
        company_type=company.get("type", "corporation"), options=dict(snap.get("options") or {}),
        hexes=hexes, nodes=nodes, paths=paths,
        trains=[_train(t, i) for i, t in enumerate(snap.get("trains", []))],
        phase=(snap.get("phase") or {}).get("name", ""), layout=snap.get("layout", "pointy"),
        company_tokens=[(t.get("hex", ""), t.get("node", "")) for t in company.get("tokens", [])],
        source=source,
        modifiers=modifiers_from_json(snap["modifiers"]) if "modifiers" in snap else (),
        revenue_model=_revenue_model(snap),
        extra={**{k: snap[k] for k in ("h1873", "super_trains", "axes") if k in snap},
               "company_home": company.get("home") or []},
    )
    validate_board(board)
    return board


def read_positions(path: str | FsPath) -> Iterator[Position]:
    """Yield the snapshots of a `.json` file or a `.jsonl.gz` / `.jsonl` file, one per position.

    A line that is not valid JSON yields a Position with `error` set, naming file and line, and
    reading goes on with the next line.
    """
    p = FsPath(path)
    if p.suffix == ".json":
        with p.open(encoding="utf-8") as fh:
            yield Position(source=str(p), raw=json.load(fh))
        return
    opener = gzip.open if p.suffix == ".gz" else open
    with opener(p, "rt", encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                yield Position(source=f"{p}:{lineno}", raw=json.loads(line))
            except json.JSONDecodeError as exc:
                yield Position(source=f"{p}:{lineno}", raw=None, error=f"not valid JSON: {exc.msg}")
