"""CI runs the README's test command, exactly, and that command sets up everything the tests need."""

from __future__ import annotations

import re

from tests.conftest import REPO


def readme_test_command() -> str:
    """The command under "# the tests" in the README's first bash block."""
    block = re.search(r"```bash\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)
    assert block, "the README has no bash block"
    lines = block.group(1).splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("# the tests"))
    return lines[at + 1].strip()


def test_ci_runs_exactly_the_readme_test_command() -> None:
    command = readme_test_command()
    ci = [line.strip() for line in (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    steps = [line for line in ci if line and not line.startswith("#")
             and line not in ("set -euo pipefail", 'cd "$(dirname "$0")/.."')]
    assert steps == [command], steps


def test_readme_test_command_installs_the_project_and_the_browser_then_runs_pytest() -> None:
    steps = [s.strip() for s in readme_test_command().split("&&")]
    assert steps[0] == 'python3 -m pip install -e ".[test]"'
    assert "bash .ci/install_browser.sh" in steps
    assert steps[-1] == "python3 -m pytest"
    script = (REPO / ".ci" / "install_browser.sh").read_text(encoding="utf-8")
    assert "chromium chromium-driver" in script and "apt-get install" in script


def test_the_tests_keep_lint_import_contracts_and_wheel_smoke() -> None:
    checks = (REPO / "tests" / "test_project_checks.py").read_text(encoding="utf-8")
    for step in ('"ruff", "check"', '"lint-imports"', '".ci/wheel_smoke.sh"'):
        assert step in checks, step
