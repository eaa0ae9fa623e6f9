"""`routemax whatif`: ranked tables, one JSON object per scenario with the documented fields, and bad
input as one line with the documented exit code."""

from __future__ import annotations

import json
from pathlib import Path

from server.main import main
from tests.conftest import CORPUS

FILE = CORPUS / "1846" / "12666.jsonl.gz"


def _position() -> str:
    import gzip

    with gzip.open(FILE, "rt", encoding="utf-8") as fh:
        return str(sum(1 for line in fh if line.strip()) - 2)  # tests.support.whatif_boards "1846one"


def test_tokens_table(capsys) -> None:
    assert main(["whatif", str(FILE), "--position", _position(), "--tokens"]) == 0
    out = capsys.readouterr().out
    assert "unchanged board" in out and "token in" in out and "OPTIMAL" in out


def test_trains_json_has_the_documented_fields(capsys) -> None:
    assert main(["whatif", str(FILE), "--position", _position(), "--trains", "5,6,D", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[0]["scenario"] == {"kind": "base"} and lines[0]["delta"] == 0
    for line in lines:
        for key in ("scenario", "revenue", "delta", "status", "bound", "routes"):
            assert key in line
    kinds = {(x["scenario"]["kind"], x["scenario"]["train"]) for x in lines[1:]}
    assert kinds == {(k, t) for k in ("add_train", "replace_train") for t in ("5", "6", "D")}
    assert all("replaces" in x["scenario"] for x in lines[1:] if x["scenario"]["kind"] == "replace_train")
    deltas = [x["delta"] for x in lines[1:]]
    assert deltas == sorted(deltas, reverse=True)


def test_scenarios_file_and_svg(tmp_path: Path, capsys) -> None:
    scenarios = tmp_path / "s.json"
    scenarios.write_text(json.dumps([{"label": "diesel", "add_trains": ["D"]}, {"tokens": ["NOPE.city0"]}]))
    svg = tmp_path / "best.svg"
    code = main(["whatif", str(FILE), "--position", _position(), "--scenarios", str(scenarios), "--json",
                 "--svg", str(svg)])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert code == 3  # a scenario was not legal: every answer printed, then the exit code says so
    assert lines[1]["scenario"] == {"kind": "add_train", "train": "D", "label": "diesel"}
    assert lines[2]["status"] == "INVALID" and lines[2]["field"] == "scenarios[1].tokens[0]"
    assert svg.read_text().startswith("<")


def test_bad_input_is_one_line_with_the_exit_code(tmp_path: Path, capsys) -> None:
    cases = [(["whatif", str(FILE), "--position", _position(), "--trains", "5=fast"], 2, "--trains"),
             (["whatif", str(FILE), "--tokens"], 2, "--position"),
             (["whatif", str(FILE), "--position", _position()], 2, "--tokens"),
             (["whatif", str(tmp_path / "none.json"), "--tokens"], 3, "no such file"),
             (["whatif", str(FILE), "--position", _position(), "--tokens", "--workers", "0"], 2, "--workers")]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"tokens": "G7.city0"}]))
    cases.append((["whatif", str(FILE), "--position", _position(), "--scenarios", str(bad)], 3, "scenarios[0].tokens"))
    for argv, code, word in cases:
        assert main(argv) == code, argv
        err = capsys.readouterr().err
        lines = [x for x in err.splitlines() if x.startswith("routemax:")]
        assert len(lines) == 1 and word in lines[0] and "Traceback" not in err, err
