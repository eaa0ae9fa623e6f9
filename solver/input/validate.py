"""Checks that a board is within spec before any rule reads it; errors name the field."""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter

from solver import rulesets
from solver.input.hex_reuse import HexReuse
from solver.model.board import DISTANCE_UNITS, NODE_KINDS, TRACK_GAUGES, TRAIN_CLASSES, Board, Hex, Node, Train
from solver.model.errors import BoardError
from solver.model.limits import (
    MAX_DISTANCE,
    MAX_GROUPS,
    MAX_HEXES,
    MAX_ID_LENGTH,
    MAX_LANE_WIDTH,
    MAX_MODIFIERS,
    MAX_MULTIPLIER,
    MAX_NODES,
    MAX_PATHS,
    MAX_REVENUE,
    MAX_SLOTS,
    MAX_TRAINS,
    MAX_VISIT_COST,
)
from solver.rulesets.base import Ruleset

_PATHS, _EXTRA, _EXCHANGE_OWNER = attrgetter("paths"), attrgetter("extra"), attrgetter("exchange_owner")
NODE_ROUTES = ("mandatory", "optional", "never")
LAYOUTS = ("pointy", "flat")
COMPANY_TYPES = ("corporation", "minor")


MODIFIER_HEX_FIELDS = ("hexes", "endpoint_hexes", "requires_hexes", "distinct_hex_values")  # hex ids, or (hex, value)


def _check_modifier_hexes(board: Board) -> None:
    """Every hex a modifier names is a hex of the board (`hexes` is the whole map): a bonus or a rule on a hex
    no route can reach would price silently as if it were not there (a required run to nowhere: revenue 0)."""
    for i, m in enumerate(board.modifiers or ()):
        named = [(f, getattr(m, f, None) or ()) for f in MODIFIER_HEX_FIELDS]
        named += [(f"sets[{j}]", one) for j, one in enumerate(getattr(m, "sets", None) or ())]
        for field, ids in named:
            for item in ids:
                hex_id = item[0] if isinstance(item, tuple) else item
                if hex_id not in board.hexes:
                    raise BoardError(f"modifiers[{i}].{field}", f"unknown hex {hex_id!r}: not a hex of the board")


def validate_board(board: Board, reuse: HexReuse | None = None, changed: list[Hex] | None = None) -> None:
    """Raise BoardError on the first out-of-spec field: the generic checks, then the ruleset's own. With
    `reuse` (the `HexReuse` the board was read with), a hex that passed the checks of its own fields before
    has only its neighbours checked (they name other hexes of this board). With `changed`, only those hexes
    are checked: the board is a valid board but for them, with the same hex ids (the other hexes are the very
    objects that passed there, and their checks read only their own fields, nodes and paths and which hex
    ids the board has)."""
    check_size(board)
    _check_top(board)
    ruleset = rulesets.get(board.ruleset)
    if board.layout not in LAYOUTS:
        raise BoardError("layout", f"must be one of {', '.join(LAYOUTS)}, got {board.layout!r}")
    if board.company_type not in COMPANY_TYPES:
        raise BoardError("company.type", f"must be one of {', '.join(COMPANY_TYPES)}, got {board.company_type!r}")
    if not board.hexes:
        raise BoardError("hexes", "the board has no hexes")
    if not board.company:
        raise BoardError("company.id", "no operating company given")
    for hx in board.hexes.values() if changed is None else changed:
        if reuse is not None and reuse.checked(hx):
            _check_neighbors(board, hx)
            continue
        _check_hex(board, hx)
        if reuse is not None:
            reuse.passed(hx)
    if sum(map(len, map(_PATHS, board.hexes.values()))) != len(board.paths):
        _check_path_lists(board)
    _check_trains(board, ruleset)
    _check_markers_and_options(board)
    _check_ruleset_data(board, ruleset)
    if board.modifiers and not ruleset.applies_modifiers:
        raise BoardError("modifiers", f"ruleset {ruleset.name} does not apply modifiers; rulesets that do: "
                                      f"{', '.join(r.name for r in rulesets.all_rulesets() if r.applies_modifiers)}")
    _check_modifier_hexes(board)
    ruleset.validate(board)


