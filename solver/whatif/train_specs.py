"""Train specs of what-if scenarios: which train a name means on a board.

A spec is `NAME` or `NAME=DISTANCE`:
- `NAME` of a train the board holds: a copy of that train (its distance, multiplier, rows);
- otherwise `NAME` must read as a common 18xx train name, and `NAME=DISTANCE` gives any name a
  distance in the same grammar: `n` (n stops), `n+m` (n cities or off-boards plus m towns), `nH`
  (n hexes), `D` (unlimited stops), `nD` (unlimited stops, revenue times n).
Stop revenues by train name (`revenue_by_train`) come from the board, so a name the board does
not know earns the stops' plain revenue (times its multiplier).
"""

from __future__ import annotations

import re

from solver.model.board import UNLIMITED, Board, DistanceRow, Train
from solver.model.errors import BoardError
from solver.model.limits import MAX_DISTANCE, MAX_ID_LENGTH, MAX_MULTIPLIER

_STOPS = re.compile(r"(\d{1,9})")  # longer numbers are no 18xx distance (and no int to read)
_PLUS = re.compile(r"(\d{1,9})\+(\d{1,9})")
_HEXES = re.compile(r"(\d{1,9})H")
_DIESEL = re.compile(r"(\d{0,9})D")


def check_spec(spec: str, where: str) -> tuple[str, str | None]:
    """The (name, distance) of a spec, checked for form only; a BoardError names `where`."""
    name, sep, distance = spec.partition("=")
    name = name.strip()
    if not name or len(name) > MAX_ID_LENGTH:
        raise BoardError(where, f"a train name has 1..{MAX_ID_LENGTH} characters, got {_shown(spec)}")
    if not sep:
        return name, None
    distance = distance.strip()
    if _train_of(name, distance, "x") is None:
        raise BoardError(where, f"{_shown(distance)} is not a distance: give n, n+m, nH, D or nD")
    return name, distance


def _shown(text: str, most: int = 24) -> str:
    """A value as an error message quotes it: a long one cut short."""
    return repr(text) if len(text) <= most else f"{text[:most]!r}... ({len(text):,} characters)"


def _train_of(name: str, distance: str, train_id: str) -> Train | None:
    """A train of this name with the distance in the grammar above, or None when it does not read."""
    distance = distance.upper()
    if m := _STOPS.fullmatch(distance):
        return Train(id=train_id, name=name, unit="stops", distance=min(int(m[1]), MAX_DISTANCE))
    if m := _PLUS.fullmatch(distance):
        rows = (DistanceRow(kinds=("city", "offboard"), pay=int(m[1]), visit=int(m[1])),
                DistanceRow(kinds=("town", "halt"), pay=int(m[2]), visit=int(m[2])))
        if sum(r.visit for r in rows) > MAX_DISTANCE:
            return None
        return Train(id=train_id, name=name, unit="stops_by_type", distance=sum(r.visit for r in rows), rows=rows)
    if m := _HEXES.fullmatch(distance):
        return Train(id=train_id, name=name, unit="hexes", distance=min(int(m[1]), MAX_DISTANCE))
    if m := _DIESEL.fullmatch(distance):
        multiplier = int(m[1] or 1)
        if not 1 <= multiplier <= MAX_MULTIPLIER:
            return None
        return Train(id=train_id, name=name, unit="stops", distance=UNLIMITED, multiplier=multiplier)
    return None


def fresh_id(board: Board, name: str, taken: set[str]) -> str:
    """A train id not on the board yet: `NAME-whatif`, then `NAME-whatif-2`, ..."""
    base = f"{name}-whatif"
    candidate, n = base, 1
    while candidate in taken or any(t.id == candidate for t in board.trains):
        n += 1
        candidate = f"{base}-{n}"
    taken.add(candidate)
    return candidate


def train_for(board: Board, spec: str, where: str, taken: set[str]) -> Train:
    """The train a spec means on this board, with a fresh id; a BoardError naming `where` when the
    spec is malformed or names a train the board does not hold and no distance reads from."""
    from dataclasses import replace

    name, distance = check_spec(spec, where)
    if distance is None:
        held = next((t for t in board.trains if t.name == name), None)
        if held is not None:
            return replace(held, id=fresh_id(board, name, taken))
        train = _train_of(name, name, "")
        if train is None:
            names = sorted({t.name for t in board.trains})
            raise BoardError(where, f"unknown train {name!r}: the board holds {', '.join(names) or 'no trains'}; "
                                    f"give NAME=DISTANCE (n, n+m, nH, D or nD)")
        return replace(train, id=fresh_id(board, name, taken))
    train = _train_of(name, distance, "")
    assert train is not None  # check_spec read it
    return replace(train, id=fresh_id(board, name, taken))
