"""Test that an algorithm cannot end, hold or fool the checks' own process.

Each hostile variant runs in a worker (:mod:`hanoi_harness.testing.isolated`). Its exit, its
interrupt, its hang, its endless run or its patches of pytest fail the check with a reason,
and the other checks still run.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hanoi_harness.testing import CheckFailed, parametrize_with_checks
from hanoi_harness.testing.isolated import Worker, spec_of
from hanoi_harness.testing.suite import CHECKS

CHECK = {check.name: check for check in CHECKS}

REFERENCE = """
def hanoi(n, a=0, b=1, c=2):
    if n:
        yield from hanoi(n - 1, a, c, b)
        yield (n, a, c)
        yield from hanoi(n - 1, b, a, c)
"""

HOSTILE = {
    "exits": "import os\ndef solve(n):\n    for step, move in enumerate(hanoi(n), 1):\n"
    "        if step == 3:\n            os._exit(0)\n        yield move\n",
    "interrupts": "def solve(n):\n    yield from hanoi(n)\n    raise KeyboardInterrupt\n",
    "quits": "import sys\ndef solve(n):\n    yield from hanoi(n)\n    sys.exit(0)\n",
    "hangs": "import time\ndef solve(n):\n    time.sleep(3600)\n    yield from hanoi(n)\n",
    "endless": "def solve(n):\n    while True:\n        yield from hanoi(n)\n",
    "patches": "import _pytest.python\n_pytest.python.Function.runtest = lambda self: None\n"
    "from hanoi_harness.testing import suite\nsuite.Check.__call__ = lambda self, algorithm: None\n"
    "def solve(n):\n    for disk, src, dst in hanoi(n):\n        yield (disk, dst, src)\n",
    "kills": "import os, signal\ndef solve(n):\n    os.kill(os.getpid(), signal.SIGKILL)\n    yield from hanoi(n)\n",
}


def variant(tmp_path: Path, name: str) -> str:
    """Write the hostile variant *name*; its ``FILE.py:solve`` spec."""
    path = tmp_path / f"{name}.py"
    path.write_text(REFERENCE + HOSTILE[name])
    return f"{path}:solve"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("exits", "its process ended during the check: the process exited with status 0"),
        ("interrupts", "crashed at step 1: Interrupted: KeyboardInterrupt"),
        ("quits", "crashed at step 1: Interrupted: SystemExit: 0"),
        ("kills", "SIGKILL"),
    ],
)
def test_an_ending_variant_fails_the_check_with_its_reason(tmp_path: Path, name: str, reason: str) -> None:
    with pytest.raises(CheckFailed) as caught:
        CHECK["legal"](variant(tmp_path, name))
    said = str(caught.value)
    assert said.startswith("solve failed the check 'legal': ")
    assert reason in said or reason.replace("step 1", "step 2") in said, said


def test_a_hang_or_an_endless_run_fails_within_the_time_cap(tmp_path: Path) -> None:
    worker = Worker(variant(tmp_path, "hangs"), timeout=1.0)
    assert "did not finish within 1 seconds" in worker.ask({"check": "legal"})["failed"]
    endless = Worker(variant(tmp_path, "endless"), timeout=1.0)
    assert "did not finish within 1 seconds" in endless.ask({"check": "streaming"})["failed"]
    assert endless.ask({"check": "legal"}) != {"ok": True}  # a fresh worker: the check runs again


def test_a_name_that_cannot_load_gets_one_failing_test(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("raise SystemExit(3)\n")
    (case,) = parametrize_with_checks([f"{broken}:solve"]).args[1]
    assert case.id.endswith("-load")
    with pytest.raises(CheckFailed, match="failed to import: SystemExit: 3"):
        case.values[1](case.values[0])


def test_a_lambda_runs_in_this_process() -> None:
    assert spec_of(lambda n: iter(())) is None


@pytest.mark.slow
def test_a_pytest_run_of_hostile_variants_reports_each_and_exits_1(tmp_path: Path) -> None:
    specs = [variant(tmp_path, name) for name in ("exits", "interrupts", "quits", "patches", "endless")]
    (tmp_path / "test_hostile.py").write_text(
        textwrap.dedent(
            f"""
            from hanoi_harness.testing import parametrize_with_checks

            @parametrize_with_checks({specs!r}, checks=["legal", "streaming"], timeout=3)
            def test_conformance(algorithm, check):
                check(algorithm)
            """
        )
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    assert "exited with status 0" in out and "KeyboardInterrupt" in out and "SystemExit: 0" in out
    assert "illegal at step 1" in out  # the patched pytest did not reach the judge
    assert "did not finish within 3 seconds" in out
    assert "passed" in out.splitlines()[-1]  # the other checks still ran


def test_one_cause_is_told_in_full_once(tmp_path: Path) -> None:
    path = tmp_path / "crashing.py"
    path.write_text(REFERENCE + "def solve(n):\n    yield from hanoi(n)\n    raise IndexError('no such peg')\n")
    said = []
    for name in ("legal", "optimal", "final_peg"):
        with pytest.raises(CheckFailed) as caught:
            CHECK[name](f"{path}:solve")
        said.append(str(caught.value))
    assert "Traceback" in said[0] and "IndexError: no such peg" in said[0]
    assert all("(the same failure as the check 'legal', told there in full)" in text for text in said[1:2])
    assert all("Traceback" not in text for text in said[1:2])


def test_the_worker_answers_in_this_process_too(tmp_path: Path) -> None:
    from hanoi_harness.testing.worker import answer

    state: dict[str, object] = {}
    loaded = answer({"load": "recursive"}, state)
    assert loaded["name"] == "recursive" and "legal" in loaded["checks"]
    assert answer({"check": "legal"}, state) == {"ok": True} and answer({"check": "load"}, state) == {"ok": True}
    assert answer({"load": spec_of(parametrize_with_checks)}, state)["name"] == "parametrize_with_checks"
    assert "no algorithm is named 'nothing_here'" in answer({"load": "nothing_here"}, state)["failed"]
    assert answer({"load": variant(tmp_path, "interrupts")}, state)["name"] == "solve"
    assert "Interrupted: KeyboardInterrupt" in answer({"check": "legal"}, state)["failed"]
    state["record"] = None
    assert answer({"check": "legal"}, state)["failed"].startswith("crashed: AttributeError")
