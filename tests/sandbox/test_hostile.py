"""Test hostile plugins against the real command.

No forged verdict, no import that escapes, no code from the current directory, nothing left running.
The plugins are files in ``tests/fixtures/plugins``.

Each test runs the installed ``hanoi`` command in a subprocess, as a user would (``python -m`` would put
the current directory on the import path of the test's own process).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import FIXTURES, assert_one_line_error, gone

PLUGINS = FIXTURES / "plugins"
HANOI = str(Path(sys.executable).with_name("hanoi"))


def hanoi(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the ``hanoi`` command with *args*; what it printed and its status."""
    return subprocess.run(
        [HANOI, *args], cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=300
    )


def plugin(spec: str) -> str:
    return f"{PLUGINS / spec}"


def flat(text: str) -> str:
    """Return *text* with every run of white space one space.

    A table's wrapped cells then read as one line.
    """
    return " ".join(text.split())


def row(out: str, name: str) -> list[str]:
    """The table row of algorithm *name*, split on whitespace."""
    return next(line.split() for line in out.splitlines() if line.split()[:1] == [name])


def pids(path: Path) -> dict[str, int]:
    """The pids the fixtures reported, by role."""
    if not path.exists():
        return {}
    return {role: int(pid) for role, pid in (line.split() for line in path.read_text().splitlines())}


def wait_for(found: Callable[[], bool], within: float = 60.0) -> None:
    end = time.monotonic() + within
    while not found():
        assert time.monotonic() < end, "the processes never reported"
        time.sleep(0.05)


