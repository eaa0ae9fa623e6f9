"""Bad input on the command line: one line on standard error naming the file, the position or line,
the field and what is wrong, and the documented exit code; never a traceback, never a silent 0.

Exit codes: 0 ok, 1 negative answer, 2 usage, 3 bad input or output, 4 internal error, 130 interrupted.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import routemax_cli.cli as cli_module
from server.main import main
from solver.examples import example_path
from tests.conftest import CORPUS

REPO = Path(__file__).resolve().parents[2]


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _in_group(pgid: int) -> list[int]:
    """The live processes of a process group (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == pgid and "Z" not in (entry / "stat").read_text().split()[2]:
                    found.append(int(entry.name))
            except (ProcessLookupError, FileNotFoundError, PermissionError):
                continue
    return found


def _one_error_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.startswith("routemax:")]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


@contextmanager
def _sigint_as_at_a_terminal() -> Iterator[None]:
    """Children started inside get SIGINT at its default, as at a terminal where Ctrl-C is pressed. A test
    run that a shell without job control started in the background ignores SIGINT, and a child inherits
    that (its Python then installs no KeyboardInterrupt handler); a handler set here is reset at exec."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "expect"), [
    ('{"format": "18xx-route-snapshot/1", "hexes": [', "not valid JSON"),  # truncated
    ("[]", "JSON object"),  # not a snapshot
    ('{"format": "18xx-route-snapshot/1"', "not valid JSON"),
    ("", "not valid JSON"),
    ('{"format": "18xx-route-snapshot/1", "hexes": [], "x": ' + "9" * 5000 + "}", "not valid JSON"),  # no int
])
def test_broken_snapshot_files_are_bad_input(tmp_path: Path, capsys, text: str, expect: str) -> None:
    path = _write(tmp_path, "snap.json", text)
    code, out, err = _run(capsys, ["solve", str(path)])
    assert code == 3
    line = _one_error_line(err)
    assert str(path) in line and expect in line


@pytest.mark.parametrize("command", [["solve"], ["render", "--out", "x.svg"], ["whatif", "--tokens"]])
def test_a_number_of_thousands_of_digits_is_bad_input(tmp_path: Path, capsys, command: list[str]) -> None:
    """Python reads no integer of more than 4,300 digits: one line naming the file, whatever the command."""
    raw = json.loads((REPO / "solver" / "examples" / "1830_bo_offboard_town.json").read_text())
    path = _write(tmp_path, "snap.json", json.dumps(raw).replace('"revenue": ', '"revenue": ' + "9" * 5000, 1))
    code, _out, err = _run(capsys, [command[0], str(path), *[str(tmp_path / a) if a.endswith(".svg") else a
                                                             for a in command[1:]]])
    assert code == 3
    line = _one_error_line(err)
    assert str(path) in line and "not valid JSON" in line and len(line) < 300


def test_a_lone_surrogate_is_bad_input_naming_its_field(tmp_path: Path, capsys) -> None:
    """JSON lets an escape write half a character (\\ud800), which no output can hold: refused, naming where."""
    raw = json.loads((REPO / "solver" / "examples" / "1830_bo_offboard_town.json").read_text())
    raw["company"]["id"] = "B\ud800O"
    path = _write(tmp_path, "snap.json", json.dumps(raw))
    for command in (["solve"], ["whatif", "--tokens"]):
        code, _out, err = _run(capsys, [command[0], str(path), *command[1:]])
        assert code == 3
        assert "company.id: not Unicode text" in _one_error_line(err)
    out = tmp_path / "audit.jsonl"
    lines = path.read_text().replace("\n", " ")
    (tmp_path / "snaps.jsonl").write_text(lines + "\n" + lines.replace("\\ud800", "") + "\n")
    assert main(["audit", str(tmp_path / "snaps.jsonl"), "--out", str(out), "--workers", "1"]) == 0
    audited = [json.loads(line) for line in out.read_text().splitlines()]
    assert "company.id: not Unicode text" in audited[0]["error"] and "optimum" in audited[1]
    assert out.read_bytes().isascii()


@pytest.mark.parametrize("command", [["evaluate", "--example", "1830", "--routes"], ["mines"],
                                     ["whatif", "--example", "1830", "--scenarios"]])
@pytest.mark.parametrize("bad", ["9" * 5000, '"\\ud800"'], ids=["digits", "surrogate"])
def test_a_side_file_out_of_json_is_bad_input(tmp_path: Path, capsys, command: list[str], bad: str) -> None:
    """The routes, mines and scenarios files are read as strictly as snapshots: one line naming the file."""
    path = _write(tmp_path, "side.json", '[{"train": ' + bad + ', "id": ' + bad + "}]")
    code, _out, err = _run(capsys, [*command, str(path)])
    assert code == 3
    line = _one_error_line(err)
    assert str(path) in line and len(line) < 300
    assert ("not valid JSON" if bad.startswith("9") else "not Unicode text") in line


def test_ids_that_look_like_rich_markup_are_printed_as_given(tmp_path: Path, capsys) -> None:
    """A snapshot's ids and messages are text: `[/]` must not end the program, `[red]` must not colour."""
    raw = json.loads((REPO / "solver" / "examples" / "1830_bo_offboard_town.json").read_text())
    raw["company"]["id"] = "B&O[/]"
    raw["trains"][0]["id"] = "[red]T[/red]"
    path = _write(tmp_path, "snap.json", json.dumps(raw))
    for command in (["solve"], ["evaluate"], ["whatif", "--trains", "5"]):
        code, out, err = _run(capsys, [command[0], str(path), *command[1:]])
        assert code in (0, 1) and "internal error" not in err, err
        assert "[red]T[/red]" in out or command[0] != "solve"
    raw["trains"][0]["distance"] = "[/]bad"  # an error message quoting it, in the audit's list of errors
    bad = _write(tmp_path, "bad.json", json.dumps(raw))
    out_file = tmp_path / "audit.jsonl"
    assert main(["audit", str(bad), "--out", str(out_file), "--workers", "1"]) == 0
    assert "[/]bad" in capsys.readouterr().out


