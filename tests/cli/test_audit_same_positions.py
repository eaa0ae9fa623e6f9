"""A batch audit solves a position once when copies of it differ only in their `source` block (one game
under two fixture names): each copy's line is the audited one's, with its own identity and `same_as`. A
copy whose block is out of spec, or whose first line may not stand for it, is audited on its own."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

from routemax_cli import audit_run
from routemax_cli.audit_run import expand_paths, iter_items, make_executor, run_audit
from routemax_cli.same_positions import position_key
from solver.input.snapshot import read_positions
from tests.conftest import CORPUS

RAWS = [p.raw for p in read_positions(CORPUS / "18MS" / "17510.jsonl.gz")][:6]  # three of them flagged


def _renamed(raw: dict[str, Any], game: str) -> dict[str, Any]:
    out = copy.deepcopy(raw)
    out["source"] = {**out["source"], "fixture": f"{game}.json", "game_id": game}
    return out


def _write(path: Path, raws: list[dict[str, Any]], indent: int | None = None) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for raw in raws:
            fh.write(json.dumps(raw, indent=indent).replace("\n", " ") + "\n")
    return path


def test_the_key_leaves_out_the_source_block_only() -> None:
    raw = RAWS[0]
    key = position_key(json.dumps(raw))
    assert key is not None and key[1] == raw["source"]
    assert position_key(json.dumps(_renamed(raw, "other")))[0] == key[0]  # type: ignore[index]
    assert position_key(json.dumps(raw, indent=2))[0] != key[0]  # type: ignore[index]  # the text, not the object
    moved = copy.deepcopy(raw)
    moved["hexes"][3]["nodes"] = moved["hexes"][3].get("nodes", []) + [{"id": "x", "kind": "town"}]
    assert position_key(json.dumps(moved))[0] != key[0]  # type: ignore[index]
    titled = copy.deepcopy(raw)
    titled["source"]["title"] = "1830"  # the title may choose the ruleset
    assert position_key(json.dumps(titled))[0] != key[0]  # type: ignore[index]


def test_no_key_without_a_top_level_source_block_in_spec() -> None:
    raw = RAWS[0]
    spoilt = _renamed(raw, "x")
    spoilt["source"]["action_id"] = -1
    assert position_key(json.dumps(spoilt)) is None
    inner = {"format": raw["format"], "note": {"source": raw["source"]}, **{k: v for k, v in raw.items()
                                                                          if k not in ("format", "source")}}
    assert position_key(json.dumps(inner)) is None  # "source" inside another value first
    assert position_key(json.dumps({k: v for k, v in raw.items() if k != "source"})) is None
    assert position_key('{"source": "text", "hexes": []}') is None
    assert position_key(json.dumps(_renamed(raw, "b\ud800"))) is None  # a block no output could hold: refused alone


def test_no_key_where_a_worker_reads_another_block_or_refuses_it() -> None:
    """The block is read by the rules the worker reads the text by (no NaN, at most 64 levels), and a second
    top-level block (the one a reader keeps) gives no key."""
    raw = RAWS[0]
    text = json.dumps(raw)
    assert position_key(text.replace('"source": {', '"source": {"note": NaN, ', 1)) is None
    deep = _renamed(raw, "x")
    deep["source"]["note"] = json.loads("[" * 64 + "]" * 64)
    assert position_key(json.dumps(deep)) is None
    deep["source"]["note"] = json.loads("[" * 60 + "]" * 60)
    assert position_key(json.dumps(deep)) is not None
    second = text[:-1] + ', "source": ' + json.dumps(_renamed(raw, "y")["source"]) + "}"
    assert json.loads(second)["source"]["game_id"] == "y"
    assert position_key(second) is None
    escaped = text[:-1] + ', "\\u0073ource": ' + json.dumps(_renamed(raw, "y")["source"]) + "}"
    assert json.loads(escaped)["source"]["game_id"] == "y"
    assert position_key(escaped) is None
    other = text[:-1] + ', "caf\\u00e9": {"x": 1}}'
    assert json.loads(other)["caf\u00e9"] == {"x": 1}
    assert position_key(other) is not None  # another key written with an escape


def _audit(folder: Path, out: Path, workers: int, maps: bool = False) -> list[dict[str, Any]]:
    with make_executor(workers, False, None) as executor:
        run_audit(iter_items(expand_paths([str(folder)])), out, executor, maps=maps)
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_copies_are_written_from_the_position_audited(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "in").mkdir()
    _write(tmp_path / "in" / "a.jsonl.gz", RAWS)
    _write(tmp_path / "in" / "b.jsonl.gz", [_renamed(r, "b") for r in RAWS])
    audited: list[str] = []
    real = audit_run.audit_text

    def counting(source: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        audited.append(source)
        return real(source, *args, **kwargs)
    monkeypatch.setattr(audit_run, "audit_text", counting)
    lines = _audit(tmp_path / "in", tmp_path / "out.jsonl", workers=1)
    assert len(lines) == 2 * len(RAWS) and len(audited) == len(RAWS)
    by_source = {line["source"]: line for line in lines}
    for i, raw in enumerate(RAWS, start=1):
        first, second = by_source[f"{tmp_path}/in/a.jsonl.gz:{i}"], by_source[f"{tmp_path}/in/b.jsonl.gz:{i}"]
        assert second["same_as"] == first["source"] and "same_as" not in first
        assert second["game_id"] == "b" and first["game_id"] == raw["source"]["game_id"]
        assert {k: v for k, v in second.items() if k not in ("source", "game_id", "same_as")} == \
            {k: v for k, v in first.items() if k not in ("source", "game_id")}


def test_workers_write_copies_in_flight_and_audit_a_copy_out_of_spec(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    spoilt = _renamed(RAWS[1], "c")
    spoilt["source"]["position"] = "first"
    _write(tmp_path / "in" / "a.jsonl.gz", RAWS)
    _write(tmp_path / "in" / "b.jsonl.gz", [_renamed(r, "b") for r in RAWS] + [spoilt])
    lines = _audit(tmp_path / "in", tmp_path / "out.jsonl", workers=2)
    assert len(lines) == 2 * len(RAWS) + 1
    copies = [line for line in lines if "same_as" in line]
    assert len(copies) == len(RAWS) and all(line["game_id"] == "b" for line in copies)
    own = next(line for line in lines if line["source"].endswith(f"b.jsonl.gz:{len(RAWS) + 1}"))
    assert "same_as" not in own and own["error_kind"] == "invalid" and "source.position" in own["error"]


def test_lines_with_route_maps_are_not_copied(tmp_path: Path) -> None:
    """A flagged line's maps name its position: with maps, each copy of a flagged position is audited."""
    (tmp_path / "in").mkdir()
    _write(tmp_path / "in" / "a.jsonl.gz", RAWS)
    _write(tmp_path / "in" / "b.jsonl.gz", [_renamed(r, "b") for r in RAWS])
    lines = _audit(tmp_path / "in", tmp_path / "out.jsonl", workers=1, maps=True)
    mapped = [line for line in lines if "maps" in line]
    assert mapped, "some of these positions are flagged"
    assert not any("same_as" in line for line in mapped)
    assert any("b.json" in line["maps"]["optimum"] for line in mapped)
