"""The project's own checks, run by the README's test command (and so by CI): ruff over the tree,
the import contracts of ARCHITECTURE.md (import-linter), and the operators' install, a built wheel
in a fresh venv exercised end to end by `.ci/wheel_smoke.sh`."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import REPO


def _run(*command: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=timeout)


def test_ruff_finds_nothing() -> None:
    done = _run(sys.executable, "-m", "ruff", "check", ".", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_import_contracts_are_kept() -> None:
    done = _run("lint-imports", "--no-logo", timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_built_wheel_works_in_a_fresh_venv() -> None:
    done = _run("bash", ".ci/wheel_smoke.sh", timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "wheel smoke: all steps passed" in done.stdout + done.stderr
