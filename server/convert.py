"""Mapping between the protobuf messages of `routemax.v1` and the solver's model."""

from __future__ import annotations

import json
import re

from routemax.v1 import routemax_pb2 as pb
from server import extensions
from server.convert_modifiers import bonus_line_to_proto, modifier_to_proto, modifiers_from_proto
from solver import rulesets
from solver.input.snapshot import board_from_snapshot
from solver.input.validate import validate_board
from solver.model.board import UNLIMITED, Board, DistanceRow, Hex, Node, Path, PathEnd, Token, Train
from solver.model.errors import BoardError
from solver.model.jsonread import loads
from solver.model.legs import PathIndex, walk_legs
from solver.model.limits import MAX_HEXES, MAX_NODES, MAX_PATHS, MAX_TRAINS
from solver.model.results import (
    ClaimedRoute,
    Evaluation,
    Finding,
    Objective,
    PricedRoute,
    RunExtras,
    SolveResult,
    Status,
)
from solver.routes.claim_limits import check_claims

STATUS = {Status.OPTIMAL: pb.OPTIMAL, Status.FEASIBLE: pb.FEASIBLE, Status.INFEASIBLE: pb.INFEASIBLE,
          Status.UNKNOWN: pb.UNKNOWN}
MAX_MESSAGE = 1000  # characters of an error message sent back (a field path and a message)
OBJECTIVES = {pb.RULEBOOK: Objective.RULEBOOK, pb.REVENUE_ONLY: Objective.REVENUE_ONLY}


def _end(msg: pb.PathEnd, where: str) -> PathEnd:
    which = msg.WhichOneof("end")
    if which == "edge":
        return PathEnd(edge=msg.edge)
    if which == "node":
        return PathEnd(node=msg.node)
    raise BoardError(where, "path end must be an edge or a node")


def _row_multiplier(row: pb.DistanceRow) -> int:
    """`row_multiplier` when set (0 included: a row that pays nothing), else `multiplier` (0 = 1)."""
    return row.row_multiplier if row.HasField("row_multiplier") else row.multiplier or 1


# a checked field's snapshot name -> its proto name, where they differ (applied in order)
PROTO_NAMES = (
    (re.compile(r"^(board\.trains\[\d+\])\.super$"), r"\1.super_train"),
    (re.compile(r"\.class$"), ".train_class"),
    (re.compile(r"^(board\.trains\[\d+\])\.distance_unit$"), r"\1.distance"),
    (re.compile(r"^(board\.trains\[\d+\])\.distance\[(\d+)\]"), r"\1.distance.stops_by_type.rows[\2]"),
    (re.compile(r"(\.rows\[\d+\])\.nodes$"), r"\1.kinds"),
)


def _proto_name(field: str) -> str:
    """A checked field by its proto name (`board.trains[0].super` is `board.trains[0].super_train`)."""
    for pattern, name in PROTO_NAMES:
        field = pattern.sub(name, field)
    return field


def _train(msg: pb.Train, i: int) -> Train:
    where = f"board.trains[{i}]"
    spec = msg.distance.WhichOneof("spec")
    rows: tuple[DistanceRow, ...] = ()
    if spec == "stops":
        unit, dist = "stops", msg.distance.stops
    elif spec == "hexes":
        unit, dist = "hexes", msg.distance.hexes
    elif spec == "unlimited":
        unit, dist = "stops", UNLIMITED
    elif spec == "express":
        unit, dist = "express", msg.distance.express.stops
    elif spec == "flood":
        unit, dist = "flood", 0
    elif spec == "no_limit":
        unit, dist = "none", msg.distance.no_limit.distance
    elif spec == "stops_by_type":
        unit = "stops_by_type"
        rows = tuple(DistanceRow(kinds=tuple(r.kinds), pay=r.pay, visit=r.visit if r.HasField("visit") else r.pay,
                                 multiplier=_row_multiplier(r)) for r in msg.distance.stops_by_type.rows)
        dist = sum(r.visit for r in rows)
    else:
        raise BoardError(where + ".distance", "a train needs a distance (stops, stops_by_type, hexes or unlimited)")
    if dist < 0:
        raise BoardError(where + ".distance", "must not be negative")
    return Train(id=msg.id, name=msg.name or msg.id, unit=unit, distance=dist, rows=rows,
                 multiplier=msg.multiplier or 1, local=msg.local,
                 requires_token=msg.requires_token if msg.HasField("requires_token") else True,
                 klass=msg.train_class, by_hex=msg.by_hex, extra=_train_extra(msg))


