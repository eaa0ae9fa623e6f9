"""The `routemax` command line, in process and once through the real entry point."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

from server.main import main
from solver.examples import example_path
from tests.conftest import CORPUS, REPO


def test_readme_main_command_solves_the_built_in_example() -> None:
    done = subprocess.run([sys.executable, "-m", "routemax", "solve"], capture_output=True, text=True, cwd=REPO,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "OPTIMAL" in done.stdout
    recorded = json.loads(example_path("1830").read_text())["recorded"]["routes_revenue"]
    assert f"recorded {recorded}" in done.stdout


def test_solve_json_has_the_documented_fields(capsys) -> None:
    assert main(["solve", str(example_path("1871")), "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 1
    out = lines[0]
    for key in ("source", "revenue", "status", "bound", "solve_ms", "routes"):
        assert key in out
    assert out["status"] == "OPTIMAL" and out["revenue"] >= out["recorded_revenue"]
    for r in out["routes"]:
        assert set(r) >= {"train", "nodes", "legs", "hexes", "revenue"}
        assert len(r["legs"]) == len(r["nodes"]) - 1


def test_solve_jsonl_reports_a_malformed_line_and_goes_on(tmp_path: Path, capsys) -> None:
    src = CORPUS / "1889" / "962.jsonl.gz"
    with gzip.open(src, "rt") as fh:
        lines = [next(fh) for _ in range(3)]
    bad = tmp_path / "mixed.jsonl.gz"
    with gzip.open(bad, "wt") as fh:
        fh.write(lines[0] + "{broken\n" + lines[1] + lines[2])
    assert main(["solve", str(bad), "--json"]) == 3  # bad input (documented exit codes)
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(out) == 4
    assert out[1]["source"].endswith("mixed.jsonl.gz:2") and "not valid JSON" in out[1]["error"]
    assert [o["status"] for i, o in enumerate(out) if i != 1] == ["OPTIMAL"] * 3


def test_position_selects_one_position(capsys) -> None:
    assert main(["solve", str(CORPUS / "1889" / "962.jsonl.gz"), "--position", "2", "--json"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(out) == 1 and out[0]["source"].endswith(":3")


def test_evaluate_recorded_and_claimed_routes(tmp_path: Path, capsys) -> None:
    assert main(["evaluate", "--json"]) == 0
    ok = json.loads(capsys.readouterr().out)
    assert ok["legal"] is True and ok["findings"] == []
    snap = json.loads(example_path("1830").read_text())
    route = snap["recorded"]["routes"][0]
    other = next(t["id"] for t in snap["trains"] if t["id"] != route["train"])
    claims = tmp_path / "routes.json"
    claims.write_text(json.dumps([route, {**route, "train": other}]))
    assert main(["evaluate", "--routes", str(claims), "--json"]) == 1  # a negative answer: illegal
    bad = json.loads(capsys.readouterr().out)
    assert bad["legal"] is False
    assert "SHARED_TRACK" in {f["code"] for f in bad["findings"]}


def test_solve_1873_objectives_and_run_summary(capsys) -> None:
    path = str(CORPUS / "1873" / "hs_gwlftpex_33770.jsonl.gz")
    assert main(["solve", path, "--position", "37", "--json", "--objective", "revenue-only"]) == 0
    money = json.loads(capsys.readouterr().out)
    assert main(["solve", path, "--position", "37", "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)
    assert money["objective"] == "REVENUE_ONLY" and rules["objective"] == "RULEBOOK"
    assert rules["routes_serviced"] > money["routes_serviced"]
    assert money["revenue"] >= money["recorded_revenue"] > rules["revenue"]
    assert money["net_revenue"] == money["revenue"] - money["maintenance"] + money["qlb_bonus"]


def test_mines_command(tmp_path: Path, capsys) -> None:
    spec = tmp_path / "mines.json"
    spec.write_text(json.dumps({"public_company": True, "harzer_werke": False, "mines": [
        {"id": "1", "connected": True, "machine": 2, "switcher": 0,
         "machine_revenue": [40, 50, 60, 70, 80], "switcher_revenue": [30, 40, 50, 60]},
        {"id": "2", "connected": False, "machine": 1, "switcher": 3,
         "machine_revenue": [40, 60, 80, 100, 120], "switcher_revenue": [20, 30, 40, 50]}]}))
    assert main(["mines", str(spec), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # the 3S earns nothing on the unconnected mine 2, so it moves to mine 1: 50 + 40, plus 40 fixed
    assert out["switchers"] == {"1": 3, "2": 0}
    assert out["revenue"] == 130
