"""Time to render the route map of the largest corpus board (most hexes) with its recorded routes.

Run: `python -m pytest benchmarks/test_render.py --benchmark-only`. Target: median < 50 ms.
"""

from __future__ import annotations

from benchmarks.conftest import CORPUS
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.render import from_recorded, render_svg


def _largest_position() -> dict:
    """The late position with recorded routes on the title whose map has the most hexes."""
    best: tuple[int, int, dict] | None = None
    for path in sorted(CORPUS.glob("*/*.jsonl.gz")):
        raw = next(read_positions(path)).raw
        if raw is None or (best is not None and len(raw["hexes"]) <= best[0]):
            continue
        last = None
        for pos in read_positions(path):
            if pos.raw is not None and (pos.raw.get("recorded") or {}).get("routes"):
                last = pos.raw
        if last is not None:
            best = (len(raw["hexes"]), 0, last)
    assert best is not None
    return best[2]


def test_render_largest_board(benchmark) -> None:  # type: ignore[no-untyped-def]
    raw = _largest_position()
    board = board_from_snapshot(raw)
    routes = from_recorded(raw)
    svg = benchmark(render_svg, board, routes)
    benchmark.extra_info.update(title=raw["source"]["title"], hexes=len(board.hexes), paths=len(board.paths),
                                routes=len(routes), svg_bytes=len(svg))
    assert all(f'data-path="{p}"' in svg for r in routes for leg in r.legs for p in leg)
