"""Test that ``hanoi bench`` and ``hanoi report`` never replace user files.

Nothing of the user's in the output directory is ever replaced.  A directory is taken only when it is
new, empty or a result set a bench wrote, whose marker lists every file in it.  The checks come before any
measuring; the lock keeps two runs apart; the old set is deleted only once the new one is in place.
Ctrl-C, SIGKILL, a full disk or an interrupted render leave the old set byte for byte.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hanoi_harness.bench import run as _run
from hanoi_harness.bench import session
from hanoi_harness.bench.report import render as _report
from hanoi_harness.bench.results.outdir import MARKER, OutDir, seal, why_not_ours
from hanoi_harness.bench.results.resultset import AlgorithmResult, ResultSet, Run, load
from hanoi_harness.bench.timing.figures import Timing
from hanoi_harness.errors import UsageError
from tests.helpers import assert_one_line_error, bench_ending, run_cli

QUICK_RUN = ["recursive", "--quick", "--sizes", "2,3"]


def old_set(out: Path) -> dict[str, bytes]:
    """Write a small result set of ours into *out*; return every file's bytes.

    The set is a marker, results.json and a README.
    """
    out.mkdir(parents=True, exist_ok=True)
    results = ResultSet(mode="quick", reference="recursive")
    t = 1e-6
    runs = [Run(n=3, timing=Timing(t, 0.0, t, t, t, t, 0.0, 5, 1))]
    results.algorithms["recursive"] = AlgorithmResult(name="recursive", runs=runs)
    (out / "results.json").write_text(results.dumps())
    (out / "README.md").write_text("the old results\n")
    seal(out)
    return snapshot(out)


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file under *directory* (by relative path) with its bytes."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def beside(out: Path) -> list[str]:
    """Return what is in *out*'s parent besides *out*.

    That may be a lock, a staging directory or an old set left behind.
    """
    return sorted(p.name for p in out.parent.iterdir() if p != out)


@pytest.fixture(autouse=True)
def no_valgrind(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the runs in this process count no instructions.

    Valgrind is slow to start for each run; the counts are test_counts.py's.
    """
    monkeypatch.setattr(_run, "find_valgrind", lambda: "valgrind is left out of these tests")


