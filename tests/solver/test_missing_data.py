"""Without the shared corpus (a checkout on its own), pytest stops at once with one line and a non-zero exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO


def _pytest_with(env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ROUTEMAX_")}
    env.update(env_extra)
    # test_corpus.py reads the corpus when it is imported: the run must stop before that
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/solver/test_corpus.py"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def _lines(run: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]


@pytest.mark.parametrize("var", ["ROUTEMAX_CORPUS", "ROUTEMAX_STRESS"])
def test_missing_shared_data_is_one_line_and_a_failure(tmp_path: Path, var: str) -> None:
    missing = tmp_path / "nowhere"
    run = _pytest_with({var: str(missing)})
    lines = _lines(run)
    assert run.returncode != 0
    assert len(lines) == 1, lines
    assert str(missing) in lines[0] and f"{var}=" in lines[0], lines[0]
    assert "Traceback" not in run.stderr and "FileNotFoundError" not in lines[0]


def test_an_empty_folder_is_no_corpus(tmp_path: Path) -> None:
    run = _pytest_with({"ROUTEMAX_CORPUS": str(tmp_path)})
    assert run.returncode != 0 and len(_lines(run)) == 1
    assert str(tmp_path) in _lines(run)[0]