def test_a_hex_no_map_can_place_is_bad_input_when_drawn(tmp_path: Path, capsys) -> None:
    """A hex id that is no letter-number coordinate solves, but a picture cannot place it: bad input naming it."""
    text = (REPO / "solver" / "examples" / "1830_bo_offboard_town.json").read_text()
    path = _write(tmp_path, "snap.json", text.replace('"H16"', '"Hx16"').replace("H16.", "Hx16."))
    code, _out, err = _run(capsys, ["render", str(path), "--out", str(tmp_path / "x.svg")])
    assert code == 3
    assert "hexes[Hx16].id" in _one_error_line(err)


def test_an_audit_of_a_file_not_in_utf8_reports_it_and_goes_on(tmp_path: Path, capsys) -> None:
    text = (REPO / "solver" / "examples" / "1830_bo_offboard_town.json").read_text()
    (tmp_path / "a_latin1.json").write_bytes(text.replace('"id": "B&O"', '"id": "B\u00e9O"').encode("latin-1"))
    (tmp_path / "b_fine.json").write_text(text)
    out = tmp_path / "audit.jsonl"
    assert main(["audit", str(tmp_path), "--out", str(out), "--workers", "1"]) == 0
    audited = {Path(line["source"]).name: line for line in map(json.loads, out.read_text().splitlines())}
    assert audited["a_latin1.json"]["error"] == "not UTF-8 text" and "optimum" in audited["b_fine.json"]


@pytest.mark.parametrize("spec", ["5=" + "9" * 5000, "9" * 5000, "5=" + "9" * 5000 + "D", "5=" + "9" * 20 + "+2"],
                         ids=["distance", "name", "diesel", "plus"])
def test_a_train_spec_of_thousands_of_digits_is_a_usage_error(capsys, spec: str) -> None:
    code, _out, err = _run(capsys, ["whatif", "--example", "1830", "--trains", spec])
    assert code == 2
    line = _one_error_line(err)
    assert "--trains" in line and len(line) < 300


