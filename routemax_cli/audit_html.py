"""A self-contained HTML audit report: the summary, a sortable table of flagged positions, and for
each flagged position the recorded and the optimal routes side by side, as route maps (the SVGs the
audit drew, embedded) and as tables. Nothing is fetched from the network."""

from __future__ import annotations

import re
from html import escape
from pathlib import PurePath
from typing import Any

from routemax_cli.audit_summary import Summary, Tally, flagged

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 100%; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th { background: #eee; cursor: pointer; }
td.l, th.l { text-align: left; }
.wide { max-width: 100%; overflow-x: auto; }
td.src { max-width: 12em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.illegal { color: #b00; font-weight: bold; }
.pair { display: flex; flex-wrap: wrap; gap: 2em; }
.pair > div { flex: 1 1 28em; min-width: 0; }
.pair svg { display: block; width: 100%; height: auto; border: 1px solid #ddd; }
details { margin: 0.5em 0; border: 1px solid #ddd; padding: 0.5em; }
summary { overflow-wrap: anywhere; }
"""

SORT_SCRIPT = """
document.querySelectorAll('table.sortable th').forEach(function (th, col) {
  th.addEventListener('click', function () {
    var table = th.closest('table'), body = table.tBodies[0];
    var rows = Array.from(body.rows), asc = th.dataset.asc !== '1';
    rows.sort(function (a, b) {
      var x = a.cells[col].dataset.v || a.cells[col].textContent;
      var y = b.cells[col].dataset.v || b.cells[col].textContent;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return asc ? c : -c;
    });
    th.dataset.asc = asc ? '1' : '0';
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""


def _tally_rows(rows: list[tuple[str, Tally]]) -> str:
    out = []
    for name, t in rows:
        out.append(f"<tr><td class='l'>{escape(name)}</td><td>{t.positions}</td><td>{t.illegal}</td>"
                   f"<td>{t.below}</td><td>{t.left}</td><td>{t.underserviced}</td><td>{t.mispaid}</td></tr>")
    return "".join(out)


def _routes(routes: list[dict[str, Any]]) -> str:
    if not routes:
        return "<p>(no routes)</p>"
    rows = "".join(f"<tr><td class='l'>{escape(r['train'])}</td><td class='l'>{escape(' - '.join(r['nodes']))}</td>"
                   f"<td>{r['revenue']}</td></tr>" for r in routes)
    return f"<table><tr><th class='l'>train</th><th class='l'>stops</th><th>revenue</th></tr>{rows}</table>"


SHORT_FOLDER = 20  # longer folder names are left out of a position's label (the full path is its title)
OPEN_MAPS = 10  # the first flagged positions show their maps unfolded; the rest open on a click
SITE = "https://18xx.games/game/{game}?action={action}"


def short_source(source: str) -> str:
    """A short label of a position's source: the folder (when short) and file name without suffix, and the line."""
    path, sep, lineno = source.rpartition(":") if re.search(r":\d+$", source) else (source, "", "")
    p = PurePath(path)
    name = p.name.removesuffix(".gz").removesuffix(".jsonl").removesuffix(".json")
    folder = p.parent.name if len(p.parent.name) <= SHORT_FOLDER else ""
    return (f"{folder}/{name}" if folder else name) + (f":{lineno}" if sep else "")


def game_url(line: dict[str, Any]) -> str | None:
    """The action on 18xx.games the position is taken before, when the game is one of the site's
    (a numeric game id; hotseat games, `hs_...`, live only in a browser)."""
    game, action = line.get("game_id"), line.get("action_id")
    if isinstance(game, bool) or action is None or not str(game).isdigit():
        return None
    return SITE.format(game=int(str(game)), action=int(action))


def _source_cell(i: int, ln: dict[str, Any]) -> str:
    source = ln["source"]
    url = game_url(ln)
    link = (f"<a href='{escape(url)}' title='this action on 18xx.games'>action {ln.get('action_id')}</a>" if url
            else "<span title='not a game on 18xx.games (hotseat or unknown)'>–</span>")
    return (f"<td class='l src' title='{escape(source)}'><a href='#p{i}'>{escape(short_source(source))}</a></td>"
            f"<td class='l'>{link}</td>")


def _inline_svg(svg: str) -> str:
    """An SVG document as an element to embed in the page (no XML prolog)."""
    return svg[svg.index("?>") + 2:].lstrip() if svg.startswith("<?xml") else svg


def _side(heading: str, svg: str | None, routes: list[dict[str, Any]]) -> str:
    picture = _inline_svg(svg) if svg else ""
    return f"<div><h4>{heading}</h4>{picture}{_routes(routes)}</div>"


def render(summary: Summary, lines: list[dict[str, Any]]) -> str:
    """The whole page as one string."""
    flagged_lines = [ln for ln in lines if flagged(ln)]
    head = ("<tr><th class='l'></th><th>positions</th><th>illegal</th><th>below optimum</th>"
            "<th>left on the table</th><th>underserviced</th><th>paid not as the rules</th></tr>")
    by_title = _tally_rows(sorted(summary.by_title.items()) + [("all", summary.total)])
    by_company = _tally_rows([(f"{t} {c}", v) for (t, c), v in sorted(summary.by_company.items())])
    outside = ", ".join(f"{escape(t)}: {n}" for t, n in sorted(summary.outside.items())) or "none"
    errors = ", ".join(f"{escape(k)}: {n}" for k, n in sorted(summary.errors.items())) or "none"
    rows, details = [], []
    for i, ln in enumerate(flagged_lines):
        verdict = ln.get("verdict") or {}
        optimum = ln.get("optimum") or {}
        codes = sorted({f["code"] for f in verdict.get("findings", [])})
        legal = "yes" if verdict.get("legal") else "<span class='illegal'>no</span>"
        rows.append(
            f"<tr>{_source_cell(i, ln)}<td class='l'>{escape(ln['title'])}</td>"
            f"<td class='l'>{escape(ln['company'])}</td><td data-v='{int(bool(verdict.get('legal')))}'>{legal}</td>"
            f"<td>{ln.get('recorded_revenue')}</td><td>{optimum.get('revenue')}</td><td>{ln.get('gap')}</td>"
            f"<td class='l'>{escape(', '.join(codes))}</td></tr>")
        findings = "".join(f"<li>{escape(f['code'])}: {escape(f['message'])}</li>" for f in verdict.get("findings", []))
        maps = ln.get("maps") or {}
        url = game_url(ln)
        where = (f"<p><span title='{escape(ln['source'])}'>{escape(short_source(ln['source']))}</span>"
                 + (f" · <a href='{escape(url)}'>action {ln.get('action_id')} on 18xx.games</a>" if url else "")
                 + (f" · <span class='illegal'>map not drawn: {escape(ln['maps_error'])}</span>"
                    if ln.get("maps_error") else "") + "</p>")
        details.append(
            f"<details id='p{i}'{' open' if i < OPEN_MAPS else ''}><summary>"
            f"{escape(short_source(ln['source']))}: {escape(ln['title'])} "
            f"{escape(ln['company'])}, recorded {ln.get('recorded_revenue')}, optimum {optimum.get('revenue')} "
            f"({escape(str(optimum.get('status')))})</summary>{where}<ul>{findings}</ul><div class='pair'>"
            + _side(f"recorded run (by the rules: {verdict.get('revenue')})", maps.get("recorded"),
                    verdict.get("routes", []))
            + _side(f"optimal run ({optimum.get('revenue')})", maps.get("optimum"), optimum.get("routes", []))
            + "</div></details>")
    flagged_table = (
        "<table class='sortable'><thead><tr><th class='l'>position</th><th class='l'>game</th><th class='l'>title</th>"
        "<th class='l'>company</th><th>legal</th><th>recorded</th><th>optimum</th><th>gap</th>"
        f"<th class='l'>findings</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>routemax audit</title>"
        f"<style>{STYLE}</style></head><body><h1>routemax audit</h1>"
        f"<h2>Summary</h2><div class='wide'><table>{head}{by_title}</table></div>"
        f"<p>Outside our rulesets (game-specific bonuses), counted apart: {outside}.</p>"
        f"<p>Not audited: {errors}.</p>"
        f"<h2>By company</h2><div class='wide'><table>{head}{by_company}</table></div>"
        f"<h2>Flagged positions ({len(flagged_lines)})</h2><p>Click a column head to sort.</p>"
        f"<div class='wide'>{flagged_table}</div>"
        f"<h2>Routes of flagged positions</h2>{''.join(details)}"
        f"<script>{SORT_SCRIPT}</script></body></html>")