def check_size(board: Board) -> None:
    """The board's size limits (solver.model.limits): hexes, nodes, paths, trains and modifiers."""
    for name, count, limit in (("hexes", len(board.hexes), MAX_HEXES), ("nodes", len(board.nodes), MAX_NODES),
                               ("paths", len(board.paths), MAX_PATHS), ("trains", len(board.trains), MAX_TRAINS),
                               ("modifiers", len(board.modifiers), MAX_MODIFIERS)):
        if count > limit:
            raise BoardError(name, f"at most {limit:,} {name} allowed on a board (limit), got {count:,}")


def _in_range(value: int, where: str, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise BoardError(where, f"must be an integer in {lo:,}..{hi:,}, got {value!r}")


def _check_id(value: str, where: str) -> None:
    if not value or len(value) > MAX_ID_LENGTH:
        raise BoardError(where, f"an id has 1..{MAX_ID_LENGTH} characters")


def _check_texts(where: str, texts: dict[str, str], max_len: int = MAX_ID_LENGTH) -> None:
    """Names and labels: at most `max_len` characters each (the snapshot reader's bound too)."""
    for key, value in texts.items():
        if len(value) > max_len:
            raise BoardError(f"{where}.{key}" if where else key, f"at most {max_len} characters allowed")


def _check_top(board: Board) -> None:
    """The board's own names: company, phase, revenue model, source, tokens."""
    _check_texts("", {"ruleset": board.ruleset, "revenue_model": board.revenue_model})
    _check_texts("company", {"id": board.company})
    _check_texts("phase", {"name": board.phase})
    _check_texts("source", {k: v for k, v in board.source.items() if k in ("title", "fixture") and isinstance(v, str)},
                 max_len=1000)
    action = board.source.get("action_id", 0)
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < 2**62:
        raise BoardError("source.action_id", "must be a whole number, 0 or more")
    position = board.source.get("position", 0)
    if isinstance(position, bool) or not isinstance(position, int) or not 0 <= position < 2**31:
        raise BoardError("source.position", "must be a whole number in 0..2,147,483,647")
    for i, (hex_id, node_id) in enumerate(board.company_tokens):
        _check_texts(f"company.tokens[{i}]", {"hex": hex_id, "node": node_id})
    homes = board.extra.get("company_home") or []
    if len(homes) > MAX_HEXES:
        raise BoardError("company.home", f"at most {MAX_HEXES:,} home hexes (limit)")
    for i, home in enumerate(homes):
        _check_id(home, f"company.home[{i}]")
    if isinstance(board.options.get("port_token", ""), str):
        _check_texts("options", {"port_token": board.options.get("port_token", "")})


def _plain_node_ok(node: Node, nid: str) -> bool:
    """Whether a node passes every check of `_check_node` as the common node does (no groups, no
    revenue per train, no placement by an edge); False sends it to those checks, which name the field."""
    return (0 < len(nid) <= MAX_ID_LENGTH and len(node.sig) <= MAX_ID_LENGTH and len(node.country) <= MAX_ID_LENGTH
            and len(node.exchange_owner) <= MAX_ID_LENGTH and node.kind in NODE_KINDS and node.route in NODE_ROUTES
            and node.revenue.__class__ is int and -MAX_REVENUE <= node.revenue <= MAX_REVENUE
            and not node.revenue_by_train and not node.groups and node.near_edge is None
            and node.visit_cost.__class__ is int and 0 <= node.visit_cost <= MAX_VISIT_COST
            and node.slots.__class__ is int and 0 <= node.slots <= MAX_SLOTS and len(node.tokens) <= MAX_SLOTS
            and node.klass in TRAIN_CLASSES and node.token_class in TRAIN_CLASSES
            and all(t is None or (len(t.corp) <= MAX_ID_LENGTH and len(t.status) <= MAX_ID_LENGTH
                                  and len(t.type) <= MAX_ID_LENGTH) for t in node.tokens))


def _check_node(board: Board, hid: str, nid: str) -> None:
    """One node's kind, numbers, groups and class against the spec and the limits."""
    node = board.nodes[nid]
    if _plain_node_ok(node, nid):
        return
    where = f"hexes[{hid}].nodes[{nid}]"
    _check_id(nid, where + ".id")
    _check_texts(where, {"sig": node.sig, "country": node.country, "exchange_owner": node.exchange_owner})
    for i, tok in enumerate(node.tokens):
        if tok is not None:
            _check_texts(f"{where}.tokens[{i}]", {"corp": tok.corp, "status": tok.status, "type": tok.type})
    if node.kind not in NODE_KINDS:
        raise BoardError(f"{where}.kind", f"unknown node kind {node.kind!r}")
    if node.route not in NODE_ROUTES:
        raise BoardError(f"{where}.route", f"must be one of {', '.join(NODE_ROUTES)}, got {node.route!r}")
    _in_range(node.revenue, f"{where}.revenue", -MAX_REVENUE, MAX_REVENUE)
    for name, value in node.revenue_by_train.items():
        _check_id(name, f"{where}.revenue_by_train")
        _in_range(value, f"{where}.revenue_by_train.{name}", -MAX_REVENUE, MAX_REVENUE)
    if node.visit_cost < 0:
        raise BoardError(f"{where}.visit_cost", "must not be negative")
    _in_range(node.visit_cost, f"{where}.visit_cost", 0, MAX_VISIT_COST)
    _in_range(node.slots, f"{where}.slots", 0, MAX_SLOTS)
    if len(node.tokens) > MAX_SLOTS:
        raise BoardError(f"{where}.tokens", f"at most {MAX_SLOTS} token slots")
    if len(node.groups) > MAX_GROUPS or any(not isinstance(g, str) or not g or len(g) > MAX_ID_LENGTH
                                            for g in node.groups):
        raise BoardError(f"{where}.groups", f"a list of at most {MAX_GROUPS} non-empty group names")
    if len(set(node.groups)) < len(node.groups):
        twice = next(g for i, g in enumerate(node.groups) if g in node.groups[:i])
        raise BoardError(f"{where}.groups", f"group {twice!r} is listed twice (a node is in each revenue group once)")
    if node.near_edge is not None and not (0 <= node.near_edge <= 5.5 and float(node.near_edge * 2).is_integer()):
        raise BoardError(f"{where}.near_edge", f"must be an edge 0..5 or a half edge, got {node.near_edge!r}")
    for key, value in (("class", node.klass), ("token_class", node.token_class)):
        if value not in TRAIN_CLASSES:
            raise BoardError(f"{where}.{key}", "a class is freight, passenger or empty")


def _check_path_lists(board: Board) -> None:
    """Every path is listed by its own hex (the leg walk reads a hex's paths from `Hex.paths`); asked when
    the hexes, which list only their own paths and each once (`_check_hex`), list fewer than the board has."""
    for path in board.paths.values():
        hx = board.hexes.get(path.hex)
        if hx is None or path.id not in hx.paths:
            raise BoardError(f"hexes[{path.hex}].paths", f"does not list path {path.id!r} of this hex")


def _check_neighbors(board: Board, hx: Hex) -> None:
    """A hex's neighbours: edges 0..5, each a hex of the board."""
    for edge, other in hx.neighbors.items():
        if not 0 <= edge <= 5:
            raise BoardError(f"hexes[{hx.id}].neighbors[{edge}]", "edge must be 0..5")
        if other not in board.hexes:
            raise BoardError(f"hexes[{hx.id}].neighbors[{edge}]", f"unknown hex {other!r}")


def _check_hex(board: Board, hx: Hex) -> None:
    """Neighbours, nodes and paths of one hex."""
    hid = hx.id
    if not 0 < len(hid) <= MAX_ID_LENGTH:  # the field names are made only for a message
        _check_id(hid, f"hexes[{hid}].id")
    if max(len(hx.tile), len(hx.color), len(hx.location)) > MAX_ID_LENGTH:
        _check_texts(f"hexes[{hid}]", {"tile": hx.tile, "color": hx.color, "location": hx.location})
    _check_neighbors(board, hx)
    for nid in hx.nodes:
        _check_node(board, hid, nid)
    nodes = board.nodes
    if len(hx.paths) > 1 and len(set(hx.paths)) != len(hx.paths):
        twice = next(pid for pid in hx.paths if hx.paths.count(pid) > 1)
        raise BoardError(f"hexes[{hid}].paths[{twice}]", "listed twice")
    for pid in hx.paths:
        path = board.paths.get(pid)
        if path is None or path.hex != hid:
            raise BoardError(f"hexes[{hid}].paths[{pid}]", "not a path of this hex")
        if not 0 < len(pid) <= MAX_ID_LENGTH:
            _check_id(pid, f"hexes[{hid}].paths[{pid}].id")
        if path.track not in TRACK_GAUGES:
            raise BoardError(f"hexes[{hid}].paths[{pid}].track", f"unknown gauge {path.track!r}")
        for name, end in (("a", path.a), ("b", path.b)):
            if end.edge is not None:
                if not 0 <= end.edge <= 5:
                    raise BoardError(f"hexes[{hid}].paths[{pid}].{name}", f"edge {end.edge} out of range 0..5")
            elif end.node not in nodes or nodes[end.node].hex != hid:
                raise BoardError(f"hexes[{hid}].paths[{pid}].{name}", f"unknown node {end.node!r} in hex {hid}")
        for lane in path.lanes:
            if not 1 <= lane[0] <= MAX_LANE_WIDTH or not 0 <= lane[1] < lane[0]:
                raise BoardError(f"hexes[{hid}].paths[{pid}].lanes", f"bad lane {list(lane)}")


def _check_trains(board: Board, ruleset: Ruleset) -> None:
    """Train ids are present and unique; each train's distance, class and multiplier are in spec."""
    seen: set[str] = set()
    for i, train in enumerate(board.trains):
        if not train.id:
            raise BoardError(f"trains[{i}].id", "missing train id")
        _check_id(train.id, f"trains[{i}].id")
        _check_texts(f"trains[{i}]", {"name": train.name})
        if train.id in seen:
            raise BoardError(f"trains[{i}].id", f"duplicate train id {train.id!r}")
        seen.add(train.id)
        _check_train(ruleset, i, train)


def _check_train(ruleset: Ruleset, i: int, train: Train) -> None:
    if train.unit not in DISTANCE_UNITS:
        raise BoardError(f"trains[{i}].distance_unit", f"unknown unit {train.unit!r}")
    if train.distance < 0:
        raise BoardError(f"trains[{i}].distance", "must not be negative")
    _in_range(train.distance, f"trains[{i}].distance", 0, MAX_DISTANCE if not train.rows else 8 * MAX_DISTANCE)
    if train.unit == "flood" and not ruleset.flood_trains:
        runs = [r.name for r in rulesets.all_rulesets() if r.flood_trains]
        raise BoardError(f"trains[{i}].distance_unit", f"FLOOD trains belong to ruleset {', '.join(runs)}")
    if train.klass not in TRAIN_CLASSES:
        raise BoardError(f"trains[{i}].class", f"unknown train class {train.klass!r}")
    if train.unit == "express" and train.distance < 1:
        raise BoardError(f"trains[{i}].distance", "an express train pays at least one stop")
    if train.rows and train.unit != "stops_by_type":
        raise BoardError(f"trains[{i}].distance", "rows of a distance go with the unit stops_by_type only")
    if train.unit == "stops_by_type" and not train.rows:
        raise BoardError(f"trains[{i}].distance", "stops_by_type needs at least one row")
    if len(train.rows) > 8:
        raise BoardError(f"trains[{i}].distance", "at most 8 rows")
    for j, row in enumerate(train.rows):
        if row.pay < 0 or row.visit < 0:
            raise BoardError(f"trains[{i}].distance[{j}]", "pay and visit must not be negative")
        _in_range(row.pay, f"trains[{i}].distance[{j}].pay", 0, MAX_DISTANCE)
        _in_range(row.visit, f"trains[{i}].distance[{j}].visit", 0, MAX_DISTANCE)
        # a row multiplier of 0: a row that pays nothing (18FL 3E towns)
        _in_range(row.multiplier, f"trains[{i}].distance[{j}].multiplier", 0, MAX_MULTIPLIER)
        if not row.kinds or any(k not in NODE_KINDS for k in row.kinds):
            raise BoardError(f"trains[{i}].distance[{j}].nodes", f"node kinds, each one of {', '.join(NODE_KINDS)}")
    if train.multiplier < 0:
        raise BoardError(f"trains[{i}].multiplier", "must not be negative")
    _in_range(train.multiplier, f"trains[{i}].multiplier", 1, MAX_MULTIPLIER)


def _check_ruleset_data(board: Board, ruleset: Ruleset) -> None:
    """No data of another ruleset on the board (its `board_data` on the board itself, a hex or a node: 1873's
    `h1873`, say; its `train_data` on a train: 1873's `super`), and no request option another ruleset reads
    (its `request_options`): the rules pricing the board would never read them (a 1873 snapshot whose
    title is lost reads as a standard board)."""
    others = [r for r in rulesets.all_rulesets() if r.name != ruleset.name]
    for key in board.options:
        if key not in ruleset.request_options:
            readers = [r for r in others if key in r.request_options]
            why = _foreign(readers, ruleset, "an option") if readers else \
                f"ruleset {ruleset.name!r} reads no such option"
            raise BoardError(f"options.{key}", why)
    _check_board_data(board, ruleset, others)
    train_owners = {key: other for other in others for key in other.train_data if key not in ruleset.train_data}
    for i, train in enumerate(board.trains):
        keys = dict(train.extra)
        for key, other in train_owners.items():  # in the owner's order of its train data
            if key in keys:
                raise BoardError(f"trains[{i}].{key}", _foreign([other], ruleset, "train data"))


def _check_board_data(board: Board, ruleset: Ruleset, others: list[Ruleset]) -> None:
    """No `board_data` of another ruleset on the board, a hex or a node."""
    owners = {key: other for other in others for key in other.board_data if key not in ruleset.board_data}
    if not owners:
        return
    places = [("", board.extra)]
    if not any(map(_EXTRA, board.hexes.values())) and not any(map(_EXTRA, board.nodes.values())):
        hexes: Iterable[Hex] = ()  # no hex or node has data (a look in C: the loop below would add no place)
    else:
        hexes = board.hexes.values()
    for hx in hexes:
        if hx.extra:
            places.append((f"hexes[{hx.id}].", hx.extra))
        for nid in hx.nodes:
            if board.nodes[nid].extra:
                places.append((f"hexes[{hx.id}].nodes[{nid}].", board.nodes[nid].extra))
    for where, extra in places:
        for key, other in owners.items():  # in the owner's order of its data (its main block first)
            if key in extra:
                raise BoardError(where + key, _foreign([other], ruleset, "data"))


def _foreign(owners: list[Ruleset], ruleset: Ruleset, what: str) -> str:
    """Why input of other rulesets is refused on a board `ruleset` prices."""
    named = " or ".join(f"{r.name!r}" + (f" (the title {r.titles[0]!r})" if r.titles else "") for r in owners)
    return (f"{what} of ruleset {named}, but this board is priced by ruleset {ruleset.name!r}: give the board "
            "that ruleset, or leave it out")


def _check_markers_and_options(board: Board) -> None:
    """Exchange markers (at most one of the company's own, under its station), option and token nodes."""
    own_markers = [n for n in board.nodes.values() if n.exchange_owner and n.exchange_owner == board.company] \
        if any(map(_EXCHANGE_OWNER, board.nodes.values())) else []  # (most boards have no marker: a look in C)
    if len(own_markers) > 1:
        raise BoardError(f"hexes[{own_markers[1].hex}].nodes[{own_markers[1].id}].exchange_owner",
                         f"a company has at most one exchange marker on the board; {board.company} has "
                         f"{len(own_markers)}")
    for n in own_markers:
        if not n.tokened_by_company:
            raise BoardError(f"hexes[{n.hex}].nodes[{n.id}].exchange_owner",
                             "an exchange marker lies under one of the company's own stations")
    if board.options.get("port_token") and board.options["port_token"] not in board.nodes:
        raise BoardError("options.port_token", f"unknown node {board.options['port_token']!r}")
    for i, (_hex, nid) in enumerate(board.company_tokens):
        if nid and nid not in board.nodes:
            raise BoardError(f"company.tokens[{i}].node", f"unknown node {nid!r}")
