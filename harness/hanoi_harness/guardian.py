"""The guardian: it ends all this process started, however it ends."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time

TOKEN_VARIABLE = "HANOI_HARNESS_TOKEN"  #: The environment variable carrying this process's token into its children.


def token() -> str:
    """This process's token, by which the guardian finds its descendants."""
    global _TOKEN
    if _TOKEN is None:
        _TOKEN = os.urandom(16).hex()
    return _TOKEN


def share_token(value: str, *, guarded: bool) -> None:
    """Use the caller's token *value*; *guarded*: its guardian covers us."""
    global _TOKEN, _GUARDED_ELSEWHERE
    _TOKEN = value
    _GUARDED_ELSEWHERE = guarded


def end_strays() -> int:
    """Kill every process still carrying this process's token; how many."""
    if not sys.platform.startswith("linux"):
        return 0
    return _kill_marked(f"{TOKEN_VARIABLE}={token()}".encode(), os.getpid())


CHILD_VARIABLE = "HANOI_HARNESS_CHILD"  #: The environment variable marking one child and all it starts.


def end_descendants(marker: str) -> int:
    """Kill every process still carrying the child marker *marker*; how many.

    Linux only: it reads each process's starting environment.
    """
    if not sys.platform.startswith("linux"):
        return 0
    return _kill_marked(f"{CHILD_VARIABLE}={marker}".encode(), os.getpid())


def _kill_marked(needle: bytes, spare: int) -> int:
    killed = 0
    pids: set[int] = set()
    for _ in range(10):  # a stray may fork while we look: look again until none is left
        found = 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == spare:
                continue
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    marked = needle in f.read().split(b"\0")
            except OSError:
                continue
            if marked:
                with contextlib.suppress(OSError):
                    os.kill(int(entry), signal.SIGKILL)
                    found += 1
                    pids.add(int(entry))
        killed += found
        if not found:
            break
    _await_death(pids)
    return killed


def _await_death(pids: set[int], limit_s: float = 2.0) -> None:
    """Wait until each of *pids* is gone or a zombie, *limit_s* s at most."""
    deadline = time.monotonic() + limit_s
    while pids and time.monotonic() < deadline:
        for pid in list(pids):
            try:
                with open(f"/proc/{pid}/stat", "rb") as f:
                    if f.read().rsplit(b")", 1)[-1].split()[0] in (b"Z", b"X"):
                        pids.discard(pid)
            except OSError:
                pids.discard(pid)
        if pids:
            time.sleep(0.005)


# The guardian's code: it reads +PID/-PID lines; at their end (ours) it kills those groups, then all with the token.
_GUARD = r"""
import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(s, signal.SIG_IGN)
groups = set()
for line in sys.stdin:
    pid = int(line[1:])
    (groups.add if line[0] == "+" else groups.discard)(pid)
for pid in groups:
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
if sys.platform.startswith("linux"):
    needle = sys.argv[1].encode()
    for _ in range(10):
        found = 0
        for entry in os.listdir("/proc"):
            if entry.isdigit() and int(entry) != os.getpid():
                try:
                    with open("/proc/%s/environ" % entry, "rb") as f:
                        marked = needle in f.read().split(b"\0")
                except OSError:
                    continue
                if marked:
                    try:
                        os.kill(int(entry), signal.SIGKILL)
                        found += 1
                    except OSError:
                        pass
        if not found:
            break
"""


class _Guardian:
    """The guardian process of this process, started on first use."""

    def __init__(self) -> None:
        self.owner = 0
        self.proc: subprocess.Popen[str] | None = None
        self.lock = threading.Lock()

    def ensure(self) -> None:
        """Start the guardian unless this process has one, or is guarded."""
        if _GUARDED_ELSEWHERE:
            return
        with self.lock:
            if self.owner != os.getpid():  # not started yet, or we are a fork of the process that did
                self._start()

    def send(self, line: str) -> None:
        """Tell the guardian *line* (``+PID`` or ``-PID``)."""
        if _GUARDED_ELSEWHERE:
            return
        self.ensure()
        with self.lock:
            try:
                assert self.proc is not None and self.proc.stdin is not None
                self.proc.stdin.write(line + "\n")
                self.proc.stdin.flush()
            except (OSError, ValueError):  # it was killed: a new one takes over from now on
                if self.proc is not None:
                    self.proc.poll()
                self._start()

    def _start(self) -> None:
        if self.proc is not None and self.owner != os.getpid():
            self.proc.returncode = 0  # a fork of the process that started it: not ours to reap or warn about
        # It outlives this process by design: the reference kept here is never dropped while we run.
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _GUARD, f"{TOKEN_VARIABLE}={token()}"],
            stdin=subprocess.PIPE,
            text=True,
            start_new_session=True,  # out of reach of the terminal's Ctrl-C and of a kill of our group
            close_fds=True,
        )
        self.owner = os.getpid()


_TOKEN: str | None = None
_GUARDED_ELSEWHERE = False
_GUARDIAN = _Guardian()


def ensure() -> None:
    """Start this process's guardian now, unless it runs or is not needed."""
    _GUARDIAN.ensure()


def started(pid: int) -> None:
    """Register the group of process *pid*, just started."""
    _GUARDIAN.send(f"+{pid}")


def ended(pid: int) -> None:
    """Unregister the group of process *pid*, ended and reaped."""
    _GUARDIAN.send(f"-{pid}")
