"""The judging side's handle on an algorithm's own process and its moves."""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import Literal

from hanoi_harness import process
from hanoi_harness.sandbox import protocol
from hanoi_harness.sandbox.output import Printed

POLL_S = 0.2  #: How often a waiting read looks at the deadline, Ctrl-C and the process.

LINGER_S = 1.0  #: How long a pipe a stray holds open is read after the process ended.


class StreamEnded(Exception):
    """The stream ended before its request was answered: *status*, *reason*.

    *died* is set when the process ended by itself, not by us.
    """

    def __init__(self, status: Literal["crashed", "timed_out"], reason: str, *, died: bool = False):
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.died = died


class Producer:
    """A process for the moves of in-tree, *plugins*' and installed algorithms."""

    def __init__(self, plugins: Sequence[str] = (), *, memory_mb: int | None = None) -> None:
        read_end, write_end = os.pipe()
        self.errors = tempfile.TemporaryFile("a+b")  # noqa: SIM115  (appended to by the process; close() ends it)
        config = json.dumps({"plugins": list(plugins), "fd": write_end, "memory_mb": memory_mb})
        try:
            self.proc = process.start(
                process.python_command("hanoi_harness.sandbox.child", config),
                env=process.python_environment(),
                stdin=subprocess.PIPE,
                stdout=self.errors,
                stderr=self.errors,
                pass_fds=(write_end,),
            )
        except BaseException:
            os.close(read_end)
            self.errors.close()
            raise
        finally:
            os.close(write_end)
        self.fd = read_end
        self.pending = bytearray()
        self.reader = protocol.Reader(self._read, pid=self.proc.pid)
        self.requests = 0
        self.deadline: float | None = None
        self.cancel: threading.Event | None = None
        self.ended_at: float | None = None
        self.stopped = False
        self.printed_from = 0

    def ask(
        self,
        name: str,
        n: int,
        *,
        first: int = 0,
        count: int | None = None,
        trace: tuple[int, int] | None = None,
        ends: tuple[Sequence[int], Sequence[int]] | None = None,
    ) -> None:
        """Ask for ``solve(n)``, ``solve_from(n, first)`` or a run between *ends*."""
        self.requests += 1
        request: dict[str, object] = {
            "id": self.requests, "name": name, "n": n, "first": first, "count": count, "trace": trace,
        }  # fmt: skip
        if ends is not None:
            request["start"], request["goal"] = list(ends[0]), list(ends[1])
        self._send(json.dumps(request))

    def skip(self) -> bool:
        """Abandon the request up to its ``D``; whether the process can serve on."""
        try:
            self._send(f"skip {self.requests}")
            while self.next_frame().kind != protocol.DONE:
                pass
        except StreamEnded:
            self.stop()
            return False
        return True

    def _send(self, line: str) -> None:
        """Write *line* to the process."""
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError, ValueError):
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()

    def bound(self, deadline: float | None, cancel: threading.Event | None = None) -> None:
        """From now on, reads give up at *deadline* or once *cancel* is set."""
        self.deadline, self.cancel = deadline, cancel

    def next_frame(self) -> protocol.Frame:
        """The next frame; if none, the process is stopped and StreamEnded raised."""
        try:
            frame = self.reader.next()
        except protocol.BrokenStream as exc:
            self.stop()
            raise StreamEnded("crashed", f"the process broke the move stream: {exc}") from None
        if frame is None:
            raise self._ended()
        if frame.kind == protocol.FATAL:
            try:
                reason = protocol.fatal_reason(frame)
            except protocol.BrokenStream as exc:
                reason = f"the process broke the move stream: {exc}"
            self.stop()
            raise StreamEnded("crashed", reason)
        return frame

    def _read(self, size: int) -> bytes:
        while len(self.pending) < size and self._fill():
            pass
        taken = bytes(self.pending[:size])
        del self.pending[:size]
        return taken

    def _fill(self) -> bool:
        """Read what the pipe has, waiting within the bounds; False at its end."""
        while True:
            if self.cancel is not None and self.cancel.is_set():
                self.stop()
                raise StreamEnded("crashed", "interrupted")
            wait = min(POLL_S, process.wait_slice(self.deadline))
            if self.deadline is not None and wait <= 0:
                self.stop()
                raise StreamEnded("timed_out", "the process was killed")
            if select.select([self.fd], [], [], wait)[0]:
                data = os.read(self.fd, 1 << 20)
                if data:
                    self.pending += data
                return bool(data)
            if self.ended_at is None and self.proc.poll() is not None:
                # It has ended but something it started holds the pipe open: end its group, read what is left.
                process.kill_group(self.proc)
                self.ended_at = time.monotonic()
            elif self.ended_at is not None and time.monotonic() - self.ended_at > LINGER_S:
                return False

    def _ended(self) -> StreamEnded:
        """Why the stream has ended, once the process has ended."""
        killed_by_us = self.stopped
        code = self.stop()
        if killed_by_us:
            return StreamEnded("crashed", "the process was stopped")
        said = self.last_words()
        return StreamEnded("crashed", process.describe_exit(code) + (f": {said}" if said else ""), died=True)

    def printed(self) -> Printed:
        """What the process printed since the last call (or since it began)."""
        try:
            printed = Printed.read(self.errors, self.printed_from)
            self.printed_from = self.errors.tell()
        except (OSError, ValueError):  # closed already
            return Printed()
        return printed

    def last_words(self) -> str:
        """The last line the process wrote on stderr, at most 200 characters."""
        try:
            self.errors.seek(0, os.SEEK_END)
            size = self.errors.tell()
            self.errors.seek(max(0, size - 4096))
            lines = [line.strip() for line in self.errors.read().decode(errors="replace").splitlines()]
        except (OSError, ValueError):
            return ""
        lines = [line for line in lines if line]
        return lines[-1][:200] if lines else ""

    def alive(self) -> bool:
        return not self.stopped and self.proc.poll() is None

    def stop(self) -> int:
        """End the process and its group, once; its return code."""
        if not self.stopped:
            self.stopped = True
            if self.proc.stdin is not None:
                with contextlib.suppress(OSError):
                    self.proc.stdin.close()
            process.stop(self.proc)
            os.close(self.fd)
            # The stream's file is closed: whatever is read after this is its end.
            self.reader = protocol.Reader(lambda size: b"", pid=self.proc.pid)
        code = self.proc.returncode
        return 0 if code is None else code

    def close(self) -> None:
        """Stop the process and drop its captured stderr."""
        self.stop()
        self.errors.close()