# --- verdicts nobody can forge ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "status", "fragment"),
    [
        ("forged", "crashed", "the process broke the move stream: bytes that are not a frame"),
        ("claims_done", "incomplete", "after 0 moves"),
    ],
)
def test_a_plugin_cannot_forge_its_verdict(name: str, status: str, fragment: str) -> None:
    done = hanoi("verify", name, "--n", "4", "--plugin", plugin(f"forge.py:{name}"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert row(done.stdout, name)[2] == status and fragment in flat(done.stdout)


def test_a_record_cannot_forge_its_segmented_verdict() -> None:
    spec = plugin("forge.py:FORGED_RECORD")
    sequential = hanoi("verify", "forged_record", "--n", "6", "--plugin", spec)
    segmented = hanoi("verify", "forged_record", "--n", "6", "--workers", "2", "--segment-size", "7", "--plugin", spec)
    for done in (sequential, segmented):
        assert done.returncode == 1, done.stdout + done.stderr
        assert row(done.stdout, "forged_record")[2] in ("crashed", "illegal")


def test_a_fork_inside_a_plugin_is_a_second_writer_and_is_ended(tmp_path: Path) -> None:
    report = tmp_path / "pids"
    done = hanoi(
        "verify", "forks", "--n", "4", "--plugin", plugin("forks.py:forks"), env={"HANOI_TEST_PIDS": str(report)}
    )
    assert done.returncode == 1 and "did the algorithm fork?" in flat(done.stdout), done.stdout + done.stderr
    assert gone(pids(report)["child"])


def test_what_a_plugin_leaves_running_is_ended_with_its_run(tmp_path: Path) -> None:
    report = tmp_path / "pids"
    done = hanoi(
        "verify", "leaves", "--n", "5", "--plugin", plugin("leaves.py:leaves"), env={"HANOI_TEST_PIDS": str(report)}
    )
    assert done.returncode == 0, done.stdout + done.stderr
    left = pids(report)
    assert set(left) == {"child", "escapee"}
    assert gone(left["child"]) and gone(left["escapee"])  # one in its group, one that left its session


# --- importing a plugin --------------------------------------------------------------------------------------


IMPORTS = [
    ("exits.py:f", "failed to import: SystemExit: 0"),
    ("os_exit.py:f", "importing it ended the process (exit status 3)"),
    ("loops.py:f", "importing it took more than 2 s; it was stopped"),
]


@pytest.mark.parametrize(("spec", "fragment"), IMPORTS)
@pytest.mark.parametrize("command", [["verify", "--n", "3"], ["verify", "f", "--n", "3", "--workers", "2"]])
def test_a_plugin_misbehaving_at_import_is_one_line(command: list[str], spec: str, fragment: str) -> None:
    # Only the plugin that never finishes needs a short timeout: the others end by themselves.  A
    # busy machine can take more than 2 s to start a child that imports numpy.
    timeout = "2" if spec.startswith("loops") else "60"
    done = hanoi(*command, "--plugin", str(PLUGINS / "at_import" / spec), "--timeout", timeout)
    assert_one_line_error(done.returncode, done.stderr, fragment)
    assert done.stdout == ""


@pytest.mark.parametrize(("spec", "fragment"), IMPORTS[:2])
def test_commands_that_run_plugins_here_import_them_in_a_child_first(spec: str, fragment: str) -> None:
    done = hanoi("moves", "f", "3", "--plugin", str(PLUGINS / "at_import" / spec))
    assert_one_line_error(done.returncode, done.stderr, fragment)
    assert done.stdout == ""


def test_a_change_of_directory_at_import_changes_no_path(tmp_path: Path) -> None:
    (tmp_path / "plugins").mkdir()
    for name in ("good.py",):
        (tmp_path / "plugins" / name).write_text((PLUGINS / name).read_text())
    (tmp_path / "plugins" / "moves_away.py").write_text((PLUGINS / "at_import" / "moves_away.py").read_text())
    relative = ["--plugin", "plugins/moves_away.py:moves_away", "--plugin", "plugins/good.py:variant"]
    done = hanoi("moves", "variant", "3", "--digest", *relative, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "7 488\n", done.stderr  # the second plugin found after the chdir
    done = hanoi("verify", "--n", "3", *relative, cwd=tmp_path)
    assert done.returncode == 0 and row(done.stdout, "moves_away")[2] == "ok", done.stdout + done.stderr


# --- code from the current directory -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["verify", "recursive", "blocks", "--n", "5"],
        ["verify", "bitwise", "--n", "10", "--workers", "2", "--segment-size", "100"],
        ["verify", "--n", "3", "--plugin", str(PLUGINS / "good.py:variant")],
        ["moves", "variant", "4", "--digest", "--plugin", str(PLUGINS / "good.py:variant")],
    ],
)
def test_no_code_from_the_current_directory_runs(tmp_path: Path, command: list[str]) -> None:
    marker = tmp_path / "marker"
    done = hanoi(*command, cwd=FIXTURES / "cwd", env={"HANOI_TEST_MARKER": str(marker)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert not marker.exists(), marker.read_text()


@pytest.fixture
def in_planted_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test in a directory of planted modules; the marker's path.

    A planted module would leave the marker if imported.
    """
    marker = tmp_path / "marker"
    monkeypatch.setenv("HANOI_TEST_MARKER", str(marker))
    monkeypatch.chdir(FIXTURES / "cwd")
    return marker


def test_the_peak_rss_child_is_isolated_from_the_current_directory(in_planted_directory: Path) -> None:
    from hanoi_harness.bench.memory.measure import Rss, rss_peak

    assert isinstance(rss_peak("recursive", 8, [], 120), Rss)
    assert not in_planted_directory.exists()


def test_the_bench_programs_children_are_isolated_from_the_current_directory(in_planted_directory: Path) -> None:
    from benchmarks import cref, scaling

    seconds, digest = scaling.time_verify("bitwise", 4, [])
    assert seconds > 0 and digest == "2357"  # the 15 moves of 4 disks, as hanoi moves bitwise 4 --digest says
    if cref.compiler() is not None:
        result = cref.measure(8, repeat=1)
        assert result["identical"] and result["python_blocks"] > 0
    assert not in_planted_directory.exists(), in_planted_directory.read_text()


def test_timing_and_the_environment_start_no_python_that_reads_the_current_directory(
    in_planted_directory: Path, tmp_path: Path
) -> None:
    """Timing and the environment start no Python reading the current dir.

    pytest-benchmark and the environment's record once asked py-cpuinfo, whose 'python -m cpuinfo' child
    imported the planted json.py.
    """
    from hanoi_harness.bench.results.environment import capture, cpu_model
    from hanoi_harness.bench.timing.measure import Case, time_cases
    from hanoi_harness.registry.sources import REGISTRY

    found = time_cases([Case(REGISTRY.get("recursive"), 2)], tmp_path, min_rounds=1, max_time_s=0.01)
    assert found.report["machine_info"]["cpu"]["brand_raw"] == cpu_model() != ""
    assert capture("no valgrind here").cpu == cpu_model()
    assert not in_planted_directory.exists(), in_planted_directory.read_text()


# --- signals: nothing outlives the command -------------------------------------------------------------------


@pytest.mark.parametrize(("how", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, -15), (signal.SIGKILL, -9)])
def test_stopping_verify_ends_the_algorithms_process_and_what_it_started(
    tmp_path: Path, how: signal.Signals, status: int
) -> None:
    report = tmp_path / "pids"
    verify = subprocess.Popen(
        [HANOI, "verify", "hangs", "--n", "3", "--timeout", "600", "--plugin", plugin("hangs.py:hangs")],
        env={**os.environ, "HANOI_TEST_PIDS": str(report)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(lambda: {"algorithm", "child"} <= set(pids(report)))
        verify.send_signal(how)
        _, err = verify.communicate(timeout=60)
    finally:
        verify.kill()
        verify.wait()
    assert verify.returncode == status
    if how == signal.SIGINT:  # Ctrl-C: one line, as everywhere
        assert err == "hanoi: interrupted\n"
    left = pids(report)
    assert gone(left["algorithm"]) and gone(left["child"])


def test_killing_bench_ends_a_command_in_its_own_session(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    command = f"slow=echo $$ > {pidfile}; exec sleep 600"
    bench = subprocess.Popen(
        [HANOI, "bench", "--quick", "--sizes", "1", "--out", str(tmp_path / "out"), "--command", command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: pidfile.exists() and pidfile.read_text().strip().isdigit(), within=120)
        bench.kill()
        bench.wait(timeout=60)
    finally:
        bench.kill()
        bench.wait()
    assert gone(int(pidfile.read_text()))


# --- what is reported ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "step", "how"), [("dies", 5, "exited with status 7"), ("segfaults", 3, "SIGSEGV")])
def test_a_dead_process_is_crashed_at_the_step_it_was_producing(name: str, step: int, how: str) -> None:
    done = hanoi("verify", name, "--n", "6", "--plugin", plugin(f"dies.py:{name}"))
    assert done.returncode == 1
    assert f"crashed at step {step}: the process" in flat(done.stdout) and how in done.stdout, done.stdout


def test_segments_are_refused_for_a_record_whose_solve_is_not_its_solve_from() -> None:
    spec = plugin("split_wrong.py:SPLIT_WRONG")
    sequential = hanoi("verify", "split_wrong", "--n", "12", "--plugin", spec)
    assert sequential.returncode == 1 and row(sequential.stdout, "split_wrong")[2] == "illegal"
    segmented = hanoi("verify", "split_wrong", "--n", "12", "--workers", "2", "--plugin", spec)
    assert_one_line_error(
        segmented.returncode, segmented.stderr, "solve_from(2, 1) is not solve(2)", "without --workers"
    )


@pytest.mark.parametrize("timeout", ["3000000", "1e10", "1e300"])
def test_any_finite_timeout_is_honoured(timeout: str) -> None:
    for extra in ([], ["--workers", "2"]):
        done = hanoi("verify", "bitwise", "--n", "8", "--timeout", timeout, *extra)
        assert done.returncode == 0 and " ok " in done.stdout, done.stderr


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--memory-limit", str(10**17)], "is more than this system can set"),
        (["--n", str(10**20)], "argument --n: at most 64 disks, got '10000000000000000000'... (21 characters)"),
        (["--n-max", str(10**6)], "argument --n-max: at most 64 disks, got 1000000"),
        (["--n", "5", "--workers", str(10**9)], "argument --workers: at most 1024 workers, got 1000000000"),
    ],
)
def test_what_cannot_be_honoured_is_one_line(argv: list[str], fragment: str) -> None:
    done = hanoi("verify", "bitwise", *argv)
    assert_one_line_error(done.returncode, done.stderr, fragment)


def test_a_timed_out_run_of_the_largest_tower_prints_its_numbers() -> None:
    spec = plugin("huge.py:HUGE")
    done = hanoi("verify", "huge", "--n", "64", "--workers", "2", "--timeout", "3", "--plugin", spec)
    assert done.returncode == 1, done.stderr
    assert row(done.stdout, "huge")[2] == "timed_out", done.stdout
    assert f"(0 of {2**64 - 1} moves verified)" in flat(done.stdout)
    assert f"0/{2**40} segments of <= {2**24} moves" in flat(done.stdout)  # the largest default segment
