"""The CP-SAT packing model's build looks at the clock: a model of many options whose track constraints
would take seconds to state stops where the deadline or the cancel token says (`forbid_shared_track`'s
`expired`, `pack`'s build), and the search answers UNKNOWN with the hint it had."""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from solver.model.cancel import CancelToken
from solver.model.results import SolveOptions, Status
from solver.packing.pack import BUILD_CHECK_EVERY, forbid_shared_track, pack
from solver.routes.pricing import Candidate


def _uses(model: cp_model.CpModel, options: int, bits: int) -> list[tuple[str, tuple[int, ...], cp_model.IntVar]]:
    """Options that each hold `bits` track bits out of a few more (many share each bit)."""
    return [("g", tuple((i + b) % (bits + 3) for b in range(bits)), model.new_bool_var(f"x{i}"))
            for i in range(options)]


def test_the_track_constraints_stop_when_expired() -> None:
    whole = cp_model.CpModel()
    assert forbid_shared_track(whole, _uses(whole, 3 * BUILD_CHECK_EVERY, 8))
    stated = len(whole.proto.constraints)
    asked = []

    def expired() -> bool:
        asked.append(1)
        return len(asked) > 1  # the clock runs out after the first look

    cut = cp_model.CpModel()
    assert not forbid_shared_track(cut, _uses(cut, 3 * BUILD_CHECK_EVERY, 8), expired)
    assert stated > 0 and len(cut.proto.constraints) < stated and len(asked) == 2
    never = cp_model.CpModel()
    assert forbid_shared_track(never, _uses(never, 3 * BUILD_CHECK_EVERY, 8), lambda: False)
    assert len(never.proto.constraints) == stated


def test_a_cancelled_build_answers_unknown_with_the_hint() -> None:
    """Fewer candidates than the candidate loop's look at the clock, but more options (eleven classes each)
    than the track constraints': the cut comes from stating them."""
    classes = 11
    cands = [Candidate(nodes=("a", "b"), legs=(), mask=1 << (i % 50), bits=(i % 50,),
                       revenue={ci: [10, i % 7] for ci in range(classes)}) for i in range(400)]
    assert len(cands) < 512 and len(cands) * classes > BUILD_CHECK_EVERY
    token = CancelToken()
    token.cancel()
    args = ([1] * classes, time.monotonic() + 60, [(0, 0)], ["g"] * classes)
    found = pack(cands, args[0], SolveOptions(cancel=token), *args[1:])
    assert found.status == Status.UNKNOWN and found.chosen == [(0, 0)] and found.stats.get("build_cut") == 1.0
    solved = pack(cands, args[0], SolveOptions(), *args[1:])
    assert solved.status == Status.OPTIMAL and solved.bound == classes * 16
