"""Test a variant in a project of its own, end to end.

``hanoi new`` writes it, its own pytest run checks it, and its gate (bench, compare) passes unchanged.
The gate fails on a missing baseline or 3% more instructions a move.

The fast test runs the new project's tests in a pytest of their own, from the project's directory, as its author
would; the slow one measures it (valgrind) through ``--plugin``, with no install.  ``.ci/variant`` runs the same
recipe against the installed wheel in a fresh venv, with the project's own ``ci/gate``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import run_cli

NAME = "clockwise_mine"

ILLEGAL_AT_STEP_5 = """

_made = solve


def solve(n):
    for step, (disk, src, dst) in enumerate(_made(n), 1):
        yield (disk, dst, src) if step == 5 else (disk, src, dst)
"""
"""What a copy of the new module gets before its record: its solve, with the fifth move's pegs exchanged."""

MOVE = "        if largest:\n            yield (k, src, dst)"
THREE_PERCENT = MOVE.replace("yield", "k = k + 0\n            dst = dst\n            src = src\n            yield")
"""Three statements more a move: 3.5% more instructions a move of the new module (CPython 3.11)."""


def new_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Write the new project *NAME* into *tmp_path*; its directory."""
    project = tmp_path / NAME
    code, _, err = run_cli(capsys, "new", NAME, "--dir", str(project))
    assert code == 0, err
    return project


def plant(project: Path, before: str, text: str) -> None:
    """Put *text* in the new module in place of *before* (which must be there)."""
    module = project / f"{NAME}.py"
    source = module.read_text()
    assert before in source
    module.write_text(source.replace(before, text))


def pytest_in(project: Path, *args: str) -> tuple[int, str]:
    """Run pytest in *project*'s directory, as its author would.

    Return its exit status and output.
    """
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTEST_", "COV_"))}
    env["PYTHONPATH"] = str(project)  # the entry point's metadata, as pip leaves it
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", *args],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    return done.returncode, done.stdout + done.stderr


def installed(project: Path) -> None:
    """Leave the project's entry point beside it, where pip would.

    Its metadata is put on the path (``PYTHONPATH``).
    """
    info = project / f"{NAME}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {NAME}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[hanoi.algorithms]\n{NAME} = {NAME}:{NAME}\n")


def test_a_new_project_passes_its_checks_and_a_planted_illegal_move_fails_naming_step_5(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = new_project(tmp_path, capsys)
    installed(project)
    code, out = pytest_in(project, "-k", NAME, "--hanoi-check-installed")
    assert code == 0, out
    tests = [line.split()[0] for line in out.splitlines() if " PASSED" in line]
    own = [test for test in tests if test.startswith(f"tests/test_{NAME}.py::test_conformance[{NAME}-")]
    assert len(own) >= 8 and len(tests) == 2 * len(own), out  # and as many again, of the installed entry point
    record = f"\n\n{NAME} = Algorithm("
    plant(project, record, ILLEGAL_AT_STEP_5 + record)
    code, out = pytest_in(project, "-k", f"{NAME} and legal")
    assert code == 1, out
    assert f"{NAME} failed the check 'legal': n = 3: illegal at step 5: move 1 0 1: peg 0 is empty" in out
    assert f"FAILED tests/test_{NAME}.py::test_conformance[{NAME}-legal]" in out


def bench(capsys: pytest.CaptureFixture[str], out: Path, name: str, spec: str | None = None) -> None:
    """Run a quick bench of *name* and the reference into *out*.

    The plugin *spec* is loaded when given.
    """
    plugin = ["--plugin", spec] if spec else []
    code, _, err = run_cli(capsys, "bench", name, "--quick", "--out", str(out), *plugin)
    assert code == 0, err


@pytest.mark.slow
def test_the_gate_of_a_new_project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = new_project(tmp_path, capsys)
    spec = f"{project / NAME}.py:{NAME}"
    baseline, again, lacking, planted = (tmp_path / name for name in ("baseline", "again", "lacking", "planted"))
    bench(capsys, baseline, NAME, spec=spec)
    bench(capsys, again, NAME, spec=spec)
    code, out, err = run_cli(capsys, "compare", str(baseline), str(again), NAME)
    assert code == 0 and "no regression beyond 1%" in out, err
    bench(capsys, lacking, "recursive")
    for named in ([NAME], []):
        code, _, err = run_cli(capsys, "compare", str(lacking / "results.json"), str(again), *named)
        assert code == 3 and f"hanoi: no baseline for {NAME} in " in err
    plant(project, MOVE, THREE_PERCENT)
    bench(capsys, planted, NAME, spec=spec)
    code, out, err = run_cli(capsys, "compare", str(baseline), str(planted), NAME)
    assert code == 1 and f"hanoi: regression: {NAME} (instructions per move)" in err
    change = re.search(rf"^{NAME} +[\d.]+ +[\d.]+ +\+([\d.]+)% +REGRESSION", out, re.MULTILINE)
    assert change is not None and 2.0 < float(change.group(1)) < 6.0, out
