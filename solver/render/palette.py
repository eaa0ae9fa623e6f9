"""Colours of the route map. Route colours are saturated and appear nowhere else on the map."""

from __future__ import annotations

ROUTE_COLOURS = (
    "#e6194b", "#1f5fe0", "#2ca02c", "#f58231", "#911eb4", "#00a3a3",
    "#f032e6", "#8c564b", "#000075", "#808000", "#800000", "#4b0082",
)
HEX_FILLS = {
    "white": "#f3efe3", "yellow": "#f8eda4", "green": "#c3e2ad", "brown": "#e2bf9f", "gray": "#d9d9d9",
    "grey": "#d9d9d9", "red": "#f3c1b9", "blue": "#c4e1f6", "sepia": "#e8dcc2", "purple": "#ddcdea",
}
DEFAULT_FILL = "#f3efe3"
EMPTY_FILL = "#faf8f2"  # hexes without track or nodes
HEX_LINE = "#b9b2a3"
TRACK = "#2b2b2b"
TEXT = "#1d1d1d"
MUTED_TEXT = "#55524b"
SLOT_FILL = "#ffffff"
TOKEN_FILL = "#6b6b6b"
TOKEN_TEXT = "#ffffff"
COMPANY_FILL = "#111111"
COMPANY_RING = "#ffc400"
BAD = "#d40000"
LEGEND_BG = "#ffffff"


def route_colour(index: int) -> str:
    """The colour of route `index` (the palette repeats after twelve routes)."""
    return ROUTE_COLOURS[index % len(ROUTE_COLOURS)]


def hex_fill(colour: str) -> str:
    """A pale fill for an engine tile colour name."""
    return HEX_FILLS.get(colour.lower(), DEFAULT_FILL)
