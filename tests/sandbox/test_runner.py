"""Test verification in child processes: one fault spares the others.

A crash, a hang or running out of memory is reported for that algorithm while the others are still
verified.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from hanoi_harness import process
from hanoi_harness.cli.main import main
from hanoi_harness.registry.probe import catalog
from hanoi_harness.sandbox import runner
from hanoi_harness.sandbox.runner import Job, run_jobs
from hanoi_harness.sandbox.stream import Producer
from tests.helpers import FIXTURES

BAD_PLUGINS = '''
import os, time

def hangs(n):
    """Never yields its first move for n >= 3."""
    if n >= 3:
        time.sleep(60)
    if n:
        yield from _ok(n)

def dies(n):
    """Kills its own process hard at n = 2 (as a segfault in C code would)."""
    if n == 2:
        os._exit(7)
    yield from _ok(n)

def hogs(n):
    """Runs out of memory at n = 1: asks for 2 GB at once."""
    if n == 1:
        keep = bytearray(2 * 1024 ** 3)
    yield from _ok(n)

def wrong(n):
    """Moves the second disk first."""
    yield (2, 0, 2)

def _ok(n, a=0, b=1, c=2):
    if n:
        yield from _ok(n - 1, a, c, b)
        yield (n, a, c)
        yield from _ok(n - 1, b, a, c)
'''


@pytest.fixture
def plugins(tmp_path: Path) -> list[str]:
    path = tmp_path / "bad.py"
    path.write_text(BAD_PLUGINS)
    return [f"{path}:{name}" for name in ("hangs", "dies", "hogs", "wrong")]


def test_each_failure_is_reported_for_its_algorithm_alone(plugins: list[str]) -> None:
    jobs = [Job(name, [0, 1, 2, 3, 4]) for name in ("hangs", "dies", "hogs", "wrong", "recursive")]
    # Each algorithm's process starts fresh (a few tens of MB): 1 GB refuses the hog's 2 GB at once, with no
    # pages to touch, so a loaded machine cannot turn the crash into a time-out.
    run_jobs(jobs, plugins, timeout=5, memory_mb=1024)
    by_name = {job.name: job for job in jobs}
    hangs = by_name["hangs"].verdicts
    assert [v.status for v in hangs] == ["ok", "ok", "ok", "timed_out"]
    assert "no verdict within 5 s" in hangs[-1].reason and hangs[-1].n == 3
    dies = by_name["dies"].verdicts
    assert [v.status for v in dies] == ["ok", "ok", "crashed"]
    assert dies[-1].reason == "the process exited with status 7" and dies[-1].step == 1
    hogs = by_name["hogs"].verdicts
    assert [v.status for v in hogs][:2] == ["ok", "crashed"]
    assert "MemoryError" in hogs[1].reason
    assert by_name["wrong"].verdicts[1].status == "illegal"
    assert by_name["recursive"].ok


def test_verify_exit_status_is_1_when_any_fails(plugins: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["verify", "recursive", "--n-max", "4", "--plugin", plugins[3]]
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "wrong" in out and "illegal at step 1" in out and "recursive" in out


def test_a_job_past_its_timeout_keeps_the_verdicts_it_had(plugins: list[str]) -> None:
    (job,) = run_jobs([Job("hangs", [1, 2, 3, 4])], plugins, timeout=3)
    assert [v.status for v in job.verdicts] == ["ok", "ok", "timed_out"]
    timed_out = job.verdicts[-1]
    assert timed_out.reason == "no verdict within 3 s; the process was killed" and timed_out.step == 1


def test_jobs_of_one_algorithm_share_its_process() -> None:
    jobs = [Job("recursive", [n]) for n in range(6)]
    run_jobs(jobs, workers=1)
    assert all(job.ok for job in jobs) and [job.verdicts[0].moves for job in jobs] == [0, 1, 3, 7, 15, 31]
    assert all(job.started > 0 for job in jobs)


VARIANT_PLUGINS = FIXTURES / "plugins" / "variants.py"


def test_a_plugin_of_another_puzzle_is_judged_by_its_puzzle_in_this_process() -> None:
    from hanoi_harness.core.checker import check_algorithm
    from hanoi_harness.registry.sources import load_plugin

    specs = [f"{VARIANT_PLUGINS}:{name}" for name in ("SIX_PEGS", "CYCLIC_BY_CLASSIC", "FOUR_PEGS_THE_LONG_WAY")]
    jobs = run_jobs(
        [Job(name, [0, 1, 2, 3, 4, 5]) for name in ("six_pegs", "cyclic_by_classic", "four_pegs_the_long_way")], specs
    )
    for job, spec in zip(jobs, specs, strict=True):  # each process's moves, judged here, as check_algorithm judges them
        record = load_plugin(spec)
        assert job.verdicts == [check_algorithm(record, n) for n in job.ns[: len(job.verdicts)]], job.name
    six, cyclic, four = (job.verdicts for job in jobs)
    assert all(v.ok for v in six) and "conjectured" in six[-1].optimality and six[-1].final_peg == 5
    assert cyclic[-1].status == "illegal" and "cyclic rule" in cyclic[-1].reason
    assert four[3].status == "not_optimal" and four[3].reason == "7 moves, optimal is 5"  # Frame-Stewart: 5


def test_a_fault_of_the_harness_is_the_jobs_verdict_not_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> object:
        raise RuntimeError("a bug of ours")

    monkeypatch.setattr(runner, "_verify_n", broken)
    (job,) = run_jobs([Job("recursive", [3, 4])], workers=1)
    assert [(v.status, v.n, v.reason) for v in job.verdicts] == [
        ("crashed", 3, "the harness failed: RuntimeError: a bug of ours")
    ]


def test_a_kept_process_that_died_between_jobs_is_replaced() -> None:
    settings = runner._Settings((), catalog(()), 30.0, None, threading.Event())
    dead = Producer()
    dead.stop()
    kept = {"in-tree": dead}
    job = Job("recursive", [2, 3])
    runner._verify_job(job, settings, kept)
    assert [v.status for v in job.verdicts] == ["ok", "ok"]
    assert kept["in-tree"] is not dead and kept["in-tree"].alive()
    kept["in-tree"].close()


def test_waits_longer_than_a_slice_go_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process, "MAX_WAIT_S", 0.01)  # an hour in a run: the same loop, quicker
    (job,) = run_jobs([Job("recursive", [16])], workers=1)
    assert [v.status for v in job.verdicts] == ["ok"]