@pytest.fixture
def no_measuring(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any measuring fail the test: a refusal must come before it."""

    def measured(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("measured before refusing")

    monkeypatch.setattr(session, "run", measured)


# --- what may be replaced -------------------------------------------------------------------------------------


def test_a_users_directory_with_a_results_json_is_refused_and_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_measuring: None
) -> None:
    """A user's directory holding a results.json is refused and left as it was.

    The reported loss: a thesis beside another tool's results.json (even one of ours, copied there).
    """
    mine = tmp_path / "thesis"
    old_set(tmp_path / "ours")
    mine.mkdir()
    (mine / "results.json").write_bytes((tmp_path / "ours" / "results.json").read_bytes())
    (mine / "thesis.tex").write_text("three years of work\n")
    before = snapshot(mine)
    code, _, err = run_cli(capsys, "bench", *QUICK_RUN, "--out", str(mine))
    assert_one_line_error(code, err, "no .hanoi-bench.json marker", "refusing to replace it")
    code, _, err = run_cli(capsys, "report", str(mine))
    assert_one_line_error(code, err, "refusing to replace it")
    assert snapshot(mine) == before and beside(mine) == ["ours"]


def test_a_file_added_to_a_result_set_makes_it_the_users(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_measuring: None
) -> None:
    out = tmp_path / "results"
    old_set(out)
    (out / "notes.txt").write_text("mine\n")
    (out / "drafts").mkdir()
    before = snapshot(out)
    code, _, err = run_cli(capsys, "bench", *QUICK_RUN, "--out", str(out))
    assert_one_line_error(code, err, "files hanoi bench did not write: drafts, notes.txt")
    assert snapshot(out) == before and beside(out) == []


def test_what_a_marker_vouches_for(tmp_path: Path) -> None:
    out = tmp_path / "results"
    old_set(out)
    assert why_not_ours(out) == ""
    (out / "README.md").unlink()  # a listed file that is gone is no one's
    assert why_not_ours(out) == ""
    (out / "quick").mkdir()
    assert "files hanoi bench did not write: quick" in why_not_ours(out)
    old_set(out / "quick")
    seal(out)
    assert why_not_ours(out) == ""
    (out / "quick" / "mine.txt").write_text("x")  # a file in a nested set is the user's too
    assert why_not_ours(out).startswith("quick/: it holds files hanoi bench did not write: mine.txt")
    (out / "quick" / "mine.txt").unlink()
    (out / "README.md").mkdir()  # a listed file's name, as a directory of the user's
    assert "files hanoi bench did not write: README.md" in why_not_ours(out)
    (out / "README.md").rmdir()
    (out / "results.json").write_text('{"schema": 2, "mode": "quick", "reference": "recursive", "algorithms": []}')
    assert "its results.json does not read" in why_not_ours(out)
    for marker in ("{not json", '{"marker": 1, "files": ["../thesis"]}', '{"marker": 7, "files": []}', "[]"):
        (out / MARKER).write_text(marker)
        assert "its marker does not read" in why_not_ours(out)
    (out / MARKER).unlink()
    assert "no .hanoi-bench.json marker" in why_not_ours(out)


def test_a_set_without_results_is_ours_but_an_unsealed_directory_in_it_cannot_be_sealed(tmp_path: Path) -> None:
    out = tmp_path / "results"
    out.mkdir()
    (out / "README.md").write_text("a set of tables only\n")
    seal(out)
    assert why_not_ours(out) == ""
    (out / "quick").mkdir()
    with pytest.raises(ValueError, match="quick is not a sealed result set"):
        seal(out)
    (out / MARKER).write_text('{"marker": 1, "files": "README.md"}')
    assert why_not_ours(out) == "its marker does not read (files: expected a list of file names)"


def test_a_parent_that_cannot_be_made_or_written_in_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    with (
        pytest.raises(UsageError, match="cannot create its parent directory: Not a directory"),
        OutDir(tmp_path / "a-file" / "sub" / "out"),
    ):
        pass
    (tmp_path / ".out.lock").mkdir()  # where the lock goes: it cannot be opened for writing
    with pytest.raises(UsageError, match=r"cannot write beside it \(Is a directory\)"), OutDir(tmp_path / "out"):
        pass


def test_a_lock_file_removed_as_it_was_taken_is_taken_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The run that held the lock removes its file as it ends; one that opened it just before locks the new one.
    out = tmp_path / "results"
    real_stat = os.stat
    removed: list[str] = []

    def stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if str(path).endswith(".results.lock") and not removed:
            removed.append(str(path))
            os.unlink(path)
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    with OutDir(out) as claim:
        assert removed and claim.lock_path.read_text() == f"{os.getpid()}\n"
        assert os.fstat(claim.lock_fd or -1).st_ino == real_stat(claim.lock_path).st_ino


def test_a_claim_commits_once(tmp_path: Path) -> None:
    with OutDir(tmp_path / "out") as claim:
        claim.commit(lambda staging: None)
        with pytest.raises(RuntimeError, match="twice"):
            claim.commit(lambda staging: None)


@pytest.mark.parametrize("kind", ["a file", "a non-empty directory"])
def test_other_outs_are_refused_before_measuring(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], no_measuring: None
) -> None:
    out = tmp_path / "out"
    if kind == "a file":
        out.write_text("x")
        fragment = "exists and is not a directory"
    else:
        out.mkdir()
        (out / "data.csv").write_text("1,2\n")
        fragment = "no .hanoi-bench.json marker"
    code, _, err = run_cli(capsys, "bench", *QUICK_RUN, "--out", str(out))
    assert_one_line_error(code, err, fragment)


@pytest.fixture
def unwritable(tmp_path: Path) -> Iterator[Path]:
    """Return a directory this process cannot write in.

    That is one without write permission, or sysfs for root.
    """
    if os.geteuid() == 0:  # permissions do not stop root; sysfs takes no new file from anyone
        yield Path("/sys")
        return
    parent = tmp_path / "locked"
    parent.mkdir()
    parent.chmod(0o555)
    yield parent
    parent.chmod(0o755)


def test_an_unwritable_parent_is_refused_before_measuring(
    unwritable: Path, capsys: pytest.CaptureFixture[str], no_measuring: None
) -> None:
    code, _, err = run_cli(capsys, "bench", *QUICK_RUN, "--out", str(unwritable / "out"))
    assert_one_line_error(code, err, "cannot write beside it")
    assert not (unwritable / "out").exists()


# --- writing -------------------------------------------------------------------------------------------------


def test_a_full_disk_while_writing_is_one_line_and_the_old_set_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results"
    before = old_set(out)

    def full(*args: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(session, "render", full)
    code, _, err = run_cli(capsys, "bench", *QUICK_RUN, "--out", str(out))
    assert_one_line_error(code, bench_ending(err), "no space left on the device", "the old ones are untouched")
    assert snapshot(out) == before and beside(out) == []


def test_a_full_temporary_directory_while_measuring_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results"
    before = old_set(out)

    def full(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device", "/tmp/hanoi-bench-x")

    monkeypatch.setattr(session, "run", full)
    code, _, err = run_cli(capsys, "bench", *QUICK_RUN, "--out", str(out))
    assert_one_line_error(code, err, "no space left on the device for the run's temporary files")
    assert snapshot(out) == before and beside(out) == []


@pytest.mark.serial  # SIGINT to this process
def test_ctrl_c_during_the_render_is_an_interruption(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C during the render is exit 130, with no traceback.

    The Ctrl-C comes inside an import that turns it into a RuntimeError, as matplotlib's can.
    """
    out = tmp_path / "results"
    before = old_set(out)

    def import_interrupted(*args: Any) -> None:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the signal arrives here
        except KeyboardInterrupt:
            raise RuntimeError("import of a backend failed") from None

    monkeypatch.setattr(_report, "plot", import_interrupted)
    code, _, err = run_cli(capsys, "bench", *QUICK_RUN, "--out", str(out))
    assert code == 130 and bench_ending(err) == "hanoi: interrupted", err
    assert snapshot(out) == before and beside(out) == []


def test_the_swap_replaces_the_old_set_and_leaves_nothing_beside(tmp_path: Path) -> None:
    out = tmp_path / "results"
    old_set(out)
    inode = out.stat().st_ino

    def fill(staging: Path) -> None:
        (staging / "README.md").write_text("new\n")

    with OutDir(out) as claim:
        claim.commit(fill)
    assert (out / "README.md").read_text() == "new\n" and out.stat().st_ino != inode
    assert json.loads((out / MARKER).read_text())["files"] == ["README.md"]
    assert beside(out) == []


def test_a_directory_that_cannot_be_moved_is_one_line_and_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mount point, say, cannot be renamed: one line, and the old set stays."""
    out = tmp_path / "results"
    before = old_set(out)
    real_rename = os.rename

    def busy(source: Any, target: Any) -> None:
        if Path(source) == out:
            raise OSError(errno.EBUSY, "Device or resource busy", str(source))
        real_rename(source, target)

    monkeypatch.setattr(os, "rename", busy)
    with pytest.raises(UsageError, match=r"cannot replace it \(Device or resource busy"), OutDir(out) as claim:
        claim.commit(lambda staging: None)
    assert snapshot(out) == before and beside(out) == []


def test_a_failed_second_rename_puts_the_old_set_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "results"
    before = old_set(out)
    real_rename = os.rename

    def failing(source: Any, target: Any) -> None:
        if Path(target) == out and Path(source).name.startswith(".results.new-"):
            raise OSError(errno.EIO, "Input/output error", str(source))
        real_rename(source, target)

    monkeypatch.setattr(os, "rename", failing)
    with pytest.raises(UsageError, match="the old set is untouched"), OutDir(out) as claim:
        claim.commit(lambda staging: None)
    assert snapshot(out) == before and beside(out) == []


def test_an_exception_before_the_swap_leaves_everything_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "results"
    before = old_set(out)

    def crash(staging: Path) -> None:
        (staging / "results.json").write_text("half-written")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt), OutDir(out) as claim:
        claim.commit(crash)
    assert snapshot(out) == before and beside(out) == []


def test_a_directory_that_changed_during_the_run_is_kept_and_so_are_the_new_results(tmp_path: Path) -> None:
    out = tmp_path / "results"
    old_set(out)

    def fill(staging: Path) -> None:
        (out / "notes.txt").write_text("written while the run measured\n")
        (staging / "README.md").write_text("new\n")

    with pytest.raises(UsageError, match="it changed during the run") as refused, OutDir(out) as claim:
        claim.commit(fill)
    (kept,) = [p for p in tmp_path.iterdir() if p.name.startswith("results.new-")]
    assert str(kept) in str(refused.value) and (kept / "README.md").read_text() == "new\n"
    assert (out / "notes.txt").is_file() and (out / "README.md").read_text() == "the old results\n"
    (out / "notes.txt").unlink()
    with OutDir(out):  # the next claim of the directory does not take the kept set for a leftover
        pass
    assert kept.is_dir()


def test_what_a_killed_run_left_is_cleaned_up_or_put_back(tmp_path: Path) -> None:
    out = tmp_path / "results"
    before = old_set(out)
    old_set(tmp_path / ".results.new-abc123")  # a killed run's staging directory, marked
    (tmp_path / ".results.new-def456").mkdir()
    seal(tmp_path / ".results.new-def456")
    (tmp_path / ".results.new-def456" / "tables.md").write_text("half")  # killed while writing the set
    (tmp_path / ".results.new-mine").mkdir()  # not marked: not ours to delete
    with OutDir(out):
        assert not any(name.startswith((".results.new-abc", ".results.new-def")) for name in beside(out))
        assert ".results.new-mine" in beside(out)
    assert beside(out) == [".results.new-mine"]
    # Killed between the two renames of the fallback swap: the old set is put back.
    os.rename(out, tmp_path / ".results.old-1-ff")
    with OutDir(out):
        pass
    assert snapshot(out) == before


# --- the lock -------------------------------------------------------------------------------------------------


def test_a_second_run_into_a_locked_directory_is_refused_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_measuring: None
) -> None:
    out = tmp_path / "results"
    before = old_set(out)
    with OutDir(out):
        code, _, err = run_cli(capsys, "bench", *QUICK_RUN, "--out", str(out))
        assert_one_line_error(code, err, f"another hanoi bench or report (process {os.getpid()}) is writing")
        code, _, err = run_cli(capsys, "report", str(out))
        assert_one_line_error(code, err, "is writing")
    assert snapshot(out) == before and beside(out) == []


def hanoi(*argv: str, cwd: Path) -> subprocess.Popen[str]:
    """Start ``hanoi ARGV`` in a fresh process in *cwd*."""
    return subprocess.Popen(
        [sys.executable, "-m", "hanoi_harness", *argv],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_concurrent_runs_leave_one_complete_set(tmp_path: Path) -> None:
    out = tmp_path / "results"
    old_set(out)
    runs = [hanoi("bench", *QUICK_RUN, "--out", str(out), cwd=tmp_path) for _ in range(2)]
    ended = [(proc.wait(timeout=300), proc.stderr.read() if proc.stderr else "") for proc in runs]
    codes = sorted(code for code, _ in ended)
    assert codes in ([0, 0], [0, 2]), ended
    for code, err in ended:
        if code == 2:
            assert_one_line_error(code, err, "is writing")
    assert why_not_ours(out) == "" and list(load(out).algorithms) == ["recursive"]
    assert beside(out) == []


# --- signals to a real run ------------------------------------------------------------------------------------


@pytest.fixture
def started(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path, dict[str, bytes]]]:
    """Start a real bench run into a directory holding an old set.

    Return once the run has claimed the directory.
    """
    out = tmp_path / "results"
    before = old_set(out)
    proc = hanoi("bench", "recursive", "bitwise", "--quick", "--out", str(out), cwd=tmp_path)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".results.new-*")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, proc.communicate()
    yield proc, out, before
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_ctrl_c_mid_run_leaves_the_old_results_byte_for_byte(
    started: tuple[subprocess.Popen[str], Path, dict[str, bytes]],
) -> None:
    proc, out, before = started
    time.sleep(0.5)  # into the checks or the timing
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "hanoi: interrupted" in err and "Traceback" not in err
    assert snapshot(out) == before and beside(out) == []


def test_sigkill_mid_run_leaves_the_old_results_byte_for_byte(
    started: tuple[subprocess.Popen[str], Path, dict[str, bytes]],
) -> None:
    proc, out, before = started
    time.sleep(0.5)
    proc.kill()
    proc.wait(timeout=60)
    assert snapshot(out) == before
    with OutDir(out):  # the next run clears what the killed one left (its staging directory, its lock)
        pass
    assert snapshot(out) == before and beside(out) == []


# --- hanoi report -------------------------------------------------------------------------------------------


def test_report_renders_a_set_again_from_its_results_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results"
    old_set(out)
    results_json = (out / "results.json").read_bytes()
    code, said, _ = run_cli(capsys, "report", str(out))
    assert code == 0 and said.startswith(f"rendered {out}/")
    assert (out / "results.json").read_bytes() == results_json
    assert (out / "README.md").read_text().startswith("<!-- Generated by 'hanoi bench'")
    written = {p.name for p in out.iterdir()}
    assert {"index.html", "tables.md", "summary.csv", "time.csv", "ns_per_move_classic.png", MARKER} <= written
    assert why_not_ours(out) == "" and beside(out) == []
    # Into another directory from a bare results.json: the source is left as it is.
    elsewhere = tmp_path / "elsewhere"
    lone = tmp_path / "downloads" / "run.json"
    lone.parent.mkdir()
    lone.write_bytes(results_json)
    code, _, _ = run_cli(capsys, "report", str(lone), "--out", str(elsewhere))
    assert code == 0 and (elsewhere / "results.json").read_bytes() == results_json
    assert sorted(p.name for p in lone.parent.iterdir()) == ["run.json"]


def test_report_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "report", str(tmp_path / "missing"))
    assert_one_line_error(code, err, "no results at")
    (tmp_path / "empty").mkdir()
    code, _, err = run_cli(capsys, "report", str(tmp_path / "empty"))
    assert_one_line_error(code, err, "no results at")
    (tmp_path / "bad.json").write_text("{")
    code, _, err = run_cli(capsys, "report", str(tmp_path / "bad.json"), "--out", str(tmp_path / "x"))
    assert_one_line_error(code, err, "not JSON")
    assert not (tmp_path / "x").exists()


def test_a_plugin_that_changes_directory_does_not_move_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "wanders.py").write_text(
        f"import os\nos.chdir({str(elsewhere)!r})\n\n"
        "def wanders(n, a=0, b=1, c=2):\n"
        "    if n:\n"
        "        yield from wanders(n - 1, a, c, b)\n"
        "        yield (n, a, c)\n"
        "        yield from wanders(n - 1, b, a, c)\n"
    )
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(
        capsys, "bench", *QUICK_RUN, "--plugin", f"{tmp_path / 'wanders.py'}:wanders", "--out", "res"
    )
    assert code == 0, err
    assert (tmp_path / "res" / "results.json").is_file() and not (elsewhere / "res").exists()
    with pytest.raises(UsageError):
        load(elsewhere / "res")
