"""A claimed leg is checked once per board (`solver.model.leg_checks`): asked again on that board, the very
answer (the same Leg object, the same message); a board with other hexes, nodes or paths (a view or a what-if
made with `replace`, dicts swapped) checks anew, and every answer is the one a fresh check gives."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from typing import Any

from solver.input.hex_reuse import HexReuse
from solver.input.snapshot import board_from_snapshot, read_positions
from solver.model.board import Board
from solver.model.leg_checks import LegChecks, checks_of
from solver.model.legs import Leg, _check_leg, leg_from_paths
from solver.routes.claims import claims_from_recorded
from tests.conftest import CORPUS
from tests.support.boards import chain_board


def _chain() -> tuple[Board, list[str]]:
    b, cities = chain_board([10, 20, 30])
    b.train("2-0", 2)
    return b.board(), cities


def test_asked_again_the_very_answer() -> None:
    board, (c0, c1, _c2) = _chain()
    first = leg_from_paths(board, c0, c1, ["H0.p0", "H1.p0"])
    assert isinstance(first, Leg) and first.paths == ("H0.p0", "H1.p0")
    assert leg_from_paths(board, c0, c1, ["H0.p0", "H1.p0"]) is first
    back = leg_from_paths(board, c1, c0, ["H0.p0", "H1.p0"])  # listed from the other end: read backwards
    assert isinstance(back, Leg) and back.paths == ("H1.p0", "H0.p0") and back.a == c1
    assert first == _check_leg(board, c0, c1, ["H0.p0", "H1.p0"])


def test_errors_are_kept_word_for_word() -> None:
    board, (c0, c1, c2) = _chain()
    cases = [(c0, c2, ["H0.p0", "H1.p0"]), (c0, c1, ["H0.p0", "H9.p0"]), (c0, c1, []),
             (c0, c1, ["H0.p0", "H0.p0"]), (c1, c0, ["H1.p1", "H0.p0"])]
    for a, b, pids in cases:
        want = _check_leg(board, a, b, pids)
        assert isinstance(want, str)
        assert leg_from_paths(board, a, b, pids) == want
        assert leg_from_paths(board, a, b, pids) == want  # kept
    assert len(board.leg_checks.answers) == len(cases)


def test_a_board_with_other_paths_checks_anew() -> None:
    """The kept answer of one board is never given on a board whose paths differ."""
    board, (c0, c1, _c2) = _chain()
    assert isinstance(leg_from_paths(board, c0, c1, ["H0.p0", "H1.p0"]), Leg)
    narrow = {pid: (replace(p, track="narrow") if pid == "H1.p0" else p) for pid, p in board.paths.items()}
    view = replace(board, paths=narrow)
    assert view.leg_checks is None  # `replace` never copies the checks
    why = leg_from_paths(view, c0, c1, ["H0.p0", "H1.p0"])
    assert why == "gauges of H0.p0 (broad) and H1.p0 (narrow) do not fit"
    board.paths = narrow  # the dicts swapped on the board itself: its checks are no longer bound to it
    assert leg_from_paths(board, c0, c1, ["H0.p0", "H1.p0"]) == why
    copied = copy.copy(view)  # a copy holds the view's checks, bound to the same dicts: the same answers
    assert checks_of(copied) is view.leg_checks


def test_checks_are_bounded() -> None:
    board, (c0, c1, _c2) = _chain()
    checks = checks_of(board)
    for i in range(LegChecks.LIMIT):
        checks.keep((c0, c1, (f"x{i}",)), "no")
    assert len(checks.answers) == LegChecks.LIMIT
    leg = leg_from_paths(board, c0, c1, ["H0.p0", "H1.p0"])
    assert list(checks.answers.values()) == [leg]


def _mangled(rng: random.Random, pids: list[str], every: list[str]) -> list[str]:
    """A claimed leg's path ids, broken one way or another (or kept)."""
    pids = list(pids)
    way = rng.randrange(5)
    if way == 0 and len(pids) > 1:
        rng.shuffle(pids)
    elif way == 1:
        pids[rng.randrange(len(pids))] = rng.choice(every)
    elif way == 2:
        pids.append(rng.choice(every))
    elif way == 3 and len(pids) > 1:
        del pids[rng.randrange(len(pids))]
    return pids


def test_corpus_legs_as_a_fresh_check_gives() -> None:
    """Recorded legs (and broken ones) on boards read one after another with one `HexReuse`, each asked twice:
    what the check gives on the board read alone, every time."""
    rng = random.Random(7)
    reuse = HexReuse()
    asked = 0
    for path in sorted(CORPUS.glob("*/*.jsonl.gz"))[:3]:
        for pos in list(read_positions(path))[:40]:
            if pos.error or not isinstance(pos.raw, dict) or not pos.raw.get("recorded"):
                continue
            board = board_from_snapshot(copy.deepcopy(pos.raw), reuse)
            alone = board_from_snapshot(copy.deepcopy(pos.raw))
            every = list(board.paths)
            for claim in claims_from_recorded(pos.raw["recorded"]):
                for i, pids in enumerate(claim.legs):
                    a, b = claim.nodes[i], claim.nodes[i + 1]
                    for ask in (pids, _mangled(rng, pids, every)):
                        want = _check_leg(alone, a, b, ask)
                        for _twice in range(2):
                            got: Any = leg_from_paths(board, a, b, ask)
                            assert got == want
                            asked += 1
    assert asked > 200
