"""The HTML audit report built by `routemax audit`: route maps of flagged positions, links to 18xx.games,
short position labels, and nothing fetched from the network."""

from __future__ import annotations

import gzip
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from routemax_cli.audit_html import game_url, short_source
from server.main import main
from solver.audit.flags import flagged
from tests.conftest import CORPUS

NS = "{http://www.w3.org/2000/svg}"
# (file, line): three positions where the optimum beats the recorded run, two where it does not.
SAMPLE = [("1830/1830_game_end_bank.jsonl.gz", 3), ("1830/1830_game_end_bank.jsonl.gz", 4),
          ("1830/1830_game_end_bank.jsonl.gz", 30), ("1889/962.jsonl.gz", 19),
          ("18GA/18GA_game_end_bankrupt.jsonl.gz", 1)]
LONG = "a_folder_with_a_rather_long_name_that_would_push_the_columns_off_screen"


def sample_file(folder: Path) -> Path:
    """A JSON lines file of the sample positions, deep under long folder names."""
    lines = []
    for name, wanted in SAMPLE:
        with gzip.open(CORPUS / name, "rt") as fh:
            lines.append(next(line for i, line in enumerate(fh, start=1) if i == wanted))
    path = folder / LONG / LONG / "sample_positions_from_several_titles.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(lines), encoding="utf-8")
    return path


def build_report(folder: Path) -> tuple[Path, list[dict]]:
    """Run `routemax audit --html` on the sample; the report and the audit lines."""
    out, html = folder / "audit.jsonl", folder / "report.html"
    assert main(["audit", str(sample_file(folder)), "--out", str(out), "--workers", "1", "--html", str(html)]) == 0
    return html, [json.loads(x) for x in out.read_text().splitlines()]


def test_flagged_positions_carry_both_maps_and_the_report_embeds_them(tmp_path: Path) -> None:
    html, lines = build_report(tmp_path)
    assert len(lines) == len(SAMPLE)
    marked = [ln for ln in lines if flagged(ln)]
    assert len(marked) == 3 and all(ln["gap"] > 0 for ln in marked)
    for ln in lines:
        assert ("maps" in ln) == flagged(ln), "maps are drawn for flagged positions only"
    for ln in marked:
        for side, routes in (("recorded", ln["verdict"]["routes"]), ("optimum", ln["optimum"]["routes"])):
            root = ET.fromstring(ln["maps"][side].encode())
            drawn = {p for el in root.iter() if "data-paths" in el.attrib for p in el.attrib["data-paths"].split()}
            assert drawn == {p for r in routes for leg in r["legs"] for p in leg}
    page = html.read_text()
    assert page.count("<svg") == 2 * len(marked)
    assert "<?xml" not in page
    for ln in marked:
        assert f"https://18xx.games/game/{ln['game_id']}?action={ln['action_id']}" in page
    assert "https://18xx.games/game/210011?action=70" in page


def test_the_report_is_self_contained_with_short_labels(tmp_path: Path) -> None:
    html, lines = build_report(tmp_path)
    page = html.read_text()
    assert not re.search(r"<link|<img|@import|url\(|\ssrc=", page), "nothing is loaded from elsewhere"
    external = set(re.findall(r"https?://[^\s'\"<>]+", page))
    assert {u for u in external if not u.startswith("https://18xx.games/game/")} <= {
        "http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    cells = re.findall(r"<td class='l src' title='([^']*)'><a href='#p\d+'>([^<]*)</a>", page)
    assert len(cells) == 3
    for full, label in cells:
        assert LONG in full and LONG not in label
        assert label == short_source(full) and label.startswith("sample_positions_from_several_titles:")
    assert "td.src { max-width" in page


def test_short_labels_and_game_links() -> None:
    assert short_source("/work/shared/corpus/1830/29133.jsonl.gz:12") == "1830/29133:12"
    assert short_source("/x/examples/a.json") == "examples/a"
    assert game_url({"game_id": 29133, "action_id": 5}) == "https://18xx.games/game/29133?action=5"
    assert game_url({"game_id": "1446", "action_id": 7}) == "https://18xx.games/game/1446?action=7"
    assert game_url({"game_id": "hs_livfahbv_212247", "action_id": 7}) is None, "hotseat games are not on the site"
    assert game_url({"game_id": 29133, "action_id": None}) is None


def test_an_audit_without_a_report_draws_no_maps(tmp_path: Path) -> None:
    """Maps cost time: they are drawn only when `--html` will show them."""
    out = tmp_path / "audit.jsonl"
    assert main(["audit", str(sample_file(tmp_path)), "--out", str(out), "--workers", "1"]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == len(SAMPLE) and any(flagged(ln) for ln in lines)
    assert not any("maps" in ln for ln in lines)
