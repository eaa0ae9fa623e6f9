"""A self-contained HTML audit report: the summary, a sortable table of flagged positions, and for
each flagged position the recorded and the optimal routes side by side."""

from __future__ import annotations

from html import escape
from typing import Any

from server.commandline.audit_summary import Summary, Tally, flagged

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th { background: #eee; cursor: pointer; }
td.l, th.l { text-align: left; }
.illegal { color: #b00; font-weight: bold; }
.pair { display: flex; gap: 2em; }
.pair > div { flex: 1; }
details { margin: 0.5em 0; border: 1px solid #ddd; padding: 0.5em; }
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
            f"<tr><td class='l'><a href='#p{i}'>{escape(ln['source'])}</a></td><td class='l'>{escape(ln['title'])}</td>"
            f"<td class='l'>{escape(ln['company'])}</td><td data-v='{int(bool(verdict.get('legal')))}'>{legal}</td>"
            f"<td>{ln.get('recorded_revenue')}</td><td>{optimum.get('revenue')}</td><td>{ln.get('gap')}</td>"
            f"<td class='l'>{escape(', '.join(codes))}</td></tr>")
        findings = "".join(f"<li>{escape(f['code'])}: {escape(f['message'])}</li>" for f in verdict.get("findings", []))
        details.append(
            f"<details id='p{i}'><summary>{escape(ln['source'])}: {escape(ln['title'])} {escape(ln['company'])}, "
            f"recorded {ln.get('recorded_revenue')}, optimum {optimum.get('revenue')} "
            f"({escape(str(optimum.get('status')))})"
            f"</summary><ul>{findings}</ul><div class='pair'><div><h4>recorded run (by the rules: "
            f"{verdict.get('revenue')})</h4>{_routes(verdict.get('routes', []))}</div><div><h4>optimal run</h4>"
            f"{_routes(optimum.get('routes', []))}</div></div></details>")
    flagged_table = (
        "<table class='sortable'><thead><tr><th class='l'>position</th><th class='l'>title</th>"
        "<th class='l'>company</th><th>legal</th><th>recorded</th><th>optimum</th><th>gap</th>"
        f"<th class='l'>findings</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><title>routemax audit</title>"
        f"<style>{STYLE}</style></head><body><h1>routemax audit</h1>"
        f"<h2>Summary</h2><table>{head}{by_title}</table>"
        f"<p>Outside our rulesets (game-specific bonuses), counted apart: {outside}.</p>"
        f"<p>Not audited: {errors}.</p>"
        f"<h2>By company</h2><table>{head}{by_company}</table>"
        f"<h2>Flagged positions ({len(flagged_lines)})</h2><p>Click a column head to sort.</p>{flagged_table}"
        f"<h2>Routes of flagged positions</h2>{''.join(details)}"
        f"<script>{SORT_SCRIPT}</script></body></html>")
