"""The registry of rulesets: the one module that names the ruleset packages.

Adding a ruleset: write a package `solver/rulesets/r_<name>/` of the same shape as the others
(`ruleset.py` with a `Ruleset` subclass, exported as `RULESET` from its `__init__`) and add one
line to `_RULESETS` below.
"""

from __future__ import annotations

from solver.model.errors import BoardError
from solver.rulesets import r_1839, r_1871sc, r_1873, r_standard
from solver.rulesets.base import MineProducer, Ruleset

_RULESETS: dict[str, Ruleset] = {r.name: r for r in (
    r_standard.RULESET,
    r_1873.RULESET,
    r_1839.RULESET,
    r_1871sc.RULESET,
)}


def names() -> tuple[str, ...]:
    """The names of the known rulesets, in registration order."""
    return tuple(_RULESETS)


def all_rulesets() -> tuple[Ruleset, ...]:
    return tuple(_RULESETS.values())


def get(name: str) -> Ruleset:
    """The ruleset called `name`; BoardError naming the field `ruleset` when there is none."""
    try:
        return _RULESETS[name]
    except KeyError:
        raise BoardError("ruleset", f"unknown ruleset {name!r}; known: {', '.join(_RULESETS)}") from None


def mine_producer(name: str) -> MineProducer:
    """The ruleset called `name` as a mine producer; BoardError naming `ruleset` when it is none."""
    ruleset = get(name)
    if not isinstance(ruleset, MineProducer):
        raise BoardError("ruleset", f"ruleset {name!r} has no mine production")
    return ruleset


def for_title(title: str) -> str:
    """The ruleset that prices snapshots of an 18xx.games title: the one that claims it, else `standard`."""
    for ruleset in _RULESETS.values():
        if title in ruleset.titles:
            return ruleset.name
    return "standard"