def test_a_truncated_jsonl_gz_is_bad_input(tmp_path: Path, capsys) -> None:
    whole = (CORPUS / "1889" / "962.jsonl.gz").read_bytes()
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(whole[: len(whole) // 3])
    code, _out, err = _run(capsys, ["solve", str(cut), "--json"])
    assert code == 3
    assert str(cut) in _one_error_line(err)


def test_a_missing_file_is_bad_input(tmp_path: Path, capsys) -> None:
    code, _out, err = _run(capsys, ["solve", str(tmp_path / "nope.json")])
    assert code == 3
    assert "no such file" in _one_error_line(err)


@pytest.mark.parametrize("position", ["999", "-1"])
def test_a_position_out_of_range_is_a_usage_error(capsys, position: str) -> None:
    code, out, err = _run(capsys, ["solve", str(example_path("1830")), "--position", position])
    assert code == 2
    assert "--position" in _one_error_line(err)
    assert "summary" not in out


@pytest.mark.parametrize("limit", ["0", "-5", "nan", "inf", "soon"])
def test_a_bad_time_limit_is_a_usage_error(capsys, limit: str) -> None:
    code, _out, err = _run(capsys, ["solve", "--time-limit", limit])
    assert code == 2
    assert "--time-limit" in _one_error_line(err)


@pytest.mark.parametrize(("routes", "field"), [
    ({"foo": 1}, "routes: missing"),
    ([{"nodes": ["A"]}], "routes[0].train"),
    ([{"train": "2-0", "nodes": "A B"}], "routes[0].nodes"),
    ([{"train": "2-0", "nodes": ["A", "B"], "legs": [[1, 2]]}], "routes[0].legs[0]"),
    (7, "routes: must be a list"),
])
def test_a_bad_routes_file_names_the_field(tmp_path: Path, capsys, routes, field: str) -> None:
    path = _write(tmp_path, "routes.json", json.dumps(routes))
    code, out, err = _run(capsys, ["evaluate", "--routes", str(path)])
    assert code == 3
    line = _one_error_line(err)
    assert str(path) in line and field in line
    assert "legal" not in out


def test_a_train_without_distance_is_rejected(tmp_path: Path, capsys) -> None:
    snap = json.loads(example_path("1830").read_text())
    del snap["trains"][0]["distance"]
    path = _write(tmp_path, "nodist.json", json.dumps(snap))
    code, _out, err = _run(capsys, ["solve", str(path)])
    assert code == 3
    assert "trains[0].distance" in _one_error_line(err)


def test_rules_the_optimiser_does_not_price_together_are_bad_input(tmp_path: Path, capsys) -> None:
    snap = json.loads(example_path("1830").read_text())
    snap["revenue_model"], snap["modifiers"] = "modifiers", [
        {"type": "DropLowestRoute", "source": "d", "label": "D", "min_routes": 2},
        {"type": "BestRouteBonus", "source": "b", "label": "B", "award": "first_max", "amount": 10}]
    path = _write(tmp_path, "refused.json", json.dumps(snap))
    code, out, err = _run(capsys, ["solve", str(path)])
    assert code == 3
    line = _one_error_line(err)
    assert "refused.json" in line and "modifiers: the optimiser does not combine BestRouteBonus with DropLowestRoute" \
        in line and "internal" not in line
    code, out, _err = _run(capsys, ["solve", str(path), "--json"])
    assert code == 3 and "does not combine" in json.loads(out.splitlines()[0])["error"]


def test_a_snapshot_with_recorded_null_solves_and_evaluate_says_why_not(tmp_path: Path, capsys) -> None:
    snap = json.loads(example_path("1830").read_text())
    snap["recorded"] = None
    snap["engine"] = None
    path = _write(tmp_path, "unrun.json", json.dumps(snap))
    code, out, _err = _run(capsys, ["solve", str(path), "--json"])
    assert code == 0 and json.loads(out)["status"] == "OPTIMAL"
    code, _out, err = _run(capsys, ["evaluate", str(path)])
    assert code == 3
    assert "recorded: null" in _one_error_line(err)


@pytest.mark.parametrize(("mines", "field"), [
    ({"mines": [{"id": "1", "connected": True, "machine": 2}]}, "mines[0].machine_revenue"),
    ({"mines": [{"id": "1", "machine_revenue": "[...]"}]}, "mines[0].machine_revenue"),
    ({"mines": [{"id": "1", "machine_revenue": [10, 20], "machine": "two"}]}, "mines[0].machine"),
    ({"public": True}, "mines: missing"),
    ([], "JSON object"),
])
def test_a_bad_mines_file_names_the_field(tmp_path: Path, capsys, mines, field: str) -> None:
    path = _write(tmp_path, "mines.json", json.dumps(mines))
    code, _out, err = _run(capsys, ["mines", str(path)])
    assert code == 3
    assert field in _one_error_line(err)


def test_the_readme_mines_example_works(tmp_path: Path, capsys) -> None:
    text = (REPO / "README.md").read_text()
    start = text.index('{"public_company"')
    example = json.loads(text[start: text.index("`", start)])
    path = _write(tmp_path, "mines.json", json.dumps(example))
    code, out, err = _run(capsys, ["mines", str(path), "--json"])
    assert code == 0, err
    assert json.loads(out)["revenue"] > 0


def test_audit_of_a_missing_path_is_bad_input(tmp_path: Path, capsys) -> None:
    code, _out, err = _run(capsys, ["audit", str(tmp_path / "nope_dir"), "--out", str(tmp_path / "a.jsonl")])
    assert code == 3
    assert "nope_dir" in _one_error_line(err)


def test_audit_output_in_a_missing_folder_is_refused(tmp_path: Path, capsys) -> None:
    code, _out, err = _run(capsys, ["audit", str(example_path("1830")), "--out", str(tmp_path / "no" / "a.jsonl")])
    assert code == 3
    assert _one_error_line(err).startswith(f"routemax: --out: {tmp_path / 'no' / 'a.jsonl'}: no such folder")


def test_an_html_report_that_cannot_be_written_is_refused_before_the_run(tmp_path: Path, capsys) -> None:
    """The report is written at the end of the run: a bad path is named before any position is audited."""
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    out = tmp_path / "a.jsonl"
    code, _out, err = _run(capsys, ["audit", str(example_path("1830")), "--out", str(out),
                                    "--html", str(blocker / "r.html")])
    assert code == 3
    assert _one_error_line(err).startswith(f"routemax: --html: {blocker / 'r.html'}: not a folder")
    assert not out.exists()  # refused before the run wrote anything


def test_an_html_report_over_the_audit_output_is_a_usage_error(tmp_path: Path, capsys) -> None:
    out = tmp_path / "a.jsonl"
    code, _out, err = _run(capsys, ["audit", str(example_path("1830")), "--out", str(out), "--html", str(out)])
    assert code == 2
    assert "--html" in _one_error_line(err) and not out.exists()


@pytest.mark.parametrize(("error", "code", "shown"), [
    (PermissionError(13, "Permission denied", "/x/out.svg"), 3, "routemax: /x/out.svg: Permission denied"),
    (ConnectionRefusedError(111, "Connection refused"), 4, "routemax: internal error: ConnectionRefusedError"),
])
def test_an_os_error_is_bad_output_only_when_it_names_a_file(monkeypatch, capsys, error: OSError, code: int,
                                                              shown: str) -> None:
    def fail(args: object) -> int:
        raise error

    monkeypatch.setattr(cli_module, "cmd_mines", fail)
    got, _out, err = _run(capsys, ["mines", "mines.json"])
    assert got == code
    assert _one_error_line(err).startswith(shown)


def test_a_folder_as_the_audit_output_is_bad_input(tmp_path: Path, capsys) -> None:
    code, _out, err = _run(capsys, ["audit", str(example_path("1830")), "--out", str(tmp_path)])
    assert code == 3
    assert "is a folder" in _one_error_line(err)


def test_an_svg_that_cannot_be_written_is_one_line_naming_it(tmp_path: Path, capsys) -> None:
    target = tmp_path / "no_folder" / "map.svg"
    code, _out, err = _run(capsys, ["render", str(example_path("1830")), "-o", str(target)])
    assert code == 3
    assert str(target) in _one_error_line(err)


def test_an_illegal_route_set_is_a_negative_answer_with_named_routes(tmp_path: Path, capsys) -> None:
    snap = json.loads(example_path("1830").read_text())
    route = snap["recorded"]["routes"][0]
    other = next(t["id"] for t in snap["trains"] if t["id"] != route["train"])
    path = _write(tmp_path, "routes.json", json.dumps([route, {**route, "train": other}]))
    code, out, _err = _run(capsys, ["evaluate", "--routes", str(path)])
    assert code == 1
    assert "legal: no" in out and f"route 2 (train {other}): SHARED_TRACK" in out


def test_errors_go_to_stderr_and_results_to_stdout(capsys) -> None:
    code, out, err = _run(capsys, ["solve", "--example", "1830"])
    assert code == 0
    assert "revenue" in out and "summary" not in out
    assert "summary" in err


def test_version_and_help(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("routemax ")
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "exit codes" in capsys.readouterr().out


def test_ctrl_c_during_a_solve_prints_the_best_so_far_and_exits_130(tmp_path: Path) -> None:
    """A real process: SIGINT mid-solve on a board too big to prove quickly."""
    from tests.support.boards import dense_board

    board = dense_board(6)
    path = _write(tmp_path, "dense.json", json.dumps(board.snapshot()))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with _sigint_as_at_a_terminal():
        proc = subprocess.Popen([sys.executable, "-m", "routemax", "solve", str(path), "--time-limit", "20", "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    time.sleep(8.0)  # well into the solve (its proof takes about 14 s here, most of it listing routes)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert time.monotonic() - t0 < 30
    assert "Traceback" not in err and "interrupted" in err
    answer = json.loads(out.splitlines()[-1])
    assert answer["status"] == "FEASIBLE" and answer["revenue"] > 0 and answer["bound"] >= answer["revenue"]


def test_help_loads_no_solver_engine() -> None:
    """`routemax --help` stays quick: parsing the command line loads neither OR-Tools nor Dask nor pandas."""
    code = ("import sys; from server.main import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('ortools', 'dask', 'pandas', 'grpc') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_during_an_audit_stops_cleanly_and_the_audit_resumes(tmp_path: Path, stop: signal.Signals) -> None:
    """A real process with two workers: SIGINT (Ctrl-C) or SIGTERM (a service manager, `kill`) mid-audit
    gives exit 130, one line, no traceback from the parent or the workers, and no worker left running;
    every line written is whole, and the same command resumes. Two titles (346 positions), so that the
    signal comes well before the end."""
    out = tmp_path / "audit.jsonl"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "routemax", "audit", str(CORPUS / "1830"), str(CORPUS / "1846"), "--out", str(out),
           "--workers", "2"]
    with _sigint_as_at_a_terminal():
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
                                start_new_session=True)  # its own process group: the workers' too
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or len(out.read_text().splitlines()) < 5):
        time.sleep(0.02)
    proc.send_signal(stop)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    time.sleep(1.0)
    assert not _in_group(proc.pid), "workers left running"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "resume" in _one_error_line(err)
    lines = out.read_text().splitlines()
    assert lines and all(json.loads(line)["source"] for line in lines)
    again = subprocess.run([*cmd, "--time-limit", "10"], capture_output=True, text=True, env=env, cwd=tmp_path,
                           timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    sources = [json.loads(line)["source"] for line in out.read_text().splitlines()]
    assert len(sources) == len(set(sources)) > len(lines)


def test_too_long_names_the_route_and_its_length(tmp_path: Path, capsys) -> None:
    snap = json.loads(example_path("1830").read_text())
    route = snap["recorded"]["routes"][0]
    train = next(t for t in snap["trains"] if t["id"] == route["train"])
    train["distance"] = 2
    path = _write(tmp_path, "short.json", json.dumps(snap))
    code, out, _err = _run(capsys, ["evaluate", str(path)])
    assert code == 1
    line = next(ln for ln in out.splitlines() if "TOO_LONG" in ln)
    assert f"route 1 (train {route['train']})" in line
    assert f"counts {len(route['nodes'])} stops, the train 2" in line


def test_an_audit_never_reads_what_it_writes(tmp_path: Path) -> None:
    """The output in the folder audited (the resumed run reads the folder again): it is left out of the input,
    and naming it as an input is refused (before, each of its lines became an input line: a run without end)."""
    games = tmp_path / "games"
    games.mkdir()
    (games / "one.jsonl.gz").write_bytes((CORPUS / "1889" / "962.jsonl.gz").read_bytes())  # 48 positions
    out = games / "audit.jsonl"
    cmd = [sys.executable, "-m", "routemax", "audit", str(games), "--out", str(out), "--workers", "1"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for _run_again in range(2):
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 48 and all(str(out) not in line["source"] for line in lines)
    named = subprocess.run([*cmd[:4], str(out), "--out", str(out)], capture_output=True, text=True, env=env,
                           timeout=60, check=False)
    assert named.returncode == 2 and "read what it writes" in _one_error_line(named.stderr)


@pytest.mark.parametrize("command", [["solve"], ["evaluate"], ["whatif", "--tokens"], ["render"]])
def test_a_file_with_no_position_is_bad_input(tmp_path: Path, capsys, command: list[str]) -> None:
    """Nothing to solve, evaluate or draw: one line, exit 3 (solve and evaluate said nothing and exited 0,
    whatif failed with an internal error)."""
    for name, data in (("empty.jsonl", b""), ("blank.jsonl.gz", gzip.compress(b"\n")), ("none.jsonl.gz", b"")):
        path = tmp_path / name
        path.write_bytes(data)
        code, _out, err = _run(capsys, [command[0], str(path), *command[1:]])
        assert code == 3 and "holds no position" in _one_error_line(err), (name, err)


def test_a_file_and_an_example_together_are_a_usage_error(capsys) -> None:
    for command in (["solve"], ["evaluate"], ["whatif", "--tokens"], ["render"]):
        code, _out, err = _run(capsys, [command[0], str(example_path("1830")), "--example", "1839", *command[1:]])
        assert code == 2 and "not both" in _one_error_line(err), command


@pytest.mark.parametrize("workers", ["-3", "x", "1.5", "99999"])
def test_audit_workers_must_be_a_count(tmp_path: Path, capsys, workers: str) -> None:
    code, _out, err = _run(capsys, ["audit", str(example_path("1830")), "--out", str(tmp_path / "a.jsonl"),
                                    "--workers", workers])
    assert code == 2 and "--workers" in err and not (tmp_path / "a.jsonl").exists()
