"""The command line's rich console: text from a snapshot (ids, names, messages) is printed as given, never
read as rich markup (an id such as `[/]` would end the program, and `[link=...]` would change what is
shown); the few styled words are `rich.text.Text` spans."""

from __future__ import annotations

from rich.console import Console


def plain_console(stderr: bool = False) -> Console:
    """A rich console that reads no markup; when not a terminal, wide enough that tables never wrap titles."""
    probe = Console(stderr=stderr, markup=False)
    return probe if probe.is_terminal else Console(stderr=stderr, width=200, markup=False)
