"""Child processes: started apart, ended whole, ended with us, isolated from the current directory, waited for
whatever the timeout."""

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
    process.stop(proc)
    assert not gone(escapee, within=0.5)  # out of the group: stop() cannot see it
    assert guardian.end_strays() >= 1
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