def _train_extra(msg: pb.Train) -> tuple[tuple[str, object], ...]:
    """The 1873 train fields, in the snapshot reader's form (sorted pairs of the fields given)."""
    extra: list[tuple[str, object]] = []
    if msg.super_train:
        extra.append(("super", msg.super_train))
    if msg.HasField("diesel"):
        extra.append(("diesel", msg.diesel))
    if msg.type:
        extra.append(("type", msg.type))
    return tuple(sorted(extra))


def _near_edge(msg: pb.Node, where: str) -> int | float | None:
    """`near_edge`, from the whole edge or the half edges (near_edge_halves); BoardError when they disagree."""
    halves = msg.near_edge_halves if msg.HasField("near_edge_halves") else None
    whole = msg.near_edge if msg.HasField("near_edge") else None
    if halves is None:
        return whole
    if not 0 <= halves <= 11:
        raise BoardError(where + ".near_edge_halves", f"must be 0..11 (near_edge × 2), got {halves}")
    if whole is not None and whole * 2 != halves:
        raise BoardError(where + ".near_edge_halves", f"{halves} half edges disagree with near_edge {whole}")
    return halves // 2 if halves % 2 == 0 else halves / 2


def _check_counts(msg: pb.Board) -> None:
    """The size limits, before any model is built (the same limits `validate_board` holds the model to)."""
    n_nodes = sum(len(h.nodes) for h in msg.hexes)
    n_paths = sum(len(h.paths) for h in msg.hexes)
    for name, count, limit in (("hexes", len(msg.hexes), MAX_HEXES), ("nodes", n_nodes, MAX_NODES),
                               ("paths", n_paths, MAX_PATHS), ("trains", len(msg.trains), MAX_TRAINS)):
        if count > limit:
            raise BoardError(f"board.{name}", f"at most {limit:,} {name} allowed on a board (limit), got {count:,}")


def board_from_proto(msg: pb.Board) -> Board:
    """Build and validate a model Board; BoardError names the offending field."""
    _check_counts(msg)
    hexes: dict[str, Hex] = {}
    nodes: dict[str, Node] = {}
    paths: dict[str, Path] = {}
    for i, hmsg in enumerate(msg.hexes):
        hid = hmsg.id
        if not hid:
            raise BoardError(f"board.hexes[{i}].id", "a hex needs an id")
        if hid in hexes:
            raise BoardError(f"board.hexes[{hid}].id", "duplicate hex id")
        hx = Hex(id=hid, neighbors=dict(hmsg.neighbors), tile=hmsg.tile, color=hmsg.color, framed=hmsg.framed,
                 location=hmsg.location)
        for j, nmsg in enumerate(hmsg.nodes):
            if nmsg.id in nodes or not nmsg.id:
                raise BoardError(f"board.hexes[{hid}].nodes[{nmsg.id or j}].id", "missing or duplicate node id")
            tokens = [Token(corp=s.token.corp, status=s.token.status or "active", type=s.token.type or "normal")
                      if s.HasField("token") else None for s in nmsg.tokens]
            nodes[nmsg.id] = Node(
                id=nmsg.id, hex=hid, kind=nmsg.kind, revenue=nmsg.revenue,
                revenue_by_train=dict(nmsg.revenue_by_train),
                visit_cost=nmsg.visit_cost if nmsg.HasField("visit_cost") else 1,
                route=nmsg.route or "mandatory", groups=tuple(nmsg.groups), slots=nmsg.slots, tokens=tokens,
                blocks=nmsg.blocks, terminal=nmsg.terminal, tokened_by_company=nmsg.tokened_by_company,
                near_edge=_near_edge(nmsg, f"board.hexes[{hid}].nodes[{nmsg.id}]"), sig=nmsg.sig,
                klass=nmsg.train_class, token_class=nmsg.token_class, country=nmsg.country,
                exchange_owner=nmsg.exchange_owner)
            hx.nodes.append(nmsg.id)
        for j, pmsg in enumerate(hmsg.paths):
            where = f"board.hexes[{hid}].paths[{pmsg.id or j}]"
            if pmsg.id in paths or not pmsg.id:
                raise BoardError(where + ".id", "missing or duplicate path id")
            if len(pmsg.lanes) not in (0, 2):
                raise BoardError(where + ".lanes", "give no lanes or exactly two")
            lanes = (((pmsg.lanes[0].width, pmsg.lanes[0].index), (pmsg.lanes[1].width, pmsg.lanes[1].index))
                     if pmsg.lanes else ((1, 0), (1, 0)))
            paths[pmsg.id] = Path(id=pmsg.id, hex=hid, a=_end(pmsg.a, where + ".a"), b=_end(pmsg.b, where + ".b"),
                                  track=pmsg.track or "broad", lanes=lanes, terminal=pmsg.terminal,
                                  ignore=pmsg.ignore, ignore_gauge_walk=pmsg.ignore_gauge_walk)
            hx.paths.append(pmsg.id)
        hexes[hid] = hx
    board = Board(
        ruleset=msg.ruleset or rulesets.for_title(msg.source.title), company=msg.company.id, hexes=hexes,
        nodes=nodes, paths=paths,
        trains=[_train(t, i) for i, t in enumerate(msg.trains)], phase=msg.phase.name, layout=msg.layout or "pointy",
        company_tokens=[(t.hex, t.node) for t in msg.company.tokens], company_type=msg.company.type or "corporation",
        options={k: v for k, v in (("location_bonus", msg.options.location_bonus),
                                   ("towns_plus_10", msg.options.towns_plus_10),
                                   ("port_token", msg.options.port_token),
                                   ("port_token_own", msg.options.port_token_own),
                                   ("classes_share_track", msg.options.classes_share_track)) if v},
        source=_source(msg.source) if msg.HasField("source") else {},
        modifiers=modifiers_from_proto(msg.modifiers), revenue_model=msg.revenue_model,
    )
    board.extra["company_home"] = list(msg.company.home)
    if msg.axes:
        board.extra["axes"] = axes_from_text(msg.axes)
    try:
        for ext in extensions.with_board_field():
            if msg.HasField(ext.board_field):
                ext.apply(msg, board)
        validate_board(board)
    except BoardError as exc:
        field = exc.field if exc.field.startswith("board.") else "board." + exc.field
        raise BoardError(_proto_name(field), exc.message) from exc
    return board


