"""Test segmented verification against sequential verification.

The combined verdict and digest equal the sequential ones, and a fault in any segment is reported at its
global step.  A worker that dies is retried once, and Dask gives the same.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from hanoi_harness.core.checker import check, check_algorithm
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import build_registry
from hanoi_harness.scale import (
    combine,
    executors,
    optimal_move,
    optimal_pegs,
    plan_segments,
    verify_scaled,
    verify_segment,
)
from tests.helpers import ALGORITHMS, FIXTURES, VARIANTS, at_scale, reference, run_cli

SPLITTABLE = [a for a in ALGORITHMS if a.solve_from is not None]

# Plugin records that can start at any step.  Each yields the optimal moves from step k (via
# move_at, so each move comes from k alone) with one fault of its own at global step FAULT.
PLUGINS = '''
import os
from pathlib import Path

import numpy as np

from hanoi_harness.core.randomaccess import move_at, state_at
from hanoi_harness.registry.record import Algorithm, FinalPeg

FAULT = {fault}
MARKER = Path({marker!r})
ATTEMPTS = Path({attempts!r})


def _from(n, k):
    for step in range(k, 2**n):
        yield step, move_at(n, step)


def planted_from(n, k):
    """An illegal move at step FAULT: the right disk, its move reversed."""
    for step, (d, s, t) in _from(n, k):
        yield (d, t, s) if step == FAULT else (d, s, t)


def detour_from(n, k):
    """Legal throughout, but disk 1 goes there and back before step FAULT: two moves too many."""
    for step, move in _from(n, k):
        if step == FAULT:
            here = state_at(n, step - 1)[0]  # disk 1, always free to move
            there = (here + 1) % 3
            yield (1, here, there)
            yield (1, there, here)
        yield move


def short_from(n, k):
    """Stops one move early."""
    for step, move in _from(n, k):
        if step < 2**n - 1:
            yield move


def long_from(n, k):
    """Takes the smallest disk off the finished tower: one legal move too many."""
    yield from (move for _, move in _from(n, k))
    yield (1, 2, 0)


def dies_once_from(n, k):
    """Kills its process at step FAULT the first time only (MARKER remembers)."""
    for step, move in _from(n, k):
        if step == FAULT and not MARKER.exists():
            MARKER.write_text("died")
            os._exit(9)
        yield move


def dies_always_from(n, k):
    """Kills its process at step FAULT every time, counting the attempts in ATTEMPTS."""
    for step, move in _from(n, k):
        if step == FAULT:
            with ATTEMPTS.open("a") as f:
                f.write("attempt\\n")
            os._exit(9)
        yield move


def kills_worker_once_from(n, k):
    """Kills the process judging it (its parent) at step FAULT the first time only (MARKER remembers)."""
    for step, move in _from(n, k):
        if step == FAULT and not MARKER.exists():
            MARKER.write_text("killed")
            os.kill(os.getppid(), 9)
        yield move


def blocked_from(n, k):
    """The optimal moves in (m, 3) numpy arrays of up to 7 rows (a record with chunks=True)."""
    moves = [move for _, move in _from(n, k)]
    for i in range(0, len(moves), 7):
        yield np.array(moves[i : i + 7], dtype=np.int64)


def _record(name, solve_from, chunks=False):
    return Algorithm(
        name=name,
        solve=lambda n: solve_from(n, 1),
        solve_from=solve_from,
        summary=solve_from.__doc__,
        final_peg=FinalPeg.fixed(2),
        chunks=chunks,
    )


PLANTED = _record("planted", planted_from)
DETOUR = _record("detour", detour_from)
SHORT = _record("short", short_from)
LONG = _record("long", long_from)
DIES_ONCE = _record("dies_once", dies_once_from)
DIES_ALWAYS = _record("dies_always", dies_always_from)
KILLS_WORKER_ONCE = _record("kills_worker_once", kills_worker_once_from)
BLOCKED = _record("blocked", blocked_from, chunks=True)
'''

N = 10
FAULT = 700  # in segment 601..700 of ten 100-move segments: a middle one, at its end
SEGMENT = 100


@pytest.fixture
def plugin(tmp_path: Path) -> tuple[Path, Path, Path]:
    path = tmp_path / "faulty.py"
    marker, attempts = tmp_path / "marker", tmp_path / "attempts"
    path.write_text(PLUGINS.format(fault=FAULT, marker=str(marker), attempts=str(attempts)))
    return path, marker, attempts


def spec(plugin: tuple[Path, Path, Path], record: str) -> list[str]:
    return [f"{plugin[0]}:{record}"]


def in_process(name: str, plugins: list[str], n: int, size: int) -> Verdict:
    """Run every segment here, in order, then combine them.

    This is the pure path, without any pool.
    """
    algorithm = build_registry(plugins).get(name)
    final = min(algorithm.final_peg.pegs(n))
    return combine(n, final, [verify_segment(name, plugins, n, first, last) for first, last in plan_segments(n, size)])


# --- starting at any step --------------------------------------------------------------------------


def test_some_algorithms_can_start_at_any_step() -> None:
    assert {"bitwise", "level_formula", "step_divisibility", "parity_positions"} <= {a.name for a in SPLITTABLE}


@pytest.mark.parametrize("record", SPLITTABLE, ids=[a.name for a in SPLITTABLE])
def test_solve_from_is_solve_from_every_step(record: Algorithm) -> None:
    for n in range(record.min_n, 8):
        moves = list(record.moves(n))
        for k in range(1, 2**n + 1):
            assert list(record.moves_from(n, k)) == moves[k - 1 :], (n, k)


def test_moves_from_is_refused_without_solve_from() -> None:
    with pytest.raises(UsageError, match="recursive cannot start at any step"):
        build_registry().get("recursive").moves_from(3, 2)


def test_reference_states_end_on_either_peg() -> None:
    for final in (1, 2):
        pegs = optimal_pegs(5, 0, final)
        replayed = check([optimal_move(5, k, final) for k in range(1, 32)], 5, {final}, initial=None, partial=True)
        assert pegs == ((5, 4, 3, 2, 1), (), ())
        assert tuple(map(tuple, replayed.extra["pegs"])) == optimal_pegs(5, 31, final)
        assert optimal_pegs(5, 31, final)[final] == (5, 4, 3, 2, 1)


# --- combined verdict and digest equal the sequential ones ------------------------------------------


@at_scale
@pytest.mark.parametrize("record", SPLITTABLE, ids=[a.name for a in SPLITTABLE])
def test_segments_combine_to_the_sequential_verdict_and_digest(record: Algorithm) -> None:
    for n in (0, 1, 2, 5, 9):
        if n < record.min_n:
            continue
        sequential = check_algorithm(record, n)
        for size in (1, 3, 64, 2**n):
            combined = in_process(record.name, [], n, size)
            assert combined == sequential, (n, size)


def test_local_pool_equals_sequential() -> None:
    for name, n, size in (("bitwise", 16, 5000), ("step_divisibility", 13, 1000)):
        report = verify_scaled(name, n, workers=2, segment_size=size)
        sequential = check_algorithm(build_registry().get(name), n)
        assert report.verdict == sequential
        assert report.verdict.ok and report.verdict.digest == sequential.digest != 0
        assert report.verified == report.planned == -(-(2**n - 1) // size)
        assert not report.events


# --- faults in a middle segment -----------------------------------------------------------------------


def test_planted_illegal_move_is_reported_at_its_global_step(plugin: tuple[Path, Path, Path]) -> None:
    plugins = spec(plugin, "PLANTED")
    sequential = check_algorithm(build_registry(plugins).get("planted"), N)
    assert sequential.status == "illegal" and sequential.step == FAULT
    assert in_process("planted", plugins, N, SEGMENT) == sequential
    report = verify_scaled("planted", N, plugins, workers=2, segment_size=SEGMENT)
    assert report.verdict == sequential  # same step, move, reason, tops, moves before it and digest
    assert report.verdict.moves == FAULT - 1


def test_legal_but_wrong_continuation_is_caught_where_it_leaves_the_path(plugin: tuple[Path, Path, Path]) -> None:
    plugins = spec(plugin, "DETOUR")
    assert check_algorithm(build_registry(plugins).get("detour"), N).status == "not_optimal"  # 2 moves too many
    for verdict in (
        in_process("detour", plugins, N, SEGMENT),
        verify_scaled("detour", N, plugins, segment_size=SEGMENT).verdict,
    ):
        assert verdict.status == "not_optimal"
        assert verdict.step == FAULT, verdict.describe()
        assert f"leaves the optimal path at step {FAULT}" in verdict.reason


def test_too_few_or_too_many_moves_are_caught(plugin: tuple[Path, Path, Path]) -> None:
    short = in_process("short", spec(plugin, "SHORT"), N, SEGMENT)
    assert short.status == "incomplete" and "end after step 1022 of 1023" in short.reason
    long = in_process("long", spec(plugin, "LONG"), N, SEGMENT)
    assert long.status == "not_optimal" and "still moving after step 1023" in long.reason


def test_records_yielding_arrays_are_split_too(plugin: tuple[Path, Path, Path]) -> None:
    # 7-row arrays against 100-move segments: most segments end inside an array.
    sequential = check(reference(N), N)
    assert in_process("blocked", spec(plugin, "BLOCKED"), N, SEGMENT) == sequential
    assert verify_scaled("blocked", N, spec(plugin, "BLOCKED"), workers=2, segment_size=SEGMENT).verdict == sequential


def test_segments_that_do_not_join_are_refused() -> None:
    results = [verify_segment("bitwise", (), 5, first, last) for first, last in plan_segments(5, 10)]
    assert combine(5, 2, results).ok
    forged = results[:]
    forged[2] = replace(forged[2], start=results[1].start)  # a worker that computed another start
    verdict = combine(5, 2, forged)
    assert verdict.status == "crashed" and verdict.step == 21 and "do not join after step 20" in verdict.reason
    with pytest.raises(ValueError, match="do not cover"):
        combine(5, 2, results[:1] + results[2:])
    with pytest.raises(ValueError, match=r"the segments end at step 20, not 31"):
        combine(5, 2, results[:2])
    with pytest.raises(ValueError, match=r"segment 11\.\.20 is ok without its end pegs or its count"):
        combine(5, 2, [results[0], replace(results[1], end=None), *results[2:]])


# --- worker deaths, timeouts ---------------------------------------------------------------------------


def test_a_worker_that_dies_is_reported_and_its_segments_retried_alone(plugin: tuple[Path, Path, Path]) -> None:
    events: list[str] = []
    report = verify_scaled(
        "kills_worker_once",
        N,
        spec(plugin, "KILLS_WORKER_ONCE"),
        workers=2,
        segment_size=SEGMENT,
        on_event=events.append,
    )
    assert plugin[1].exists()  # it did kill its worker once
    assert report.verdict == check(reference(N), N)  # then the retry verified it: same verdict and digest
    assert events == report.events and len(events) == 1
    # Every segment the broken pool was running or had queued is named and retried, alone.
    # The pool ends its other workers when one dies: their own ends may be named too.
    died, _, rest = events[0].partition(") while verifying steps ")
    assert died.startswith("a worker process died (") and "signal 9" in died and rest, events[0]
    assert "601..700" in events[0] and "retrying" in events[0]


def test_a_dead_workers_status_is_read_only_once_the_pool_has_reaped_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # A fork server hands each exit status out once: read beside the pool's reaping thread, the loser
    # got 'exit status 255' for the worker that died of signal 9.  Until that thread ends, nothing is read.
    class Unread:
        @property
        def exitcode(self) -> int:
            raise AssertionError("read while the pool's thread was still reaping")

    reaping = threading.Event()
    reaper = threading.Thread(target=reaping.wait)
    reaper.start()
    pool = object.__new__(executors.LocalPool)
    pool.pool = SimpleNamespace(_executor_manager_thread=reaper, _processes={1: Unread()})  # type: ignore[assignment]
    monkeypatch.setattr(executors, "_REAP_SECONDS", 0.01)
    try:
        assert pool._exit_codes() == ""
    finally:
        reaping.set()
        reaper.join()
    pool.pool = SimpleNamespace(_executor_manager_thread=reaper, _processes={1: SimpleNamespace(exitcode=-9)})  # type: ignore[assignment]
    assert pool._exit_codes() == " (signal 9)"


def test_an_algorithm_that_dies_once_is_verified_again(plugin: tuple[Path, Path, Path]) -> None:
    events: list[str] = []
    report = verify_scaled(
        "dies_once", N, spec(plugin, "DIES_ONCE"), workers=2, segment_size=SEGMENT, on_event=events.append
    )
    assert plugin[1].exists()  # it did die once
    assert report.verdict == check(reference(N), N)  # the second run verified it: same verdict and digest
    assert (
        events
        == report.events
        == [
            "the algorithm's process died while verifying steps 601..700 (the process exited with status 9); "
            "verifying them once more"
        ]
    )


def test_an_algorithm_that_dies_twice_is_crashed_at_the_step_it_dies_at(plugin: tuple[Path, Path, Path]) -> None:
    report = verify_scaled("dies_always", N, spec(plugin, "DIES_ALWAYS"), workers=2, segment_size=SEGMENT)
    assert plugin[2].read_text().count("attempt") == 2  # the first run and one more
    verdict = report.verdict
    # The moves come in batches; the second run sends them one at a time, so the step is exact.
    assert verdict.status == "crashed" and verdict.step == FAULT and verdict.moves == FAULT - 1
    assert verdict.reason == "the process exited with status 9"
    assert len(report.events) == 2 and report.events[1].startswith(f"it died again at step {FAULT}")


def test_a_segment_run_here_whose_process_dies_once_is_verified_again(plugin: tuple[Path, Path, Path]) -> None:
    result = verify_segment("dies_once", spec(plugin, "DIES_ONCE"), N, 601, 700)
    assert result.verdict.ok and result.end == optimal_pegs(N, 700, 2)
    assert result.events == (
        "the algorithm's process died while verifying steps 601..700 (the process exited with status 9); "
        "verifying them once more",
    )


def test_a_segment_run_here_whose_process_dies_twice_is_crashed_at_the_exact_step(
    plugin: tuple[Path, Path, Path],
) -> None:
    result = verify_segment("dies_always", spec(plugin, "DIES_ALWAYS"), N, 601, 700)
    assert (result.verdict.status, result.verdict.step) == ("crashed", FAULT)
    assert (
        result.events[1] == f"it died again at step {FAULT} (the process exited with status 9); the segment is crashed"
    )


def test_a_segment_outside_the_run_is_refused() -> None:
    with pytest.raises(ValueError, match=r"segment 0\.\.3 is not within steps 1\.\.15"):
        verify_segment("bitwise", (), 4, 0, 3)
    with pytest.raises(ValueError, match=r"segment 9\.\.16 is not within steps 1\.\.15"):
        verify_segment("bitwise", (), 4, 9, 16)


def test_a_second_reading_takes_moves_and_refuses_other_frames() -> None:
    from hanoi_harness.sandbox import protocol
    from hanoi_harness.scale.segment import _moves

    frames = iter([protocol.Frame(protocol.MOVES, b"B\x01\x00\x02\x02\x00\x01")])
    assert _moves(lambda: next(frames, protocol.Frame(protocol.DONE, b""))) == [(1, 0, 2), (2, 0, 1)]
    with pytest.raises(protocol.BrokenStream, match="a frame of kind 69 in a legal segment"):
        _moves(lambda: protocol.Frame(protocol.RAISED, b""))
    with pytest.raises(protocol.BrokenStream, match="a frame of kind 79 in a legal segment"):  # an odd move
        _moves(lambda: protocol.Frame(protocol.ODD_MOVE, b""))


def test_a_kept_process_that_has_died_is_replaced() -> None:
    import threading

    from hanoi_harness.sandbox.stream import Producer
    from hanoi_harness.scale import segment

    task = segment.task_for("bitwise", (), 4)
    dead = Producer(task.plugins)
    dead.stop()
    segment._release(task, dead)
    fresh = segment._producer(task)
    try:
        assert fresh is not dead and fresh.alive() and (task, threading.get_ident()) not in segment._KEPT
    finally:
        fresh.close()


def test_timeout_stops_the_workers() -> None:
    report = verify_scaled("bitwise", 26, workers=2, timeout=0.2)
    assert report.verdict.status == "timed_out" and "no verdict within 0.2 s" in report.verdict.reason


# --- the command ------------------------------------------------------------------------------------


run = run_cli


def digest_in(out: str) -> str:
    return out.split("digest ")[1].split(";")[0].split()[0]


def test_cli_workers_prints_the_same_digest_as_sequential(capsys: pytest.CaptureFixture[str]) -> None:
    code, sequential, _ = run(capsys, "verify", "bitwise", "--n", "12")
    assert code == 0
    code, segmented, _ = run(capsys, "verify", "bitwise", "--n", "12", "--workers", "2", "--segment-size", "500")
    assert code == 0 and " ok " in segmented and "9/9 segments" in segmented
    assert (
        digest_in(segmented)
        == digest_in(sequential)
        == str(check_algorithm(build_registry().get("bitwise"), 12).digest)
    )


def test_cli_reports_a_planted_fault_with_status_1(
    plugin: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = (
        "verify",
        "planted",
        "--n",
        str(N),
        "--workers",
        "2",
        "--segment-size",
        str(SEGMENT),
        "--plugin",
        spec(plugin, "PLANTED")[0],
    )
    code, out, _ = run(capsys, *argv)
    assert code == 1 and f"illegal at step {FAULT}" in out


def test_cli_plugin_alone_is_the_algorithm_verified(
    plugin: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "verify", "--n", "9", "--workers", "2", "--plugin", spec(plugin, "BLOCKED")[0])
    rows = out.splitlines()[2:]  # under the header and its rule
    assert code == 0 and rows[0].split()[:3] == ["blocked", "9", "ok"]
    assert not any(a.name in out for a in ALGORITHMS)  # the plugin only, not the whole registry


def test_cli_reports_a_worker_death_on_stderr(
    plugin: tuple[Path, Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("verify", "dies_once", "--n", str(N), "--workers", "2", "--segment-size", str(SEGMENT))
    code, out, err = run(capsys, *argv, "--plugin", spec(plugin, "DIES_ONCE")[0])
    assert code == 0 and " ok " in out and "1 process death(s), segment(s) verified again" in out
    assert err.startswith("hanoi: the algorithm's process died") and "once more" in err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (("verify", "recursive", "--n", "5", "--workers", "2"), "recursive cannot start at any step"),
        (("verify", "--n", "5", "--workers", "2"), "name the algorithm"),
        (("verify", "bitwise", "--workers", "2"), "give --n N"),
        (("verify", "bitwise", "--n", "31", "--workers", "2"), "n <= 30"),
        (("verify", "bitwise", "--n", "5", "--segment-size", "9"), "--segment-size applies to --workers or --dask"),
        (("verify", "bitwise", "--n", "5", "--workers", "0"), "expected a positive integer"),
        (("verify", "bitwise", "--n", "5", "--workers", "2", "--dask", "tcp://x:1"), "not allowed with"),
    ],
)
def test_cli_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], fragment: str
) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err and fragment in err, err


@pytest.mark.parametrize("name", [a.name for a in VARIANTS])
@pytest.mark.parametrize("how", [("--workers", "2"), ("--dask", "tcp://127.0.0.1:1")])
def test_a_record_of_another_puzzle_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], name: str, how: tuple[str, str]
) -> None:
    code, out, err = run(capsys, "verify", name, "--n", "5", *how)
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert f"{name} solves another puzzle" in err and "classic puzzle only" in err, err


# --- Dask ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_address() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    # Threads in this process: quick to start, and nothing outlives the tests. Its HTTP server takes any
    # free port, since both test workers may start a cluster at once.
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def test_dask_equals_local(dask_address: str, plugin: tuple[Path, Path, Path]) -> None:
    for name, n, plugins in (
        ("bitwise", 11, []),
        ("parity_positions", 10, []),
        ("planted", N, spec(plugin, "PLANTED")),
    ):
        local = verify_scaled(name, n, plugins, workers=2, segment_size=SEGMENT)
        on_dask = verify_scaled(name, n, plugins, dask=dask_address, segment_size=SEGMENT)
        assert on_dask.verdict == local.verdict, name
        assert "Dask cluster" in on_dask.where and on_dask.verified >= 1


def test_cli_dask(dask_address: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "level_formula", "--n", "12", "--dask", dask_address, "--segment-size", "700")
    assert code == 0 and "Dask cluster" in out
    assert digest_in(out) == str(check_algorithm(build_registry().get("level_formula"), 12).digest)


# --- solve and solve_from ----------------------------------------------------------------------------


def test_segments_are_not_trusted_when_solve_from_is_not_solve() -> None:
    spec = str(FIXTURES / "plugins" / "split_wrong.py") + ":SPLIT_WRONG"
    with pytest.raises(UsageError, match=r"solve_from\(2, 1\) is not solve\(2\)"):
        verify_scaled("split_wrong", 8, [spec], segment_size=50)
    unchecked = verify_scaled("split_wrong", 8, [spec], segment_size=50, preflight=False)
    assert unchecked.verdict.ok  # what the preflight keeps from being reported: solve_from alone is right


def test_dask_without_its_library_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from hanoi_harness.scale import segment

    monkeypatch.setitem(sys.modules, "distributed", None)  # an import of it now fails
    with pytest.raises(
        UsageError, match=r"--dask needs the optional dependency: pip install 'hanoi-harness\[distributed\]'"
    ):
        executors.DaskCluster(segment.task_for("bitwise", (), 5), "tcp://127.0.0.1:1")


def test_a_dask_scheduler_that_cannot_be_reached_is_one_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    from hanoi_harness.scale import segment

    def unreachable(address: str, **_: object) -> None:  # what Client raises after its 10 s
        raise OSError(f"Timed out trying to connect to {address} after 10 s")

    monkeypatch.setattr(distributed, "Client", unreachable)
    with pytest.raises(UsageError) as refused:
        executors.DaskCluster(segment.task_for("bitwise", (), 5), "tcp://127.0.0.1:1")
    assert str(refused.value) == (
        "cannot reach the Dask scheduler at 'tcp://127.0.0.1:1': "
        "OSError: Timed out trying to connect to tcp://127.0.0.1:1 after 10 s"
    )


def test_a_segment_whose_dask_workers_all_died_is_named_as_such() -> None:
    scheduler = pytest.importorskip("distributed.scheduler")

    class Killed:
        def result(self) -> None:
            raise scheduler.KilledWorker("run_segment-1", SimpleNamespace(address="tcp://127.0.0.1:4000"), 3)

    cluster = object.__new__(executors.DaskCluster)
    assert cluster.outcome(Killed()) == (
        "Dask workers died running it (Attempted to run task 'run_segment-1' on 4 different workers,"
        " but all those workers died while running it)"
    )


def test_a_dask_wait_that_times_out_has_nothing_done(dask_address: str) -> None:
    from hanoi_harness.scale import segment

    cluster = executors.DaskCluster(segment.task_for("bitwise", (), 20), dask_address)
    try:
        future = cluster.submit(1, (1 << 20) - 1)
        assert cluster.wait([future], 0.001) == set()
        cluster.cancel(future)
    finally:
        cluster.close()
