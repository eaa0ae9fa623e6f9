"""Hypothesis strategies: real boards mutated field by field, random board shapes, claimed runs, raw bytes."""

from __future__ import annotations

import json
import math
from functools import cache
from typing import Any

from hypothesis import strategies as st

from tests.support.fuzz import corpus

Key = str | int
REMOVE = object()
NOT_READ = ("recorded", "engine", "rules", "variant", "variant_applied", "plain_revenue", "plain_revenue_reasons",
            "revenue_model_reasons", "synthetic")
DEEP = [0]
for _ in range(80):
    DEEP = [DEEP]
# The value each mutation puts in place of a field (REMOVE deletes it).
MUTATIONS: dict[str, Any] = {
    "null": None, "string": "E", "empty_string": "", "long_string": "x" * 500, "list": ["E"],
    "nested_list": [["E"]], "list_of_objects": [{}], "object": {"E": 1}, "true": True, "float": 1.5, "negative": -7,
    "zero": 0, "huge": 10**20, "int32_edge": 2**31, "above_limit": 100_001, "inf": math.inf, "nan": math.nan,
    "unknown_enum": "bogus", "remove": REMOVE, "deep": DEEP,
}


def json_paths(value: Any) -> list[tuple[Key, ...]]:
    """Every path to a value inside `value` (iteratively), skipping the blocks no board reads."""
    out: list[tuple[Key, ...]] = []
    stack: list[tuple[tuple[Key, ...], Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        if path:
            out.append(path)
        if isinstance(item, dict):
            stack.extend((path + (k,), v) for k, v in item.items() if path or k not in NOT_READ)
        elif isinstance(item, list):
            stack.extend((path + (i,), v) for i, v in enumerate(item))
    return out


FOLD = ("neighbors", "revenue_by_train", "revenue_by_color", "maintenance_by_phase", "maintenance_table")


def pattern(path: tuple[Key, ...]) -> str:
    """A path with list indices and map keys folded, e.g. `hexes[*].nodes[*].groups`."""
    out = ""
    for i, k in enumerate(path):
        if isinstance(k, int):
            out += "[*]"
        elif i and path[i - 1] in FOLD:
            out += ".*"
        else:
            out += ("." if out else "") + k
    return out


@cache
def patterns_of(i: int) -> dict[str, list[tuple[Key, ...]]]:
    groups: dict[str, list[tuple[Key, ...]]] = {}
    for path in json_paths(corpus.position(i)):
        groups.setdefault(pattern(path), []).append(path)
    return groups


def apply(raw: Any, path: tuple[Key, ...], value: Any) -> None:
    """Put `value` at `path` in `raw` (REMOVE deletes the field or list entry)."""
    parent = raw
    for k in path[:-1]:
        parent = parent[k]
    if value is REMOVE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = json.loads(json.dumps(value)) if isinstance(value, (list, dict)) else value


@st.composite
def mutated_position(draw: st.DrawFn, include_1873: bool = True, max_mutations: int = 3) -> tuple[dict[str, Any], str]:
    """A real position with one to `max_mutations` fields mutated (none with 0); also how (for the tally)."""
    choices = [i for i in range(corpus.count()) if include_1873 or "1873" not in json.dumps(
        corpus.position(i)["source"].get("title", ""))]
    i = draw(st.sampled_from(choices))
    raw = corpus.position(i)
    groups = patterns_of(i)
    labels: list[str] = []
    for _ in range(draw(st.integers(min(1, max_mutations), max_mutations))):
        pat = draw(st.sampled_from(sorted(groups)))
        path = draw(st.sampled_from(groups[pat]))
        kind = draw(st.sampled_from(sorted(MUTATIONS)))
        try:
            apply(raw, path, MUTATIONS[kind])
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or replaced the parent
        labels.append(f"{kind}@{pat}")
        if not draw(st.booleans()):
            break
    return raw, "; ".join(labels)


# Revenue group lists, odd ones first: repeats, empty names, case, blanks, long names, more than the limit.
GROUP_NAMES = ("E", "W", "e", "", " ", "x" * 250)
odd_groups = st.one_of(
    st.lists(st.sampled_from(("E", "W")), min_size=2, max_size=4),  # mostly with a repeat
    st.lists(st.sampled_from(GROUP_NAMES), max_size=5),
    st.integers(1, 3).map(lambda n: ["E"] * n),
    st.integers(15, 18).map(lambda n: [f"G{i}" for i in range(n)]),
)


def node_paths(raw: dict[str, Any]) -> list[tuple[Key, ...]]:
    """The path of every node of a raw snapshot."""
    return [("hexes", i, "nodes", j) for i, hx in enumerate(raw.get("hexes", []))
            for j, _ in enumerate(hx.get("nodes", []) if isinstance(hx, dict) else [])]


@st.composite
def regrouped_position(draw: st.DrawFn, include_1873: bool = True) -> tuple[dict[str, Any], str]:
    """A real position with one to three nodes given odd `groups` lists (repeated names among them)."""
    raw, how = draw(mutated_position(include_1873=include_1873, max_mutations=0))
    nodes = node_paths(raw)
    labels = []
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(nodes))
        groups = draw(odd_groups)
        apply(raw, path + ("groups",), groups)
        labels.append(f"groups={groups[:4]}@hexes[*].nodes[*].groups")
    return raw, "; ".join(labels)


DIRS = {0: (-1, 1), 1: (-1, 0), 2: (0, -1), 3: (1, -1), 4: (1, 0), 5: (0, 1)}  # pointy edges in axial (q, r)


@st.composite
def random_board(draw: st.DrawFn) -> dict[str, Any]:
    """A small random board: a grid of hexes with stops, track and one to three trains of the company."""
    width, height = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    cells = [(q, r) for q in range(width) for r in range(height)]
    hexes = []
    cities = []
    for q, r in cells:
        hid = f"X{q}_{r}"
        neighbors = {str(e): f"X{q + dq}_{r + dr}" for e, (dq, dr) in DIRS.items() if (q + dq, r + dr) in cells}
        edges = sorted(int(e) for e in neighbors)
        hx: dict[str, Any] = {"id": hid, "tile": "t", "color": "yellow", "neighbors": neighbors}
        kind = draw(st.sampled_from(["city", "town", "offboard", "none", "none"]))
        if kind != "none" and edges:
            nid = f"{hid}.{kind}0"
            node: dict[str, Any] = {"id": nid, "kind": kind, "revenue": draw(st.integers(0, 10)) * 10,
                                    "blocks": kind == "offboard", "terminal": kind == "offboard"}
            if draw(st.integers(0, 2)) == 0:  # revenue groups, sometimes with a name repeated
                node["groups"] = draw(st.lists(st.sampled_from(("E", "W")), min_size=1, max_size=3))
            if kind == "city":
                node.update(slots=1, tokens=[None], tokened_by_company=False)
                cities.append(node)
            hx["nodes"] = [node]
            picks = draw(st.lists(st.sampled_from(edges), min_size=1, max_size=3, unique=True))
            hx["paths"] = [{"id": f"{hid}.p{i}", "a": e, "b": nid, "track": "broad"} for i, e in enumerate(picks)]
        elif len(edges) >= 2:
            pairs = draw(st.lists(st.tuples(st.sampled_from(edges), st.sampled_from(edges)).filter(
                lambda p: p[0] != p[1]), max_size=2))
            hx["paths"] = [{"id": f"{hid}.p{i}", "a": a, "b": b, "track": "broad"} for i, (a, b) in enumerate(pairs)]
        hexes.append(hx)
    tokens = []
    if cities:
        home = draw(st.sampled_from(cities))
        home.update(tokens=[{"corp": "CO"}], tokened_by_company=True)
        tokens = [{"hex": home["id"].split(".")[0], "node": home["id"]}]
    trains = []
    for i in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            trains.append({"id": f"T{i}", "name": f"T{i}", "distance": draw(st.integers(2, 5)),
                           "distance_unit": "stops", "requires_token": True})
        else:
            pay = draw(st.integers(2, 3))
            trains.append({"id": f"T{i}", "name": f"{pay}+", "distance_unit": "stops_by_type", "requires_token": True,
                           "distance": [{"nodes": ["city", "offboard"], "pay": pay, "visit": pay},
                                        {"nodes": ["town"], "pay": 99, "visit": 99}]})
    return {"format": "18xx-route-snapshot/1", "source": {"title": "1889", "fixture": "random", "action_id": 1},
            "layout": "pointy", "phase": {"name": "3"}, "company": {"id": "CO", "type": "corporation",
                                                                    "tokens": tokens, "home": []},
            "trains": trains, "hexes": hexes, "revenue_model": "generic", "modifiers": []}


@st.composite
def claimed_routes(draw: st.DrawFn, raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Claims on a board: its recorded routes mutated, random stops, and long runs of one repeated stop."""
    recorded = (raw.get("recorded") or {}).get("routes") or []
    node_ids = [n["id"] for h in raw["hexes"] for n in h.get("nodes", [])] or ["none"]
    path_ids = [p["id"] for h in raw["hexes"] for p in h.get("paths", [])] or ["none"]
    train_ids = [t["id"] for t in raw["trains"]] or ["none"]
    routes = [{"train": r["train"], "nodes": list(r.get("nodes", [])), "legs": [list(x) for x in r.get("legs", [])]}
              for r in recorded]
    how = draw(st.sampled_from(["recorded", "drop_stop", "repeat_stop", "random", "reverse", "swap_trains"]))
    if how == "drop_stop" and routes:
        r = draw(st.sampled_from(routes))
        if r["nodes"]:
            del r["nodes"][draw(st.integers(0, len(r["nodes"]) - 1))]
    elif how == "repeat_stop":
        stop = draw(st.sampled_from(node_ids))
        n = draw(st.integers(2, 60))
        routes.append({"train": draw(st.sampled_from(train_ids)), "nodes": [stop] * n,
                       "legs": [[draw(st.sampled_from(path_ids))] for _ in range(n - 1)]})
    elif how == "random":
        n = draw(st.integers(1, 12))
        routes.append({"train": draw(st.sampled_from(train_ids + ["unknown"])),
                       "nodes": draw(st.lists(st.sampled_from(node_ids + ["nowhere"]), min_size=n, max_size=n)),
                       "legs": [draw(st.lists(st.sampled_from(path_ids), min_size=1, max_size=4))
                                for _ in range(max(0, n - 1 + draw(st.integers(-1, 1))))]})
    elif how == "reverse":
        routes = [{**r, "nodes": r["nodes"][::-1], "legs": [leg[::-1] for leg in r["legs"][::-1]]} for r in routes]
    elif how == "swap_trains" and routes:
        for r in routes:
            r["train"] = draw(st.sampled_from(train_ids))
    return routes


raw_text = st.one_of(
    st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
    st.text(max_size=200),
    st.sampled_from(["[" * 100_000, "{\"a\":" * 50_000, "1e999", "NaN", "-Infinity", "9" * 5000, "null", "[]", "\"x\"",
                     "{\"format\": \"18xx-route-snapshot/1\"}"]),
)