SOURCE_FIELDS = ("title", "fixture", "action_id", "position")  # what `Source` carries of a snapshot's source


def _source(msg: pb.Source) -> dict[str, object]:
    return {"title": msg.title, "fixture": msg.fixture, "action_id": msg.action_id, "position": msg.position}


def axes_from_text(text: str) -> dict[str, str]:
    """`Board.axes` ("x=number,y=letter") as the snapshot's `axes` object; BoardError names `board.axes`."""
    axes: dict[str, str] = {}
    for part in text.split(","):
        key, _, value = part.strip().partition("=")
        if key not in ("x", "y") or value not in ("letter", "number") or key in axes:
            raise BoardError("board.axes", f"must be 'x=number,y=letter' or 'x=letter,y=number', got {text!r}")
        axes[key] = value
    if len(axes) != 2 or axes["x"] == axes["y"]:
        raise BoardError("board.axes", f"give x and y, one 'letter' and one 'number', got {text!r}")
    return axes


def axes_to_text(axes: object) -> str:
    """A snapshot's `axes` object as `Board.axes` text ("" when absent or not an x/y object)."""
    if not isinstance(axes, dict) or not {"x", "y"} <= axes.keys():
        return ""
    return f"x={axes['x']},y={axes['y']}"


def board_from_request(req: pb.SolveRequest | pb.EvaluateRequest) -> Board:
    """The board of a Solve or Evaluate request, from `board` or `snapshot_json`, held to the limits of
    `solver.model.limits` (for Evaluate, the claimed routes' limits too); BoardError names the field."""
    try:
        return _board_of(req)
    except BoardError as exc:
        if len(exc.field) + len(exc.message) <= MAX_MESSAGE:
            raise
        raise BoardError(exc.field[:MAX_MESSAGE // 2], exc.message[:MAX_MESSAGE // 2] + " ...") from None


def _board_of(req: pb.SolveRequest | pb.EvaluateRequest) -> Board:
    if isinstance(req, pb.EvaluateRequest):
        claims = claims_from_proto(list(req.routes))
        check_claims(claims)
        board = _board_only(req)
        _walk_claimed_connections(board, claims)
        return board
    return _board_only(req)


def _walk_claimed_connections(board: Board, claims: list[ClaimedRoute]) -> None:
    """A leg claimed by its hexes is found by walking the track from its first stop: walk it here, so
    that track past the walk limits is refused as bad input before the evaluator starts."""
    index = PathIndex(board)
    starts = {n for c in claims if c.connections for n in c.nodes[:-1] if n in board.nodes}
    for node_id in sorted(starts):
        walk_legs(board, node_id, None, index)


def _board_only(req: pb.SolveRequest | pb.EvaluateRequest) -> Board:
    which = req.WhichOneof("input")
    if which == "board":
        return board_from_proto(req.board)
    if which == "snapshot_json":
        raw = loads(req.snapshot_json, "snapshot_json")
        if not isinstance(raw, dict):
            raise BoardError("snapshot_json", "must be a JSON object")
        try:
            return board_from_snapshot(raw)
        except BoardError as exc:
            raise BoardError("snapshot_json." + exc.field, exc.message) from None
    raise BoardError("board", "give a board or snapshot_json")


def board_to_proto(board: Board) -> pb.Board:
    """The protobuf form of a model Board (for clients and tests): `board_from_proto` reads it back into
    the same model, but for the informative `source` fields that `Source` does not carry."""
    msg = pb.Board(ruleset=board.ruleset, layout=board.layout, phase=pb.Phase(name=board.phase),
                   company=pb.Company(id=board.company, type=board.company_type,
                                      tokens=[pb.PlacedToken(hex=h, node=n) for h, n in board.company_tokens],
                                      home=list(board.extra.get("company_home") or [])),
                   options=pb.RulesOptions(**board.options), revenue_model=board.revenue_model,
                   modifiers=[modifier_to_proto(m) for m in board.modifiers],
                   axes=axes_to_text(board.extra.get("axes")))
    ext = extensions.get(board.ruleset)
    if ext is not None:
        ext.board_to_proto(board, msg)
    if board.source:
        msg.source.CopyFrom(pb.Source(title=str(board.source.get("title", "")),
                                      fixture=str(board.source.get("fixture", "")),
                                      action_id=int(board.source.get("action_id", 0) or 0),
                                      position=_position(board.source.get("position"))))
    for t in board.trains:
        _train_to_proto(t, msg.trains.add())
    for hx in board.hexes.values():
        _hex_to_proto(board, hx, msg.hexes.add())
    return msg


def _position(value: object) -> int:
    """A snapshot's `source.position` when it fits the protocol's int32 (0 otherwise: informative)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31 else 0


def _train_to_proto(t: Train, tm: pb.Train) -> None:
    tm.MergeFrom(pb.Train(id=t.id, name=t.name, multiplier=t.multiplier, local=t.local,
                          requires_token=t.requires_token, train_class=t.klass, by_hex=t.by_hex))
    extra = dict(t.extra)
    if "super" in extra:
        tm.super_train = str(extra["super"])
    if "diesel" in extra:
        tm.diesel = bool(extra["diesel"])
    if "type" in extra:
        tm.type = str(extra["type"])
    if t.unit == "none":
        tm.distance.no_limit.SetInParent()
        tm.distance.no_limit.distance = t.distance
    elif t.unit == "express":
        tm.distance.express.stops = t.distance
    elif t.unit == "flood":
        tm.distance.flood.SetInParent()
    elif t.unit == "stops_by_type":
        for r in t.rows:
            row = tm.distance.stops_by_type.rows.add(kinds=list(r.kinds), pay=r.pay, visit=r.visit,
                                                     multiplier=r.multiplier)
            if r.multiplier == 0:  # `multiplier` reads 0 as 1: only `row_multiplier` carries it
                row.row_multiplier = 0
    elif t.unit == "hexes":
        tm.distance.hexes = t.distance
    elif t.distance >= UNLIMITED:
        tm.distance.unlimited.SetInParent()
    else:
        tm.distance.stops = t.distance


def _hex_to_proto(board: Board, hx: Hex, hm: pb.Hex) -> None:
    hm.MergeFrom(pb.Hex(id=hx.id, tile=hx.tile, color=hx.color, framed=hx.framed, location=hx.location))
    for e, other in hx.neighbors.items():
        hm.neighbors[e] = other
    for nid in hx.nodes:
        _node_to_proto(board.nodes[nid], hm.nodes.add())
    for pid in hx.paths:
        p = board.paths[pid]
        pm = hm.paths.add(id=p.id, track=p.track, terminal=p.terminal, ignore=p.ignore,
                          ignore_gauge_walk=p.ignore_gauge_walk)
        for end, target in ((p.a, pm.a), (p.b, pm.b)):
            if end.is_edge:
                target.edge = end.edge  # type: ignore[assignment]
            else:
                target.node = end.node  # type: ignore[assignment]
        if p.lanes != ((1, 0), (1, 0)):
            for w, i in p.lanes:
                pm.lanes.add(width=w, index=i)


def _node_to_proto(n: Node, nm: pb.Node) -> None:
    nm.MergeFrom(pb.Node(id=n.id, kind=n.kind, revenue=n.revenue, visit_cost=n.visit_cost, route=n.route,
                         groups=list(n.groups), slots=n.slots, blocks=n.blocks, terminal=n.terminal,
                         tokened_by_company=n.tokened_by_company, sig=n.sig, train_class=n.klass,
                         token_class=n.token_class, country=n.country, exchange_owner=n.exchange_owner))
    nm.revenue_by_train.update(n.revenue_by_train)
    if n.near_edge is not None:
        if n.near_edge == int(n.near_edge):
            nm.near_edge = int(n.near_edge)
        else:  # a town between two edges
            nm.near_edge_halves = int(n.near_edge * 2)
    for tok in n.tokens:
        slot = nm.tokens.add()
        if tok is not None:
            slot.token.CopyFrom(pb.Token(corp=tok.corp, status=tok.status, type=tok.type))


def route_to_proto(route: PricedRoute) -> pb.Route:
    return pb.Route(
        train=route.train, nodes=route.nodes,
        legs=[pb.Leg(paths=list(leg.paths), hexes=list(leg.hexes)) for leg in route.legs],
        stops=[pb.Stop(node=n, revenue=v) for n, v in zip(route.nodes, route.stop_revenues)],
        revenue=route.revenue, bonuses=[bonus_line_to_proto(b) for b in route.bonuses], subsidy=route.subsidy)


def finding_to_proto(f: Finding) -> pb.Finding:
    return pb.Finding(code=f.code, message=f.message, route=f.route, hard=f.hard)


def solve_response(result: SolveResult) -> pb.SolveResponse:
    s = result.stats
    resp = pb.SolveResponse(
        revenue=result.revenue, status=STATUS[result.status], bound=result.bound,
        routes=[route_to_proto(r) for r in result.routes],
        stats=pb.SolveStats(solve_ms=s.get("solve_ms", 0.0), enumerate_ms=s.get("enumerate_ms", 0.0),
                            candidates=int(s.get("candidates", 0)),
                            candidates_after_prune=int(s.get("after_prune", 0)),
                            train_classes=int(s.get("classes", 0))),
        reason=result.reason, subsidy=result.subsidy,
        run_lines=[bonus_line_to_proto(line) for line in (result.evaluation.run_lines if result.evaluation else [])])
    _fill_extras(result.extras, resp)
    return resp


def evaluate_response(ev: Evaluation) -> pb.EvaluateResponse:
    resp = pb.EvaluateResponse(legal=ev.legal, revenue=ev.revenue, routes=[route_to_proto(r) for r in ev.routes],
                               findings=[finding_to_proto(f) for f in ev.findings],
                               run_lines=[bonus_line_to_proto(line) for line in ev.run_lines], subsidy=ev.subsidy)
    _fill_extras(ev.extras, resp)
    return resp


def _fill_extras(extras: RunExtras | None, resp: pb.SolveResponse | pb.EvaluateResponse) -> None:
    """A ruleset's typed extras, written by the protocol extension registered for it."""
    for ext in extensions.all_extensions():
        ext.fill_response(extras, resp)


def claims_from_proto(routes: list[pb.ClaimedRoute]) -> list[ClaimedRoute]:
    """Claimed routes; a leg given with paths is checked path by path, one with hexes only is resolved."""
    out = []
    for r in routes:
        by_paths = all(leg.paths for leg in r.legs)
        out.append(ClaimedRoute(train=r.train, nodes=list(r.nodes),
                                legs=[list(leg.paths) for leg in r.legs] if by_paths else [],
                                connections=[] if by_paths else [list(leg.hexes) for leg in r.legs]))
    return out


def audit_line(line: dict) -> pb.AuditLine:
    """An audit line (solver.audit.run) as a protobuf message, with the full line as JSON beside it."""
    verdict = line.get("verdict") or {}
    optimum = line.get("optimum") or {}
    return pb.AuditLine(
        source=line.get("source", ""), title=line.get("title", ""), company=line.get("company", ""),
        action_id=int(line.get("action_id") or 0), plain_revenue=bool(line.get("plain_revenue")),
        recorded_revenue=int(line.get("recorded_revenue") or 0), legal=bool(verdict.get("legal", False)),
        revenue_by_rules=int(verdict.get("revenue", 0)),
        findings=[pb.Finding(code=f["code"], message=f["message"], route=f["route"], hard=f["hard"])
                  for f in verdict.get("findings", [])],
        optimum=int(optimum.get("revenue", 0)), status=STATUS.get(optimum.get("status", ""), pb.STATUS_UNSPECIFIED),
        bound=int(optimum.get("bound", 0)), gap=int(line.get("gap") or 0), solve_ms=float(line.get("solve_ms", 0.0)),
        error=line.get("error", ""), json=json.dumps(line))
