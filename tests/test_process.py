"""Test child processes: started apart and ended whole.

They are ended with us, isolated from the current directory, and waited for whatever the timeout.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hanoi_harness import guardian, process
from tests.helpers import gone

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def wait_for_pid(path: Path, within: float = 30.0) -> int:
    end = time.monotonic() + within
    while not (path.exists() and path.read_text().strip().isdigit()):
        assert time.monotonic() < end, f"{path} was never written"
        time.sleep(0.02)
    return int(path.read_text())


def test_stop_ends_the_whole_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    proc = process.start(f"sleep 600 & echo $! > {pidfile}; wait")
    background = wait_for_pid(pidfile)
    assert process.stop(proc) == -signal.SIGKILL
    assert gone(background)


def test_run_returns_the_outcome_and_ends_what_the_child_left_behind(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    done = process.run(f"sleep 600 & echo $! > {pidfile}; echo out; exit 3", stdout=subprocess.PIPE, text=True)
    assert (done.returncode, done.stdout) == (3, "out\n")
    assert gone(int(pidfile.read_text()))  # the background sleep went with its group
    began = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        process.run(["sleep", "600"], timeout=0.2)
    assert time.monotonic() - began < 60


def test_the_guardian_ends_a_group_when_its_parent_is_killed(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    script = (
        "import time\nfrom hanoi_harness import process\n"
        f"process.start('echo $$ > {pidfile}; exec sleep 600')\ntime.sleep(600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script])
    try:
        program = wait_for_pid(pidfile)
        parent.kill()  # SIGKILL: nothing of the parent's runs after this
        parent.wait()
        assert gone(program)
    finally:
        parent.kill()
        parent.wait()


@linux_only
def test_end_strays_finds_what_left_its_session(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    proc = process.start(f"setsid sleep 600 & echo $! > {pidfile}; wait")
    escapee = wait_for_pid(pidfile)
    while os.getsid(escapee) != escapee:  # not yet out of the group: stop() would end it
        time.sleep(0.01)
    assert guardian.end_strays() >= 1  # out of the group, found by the token
    assert gone(escapee)
    process.stop(proc)
    pidfile = tmp_path / "pid2"
    proc = process.start(f"setsid sleep 600 & echo $! > {pidfile}; wait")
    escapee = wait_for_pid(pidfile)
    while os.getsid(escapee) != escapee:
        time.sleep(0.01)
    process.stop(proc)  # out of the group, found by its child's marker
    assert gone(escapee)


def test_python_children_import_what_the_parent_would_and_not_the_current_directory(tmp_path: Path) -> None:
    code = "from hanoi_harness import process; process.child_start(); import json, sys; print(json.dumps(sys.path))"
    proc = process.start(
        [sys.executable, "-P", "-c", code], env=process.python_environment(), cwd=tmp_path, stdout=subprocess.PIPE
    )
    out, _ = process.communicate(proc, None, 60)
    process.stop(proc)
    path = json.loads(out)
    assert path == [os.path.abspath(entry) for entry in sys.path if entry]
    assert str(tmp_path) not in path


def test_waits_of_any_length() -> None:
    proc = process.start(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.communicate(proc, b"moves\n", 1e10) == (b"moves\n", None)  # past poll()'s 24.8 days
    process.stop(proc)
    proc = process.start(["sleep", "600"])
    watchdog = process.Watchdog(proc, 1e300)
    watchdog.cancel()
    assert not watchdog.fired and proc.poll() is None
    process.stop(proc)
    assert process.wait_slice(1e300) == process.MAX_WAIT_S


def test_a_wait_longer_than_a_slice_goes_on_slice_after_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process, "MAX_WAIT_S", 0.05)  # an hour in a run: the same loop, quicker
    proc = process.start([sys.executable, "-c", "import sys, time; time.sleep(0.4); print(sys.stdin.read())"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    assert process.communicate(proc, b"given once", 60) == (b"given once\n", None)
    process.stop(proc)


def test_a_timeout_stops_the_group() -> None:
    proc = process.start(["sleep", "600"], stdin=subprocess.PIPE)
    with pytest.raises(subprocess.TimeoutExpired):
        process.communicate(proc, b"", 0.2)
    watchdog = process.Watchdog(proc, 0.1)
    assert proc.wait(timeout=30) == -signal.SIGKILL and watchdog.fired
    process.stop(proc)


def test_safe_path_environment_is_undone() -> None:
    before = os.environ.get("PYTHONSAFEPATH")
    with process.safe_path_environment():
        assert os.environ["PYTHONSAFEPATH"] == "1"
    assert os.environ.get("PYTHONSAFEPATH") == before


def test_a_worker_given_its_callers_token_starts_no_guardian_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guardian, "_TOKEN", None)
    monkeypatch.setattr(guardian, "_GUARDED_ELSEWHERE", False)
    own = guardian._Guardian()
    guardian.share_token("0123abcd", guarded=True)
    assert guardian.token() == "0123abcd"
    own.ensure()
    own.send("+1")
    assert own.proc is None  # the caller's guardian covers this process's children


def test_end_strays_is_linux_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert guardian.end_strays() == 0


@linux_only
def test_a_guardian_that_was_killed_is_replaced_and_the_new_one_ends_the_groups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guardian, "_TOKEN", os.urandom(16).hex())  # its own token: it must not touch ours
    own = guardian._Guardian()
    own.ensure()
    assert own.proc is not None
    first = own.proc
    first.kill()
    first.wait()
    group = subprocess.Popen(["sleep", "600"], start_new_session=True)
    try:
        own.send(f"+{group.pid}")  # the write fails: a new guardian takes over, and hears of the group next
        own.send(f"+{group.pid}")
        assert own.proc is not first and own.proc.poll() is None
        assert own.proc.stdin is not None
        own.proc.stdin.close()  # as when this process ends: the guardian ends the groups still registered
        assert group.wait(timeout=30) == -signal.SIGKILL
        assert own.proc.wait(timeout=30) == 0
    finally:
        group.kill()
        group.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the marker is read from /proc")
def test_stop_ends_a_daemon_in_a_session_of_its_own() -> None:
    code = (
        "import subprocess, sys, time; "
        "d = subprocess.Popen(['sleep', '300'], start_new_session=True); "
        "print(d.pid, flush=True); time.sleep(300)"
    )
    proc = process.start([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    daemon = int(proc.stdout.readline())
    process.stop(proc)
    state = Path(f"/proc/{daemon}/stat")
    assert not state.exists() or state.read_text().split(")")[-1].split()[0] == "Z"  # gone, or dead unreaped
