"""Child processes: how the harness starts, limits and ends them."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from hanoi_harness import guardian
from hanoi_harness.errors import UsageError

MAX_WAIT_S = 3600.0  #: The longest single wait: longer deadlines are waited for in slices.

PATH_VARIABLE = "HANOI_HARNESS_PATH"  #: The environment variable carrying the import path into a Python child.

PARENT_VARIABLE = "HANOI_HARNESS_PARENT"  #: The environment variable carrying the parent's pid into a Python child.

THREAD_CAPS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""One BLAS thread in a child: each reserves tens of MB of address space."""

_RLIM_MAX = (1 << 63) - 1  # the largest limit setrlimit takes on 64-bit Linux and macOS

MAX_MEMORY_MB = _RLIM_MAX >> 20  #: The largest ``--memory-limit`` in MB that the system can set.


def wait_slice(deadline: float | None, now: float | None = None) -> float:
    """Seconds to wait now for *deadline*: at most MAX_WAIT_S.

    >>> wait_slice(None)
    3600.0
    >>> wait_slice(10.0, now=4.0), wait_slice(1e300, now=0.0), wait_slice(3.0, now=5.0)
    (6.0, 3600.0, 0.0)
    """
    if deadline is None:
        return MAX_WAIT_S
    left = deadline - (time.monotonic() if now is None else now)
    return min(MAX_WAIT_S, max(0.0, left))


def deadline_after(timeout: float | None) -> float | None:
    """The :func:`time.monotonic` deadline *timeout* seconds from now.

    >>> deadline_after(None) is None, deadline_after(1e300) > 1e299
    (True, True)
    """
    return None if timeout is None else time.monotonic() + timeout


def describe_exit(code: int | None, what: str = "the process", *, oom_hint: bool = True) -> str:
    """How a child ended, as a clause about *what*.

    >>> describe_exit(3), describe_exit(-9), describe_exit(-15, "the program", oom_hint=False)
    ('the process exited with status 3', 'the process was killed by SIGKILL (out of memory?)', \
    'the program was killed by SIGTERM')
    >>> describe_exit(None), describe_exit(-99)
    ('the process vanished', 'the process was killed by signal 99')
    """
    if code is None:
        return f"{what} vanished"
    if code < 0:
        hint = " (out of memory?)" if oom_hint and -code == signal.SIGKILL else ""
        return f"{what} was killed by {signal_name(-code)}{hint}"
    return f"{what} exited with status {code}"


def exit_status(code: int) -> str:
    """The short form of a return code *code*.

    >>> exit_status(9), exit_status(-9)
    ('exit status 9', 'signal 9')
    """
    return f"signal {-code}" if code < 0 else f"exit status {code}"


def signal_name(number: int) -> str:
    """The name of signal *number* (``SIGKILL``), or ``signal N``.

    >>> signal_name(9), signal_name(99)
    ('SIGKILL', 'signal 99')
    """
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def check_memory_limit(mb: int) -> None:
    """Refuse an address-space limit of *mb* MB that setrlimit cannot take.

    >>> check_memory_limit(4096)
    >>> check_memory_limit(10**17)
    Traceback (most recent call last):
    ...
    hanoi_harness.errors.UsageError: --memory-limit 100000000000000000 MB is more than this system can set \
    (at most 8796093022207 MB); give 0 for no limit
    """
    if mb > MAX_MEMORY_MB:
        raise UsageError(
            f"--memory-limit {mb} MB is more than this system can set (at most {MAX_MEMORY_MB} MB); give 0 for no limit"
        )


def limit_memory(mb: int | None) -> None:  # pragma: no cover - in a child (tests/sandbox/test_runner.py: a memory hog)
    """Cap this process's address space at *mb* MB (None or 0: none), for good."""
    if mb:
        import resource

        limit = min(mb << 20, _RLIM_MAX)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def ignore_interrupts() -> None:  # pragma: no cover - in a child (tests/sandbox/test_hostile.py: Ctrl-C)
    """Leave Ctrl-C to the parent, which ends this process itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def die_with_parent(parent: int) -> None:  # pragma: no cover - in a child (tests/sandbox/test_hostile.py)
    """End this process when process *parent*, which started it, ends.

    On Linux by ``PR_SET_PDEATHSIG``, tied to the parent's thread that started us.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # it ended before the signal was armed
            os._exit(1)
    else:
        watch(parent)


def watch(pid: int, interval: float = 1.0) -> None:  # pragma: no cover - in a pool worker, watching its caller
    """End this process within *interval* seconds of process *pid*'s end."""

    def poll() -> None:
        while True:
            time.sleep(interval)
            try:
                os.kill(pid, 0)
            except (ProcessLookupError, PermissionError):  # gone (or its pid reused by another user)
                os._exit(1)

    threading.Thread(target=poll, name=f"watch-{pid}", daemon=True).start()


