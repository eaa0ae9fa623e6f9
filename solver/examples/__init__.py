"""Built-in example boards: real corpus positions shipped with the package (1830, 1871), and
small hand-made boards for the rulesets the corpus lacks (1839, 1871sc)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
EXAMPLES: dict[str, str] = {
    "default": "1830_bo_offboard_town.json",
    "1830": "1830_bo_offboard_town.json",
    "1871": "1871_h_and_plus_trains.json",
    "1839": "1839_example.json",
    "1871sc": "1871sc_example.json",
}


def example_path(name: str) -> Path:
    """The file of a built-in example; KeyError names the known ones."""
    if name not in EXAMPLES:
        raise KeyError(f"unknown example {name!r}; known: {', '.join(sorted(EXAMPLES))}")
    return HERE / EXAMPLES[name]
