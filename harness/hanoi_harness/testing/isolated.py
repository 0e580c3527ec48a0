"""Conformance checks run in a child process, safe from the algorithm."""

from __future__ import annotations

import atexit
import base64
import json
import os
import pickle
import select
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

from hanoi_harness import process
from hanoi_harness.testing.worker import WORKER_VARIABLE

TIMEOUT_S = 60.0  #: The longest a check may run before its worker is killed and it fails.


def in_worker() -> bool:
    """Tell whether this process is itself a worker."""
    return os.environ.get(WORKER_VARIABLE) == "1"


def spec_of(algorithm: Any) -> Any:
    """Return what a worker loads *algorithm* from (a name, a pickle), or None."""
    if isinstance(algorithm, str):
        return algorithm
    try:
        return {"pickle": base64.b64encode(pickle.dumps(algorithm)).decode("ascii")}
    except Exception:  # a lambda or a local function: pickle names only what it can import
        return None


@dataclass
class Worker:
    """A child process serving the checks of one algorithm (its *spec*)."""

    spec: Any
    timeout: float = TIMEOUT_S
    name: str = ""
    checks: list[str] = field(default_factory=list)
    unloadable: str = ""
    seen: dict[str, str] = field(default_factory=dict)
    _proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send *request*, starting the worker if need be; return the answer."""
        if self.unloadable:
            return {"failed": self.unloadable}
        if self._proc is None:
            self._proc = self._start()
            loaded = self._exchange({"load": self.spec}, max(self.timeout, TIMEOUT_S))
            if "failed" in loaded:
                self.unloadable = f"it cannot be loaded: {loaded['failed']}"
                self.close()
                return {"failed": self.unloadable}
            self.name, self.checks = loaded["name"], loaded["checks"]
        return self._exchange(request)

    def _start(self) -> subprocess.Popen[bytes]:
        env = process.python_environment()
        env[WORKER_VARIABLE] = "1"
        return process.start(
            process.python_command("hanoi_harness.testing.worker"),
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def _exchange(self, request: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        proc = self._proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(request).encode() + b"\n")
            proc.stdin.flush()
        except OSError:
            pass  # it is gone: the read below says how it ended
        try:
            line = _line(proc, time.monotonic() + (timeout or self.timeout))
        except TimeoutError:
            self.close()
            return {
                "failed": f"it did not finish within {timeout or self.timeout:g} seconds (a hang, or a run without end)"
            }
        try:
            answer: dict[str, Any] = json.loads(line)
            return answer
        except ValueError:  # no line: it ended; a garbled one: it wrote over the answers
            self.close()
            return {"failed": f"its process ended during the check: {process.describe_exit(proc.returncode)}"}

    def close(self) -> None:
        """End the worker and everything it started, if it runs."""
        if self._proc is not None:
            process.stop(self._proc)
            self._proc = None


def _line(proc: subprocess.Popen[bytes], deadline: float) -> bytes:
    """Read one line from *proc*'s output by *deadline* (or TimeoutError)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    data = b""
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        ready = select.select([fd], [], [], max(0.0, left))[0] if left > 0 else []
        if not ready:
            raise TimeoutError
        chunk = os.read(fd, 65536)
        if not chunk:
            return data
        data += chunk
    return data


_WORKERS: dict[str, Worker] = {}


def worker_for(spec: Any, timeout: float = TIMEOUT_S) -> Worker:
    """Return the worker of *spec*, shared by every check of it."""
    key = json.dumps([spec, timeout], sort_keys=True)
    if key not in _WORKERS:
        _WORKERS[key] = Worker(spec, timeout)
    return _WORKERS[key]


@atexit.register
def _close_all() -> None:
    for worker in _WORKERS.values():
        worker.close()