def python_command(module: str, *args: str) -> list[str]:
    """The command running ``python -m`` *module* with *args*.

    >>> python_command("hanoi_harness.x", "a")[1:]
    ['-P', '-m', 'hanoi_harness.x', 'a']
    """
    return [sys.executable, "-P", "-m", module, *args]


def python_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a Python child: *base* or ours, our pid and path."""
    env = dict(os.environ if base is None else base)
    # '' (the current directory, after 'python -c') is left out: a child never imports from there.
    env[PATH_VARIABLE] = os.pathsep.join(os.path.abspath(entry) for entry in sys.path if entry)
    env[PARENT_VARIABLE] = str(os.getpid())
    env.update(THREAD_CAPS)
    return env


def child_start() -> None:  # pragma: no cover - in a child (tests/test_process.py)
    """Die with the parent, leave Ctrl-C to it, and take its import path."""
    parent = os.environ.get(PARENT_VARIABLE)
    if parent is not None:
        die_with_parent(int(parent))
    ignore_interrupts()
    passed = os.environ.get(PATH_VARIABLE)
    if passed:
        sys.path[:] = [entry for entry in passed.split(os.pathsep) if entry]


@contextlib.contextmanager
def safe_path_environment() -> Iterator[None]:
    """While the block runs, Python children started with ``-c`` skip ``.``."""
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONSAFEPATH", None)
        else:
            os.environ["PYTHONSAFEPATH"] = before


def start(argv: Sequence[str] | str, *, env: dict[str, str] | None = None, **popen: Any) -> subprocess.Popen[Any]:
    """Start *argv* (a string: in a shell) in a session known to the guardian."""
    environment = dict(os.environ if env is None else env)
    environment[guardian.TOKEN_VARIABLE] = guardian.token()
    marker = environment[guardian.CHILD_VARIABLE] = os.urandom(8).hex()
    guardian.ensure()  # before the child exists: were we killed at once, the guardian's token scan finds it
    proc: subprocess.Popen[Any] = subprocess.Popen(
        argv, shell=isinstance(argv, str), env=environment, start_new_session=True, close_fds=True, **popen
    )
    guardian.started(proc.pid)
    _MARKERS[proc.pid] = marker
    return proc


_MARKERS: dict[int, str] = {}  # the marker in each running child's environment, by pid


def kill_group(proc: subprocess.Popen[Any]) -> None:
    """Kill every process of *proc*'s group; *proc* is left to be reaped."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def stop(proc: subprocess.Popen[Any]) -> int:
    """End *proc* and its whole group, reap it; its return code."""
    kill_group(proc)
    code = proc.wait()
    guardian.ended(proc.pid)
    marker = _MARKERS.pop(proc.pid, None)
    if marker is not None:  # what it started in a session of its own, a daemon, goes too
        guardian.end_descendants(marker)
    return code


def communicate(proc: subprocess.Popen[Any], data: Any, timeout: float | None) -> tuple[Any, Any]:
    """:meth:`~subprocess.Popen.communicate` with *data*, for any *timeout*."""
    deadline = deadline_after(timeout)
    while True:
        try:
            return proc.communicate(data, timeout=wait_slice(deadline))
        except subprocess.TimeoutExpired:
            if deadline is not None and time.monotonic() >= deadline:
                raise
            data = None  # already written: communicate() takes it once


def run(
    argv: Sequence[str] | str, *, env: dict[str, str] | None = None, timeout: float | None = None, **popen: Any
) -> subprocess.CompletedProcess[Any]:
    """Run *argv* to its end as :func:`start` starts it; its outcome."""
    proc = start(argv, env=env, **popen)
    watchdog = Watchdog(proc, timeout)
    try:
        out, err = proc.communicate()
    finally:
        watchdog.cancel()
        code = stop(proc)
    if watchdog.fired:
        raise subprocess.TimeoutExpired(proc.args, timeout or 0.0, out, err)
    return subprocess.CompletedProcess(proc.args, code, out, err)


class Watchdog:
    """Ends *proc*'s group once it ends, or after *timeout* s (None: never)."""

    POLL_S = 0.05

    def __init__(self, proc: subprocess.Popen[Any], timeout: float | None) -> None:
        self.fired = False
        self._done = threading.Event()
        threading.Thread(target=self._run, args=(proc, deadline_after(timeout)), daemon=True).start()

    def _run(self, proc: subprocess.Popen[Any], deadline: float | None) -> None:
        while not self._done.wait(min(self.POLL_S, wait_slice(deadline))):
            if proc.poll() is not None:
                kill_group(proc)
                return
            if deadline is not None and time.monotonic() >= deadline:
                self.fired = True
                kill_group(proc)
                return

    def cancel(self) -> None:
        self._done.set()
