"""An algorithm's own process, which streams its moves to the judge."""

from __future__ import annotations

import contextlib
import json
import os
import select
import sys
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any, Protocol

from hanoi_harness import process
from hanoi_harness.sandbox import protocol
from hanoi_harness.sandbox.faults import Crash, roots_of
from hanoi_harness.sandbox.output import ToStderr


def main(argv: Sequence[str]) -> int:  # pragma: no cover - the algorithm's process (tests/sandbox/test_child.py)
    """Serve requests as the JSON config *argv[0]* says; the exit status."""
    config = json.loads(argv[0])
    process.child_start()
    out = protocol.Writer(_sink(int(config["fd"])))
    os.dup2(2, 1)  # the algorithm's prints go where standard error goes, even os.write(1, ...)
    sys.stdout = ToStderr()
    import hanoi_algorithms  # noqa: F401  (the in-tree code, imported before the limit applies)
    from hanoi_harness.errors import UsageError
    from hanoi_harness.registry.sources import build_registry, load_entry_points

    try:
        process.limit_memory(config.get("memory_mb"))
        registry = build_registry(config["plugins"], entry_points=False, guard=False)
    except (UsageError, MemoryError, OSError, ValueError) as exc:
        out.fatal(str(exc) or type(exc).__name__)
        return 2
    control = _Control(0)
    for request in control.requests():
        try:
            if request["name"] not in registry:  # the entry points only when needed: they are slow to look up
                load_entry_points(registry)
            algorithm = registry.get(request["name"])
        except UsageError as exc:
            out.fatal(str(exc))
            return 2
        serve(algorithm, request, out, control)
    return 0


def serve(algorithm: Any, request: dict[str, Any], out: protocol.Writer, control: Skips) -> None:
    """Answer *request* with *algorithm*'s moves on *out*: frames, then ``D``."""
    n, first = int(request["n"]), int(request["first"])
    count = request.get("count")
    roots = roots_of(algorithm)
    try:
        source = _source(algorithm, n, first, request.get("start"), request.get("goal"))
    except BaseException as exc:  # the algorithm's own failure to start, whatever it is
        out.failure(protocol.START_FAILED, Crash.of(exc, roots))
    else:
        if algorithm.chunks:
            _arrays(source, out, control, request["id"], count, roots)
        else:
            trace = request.get("trace")
            _moves(source, out, control, request["id"], count, tuple(trace) if trace else None, roots)
    for stream in (sys.stdout, sys.stderr):  # what it printed is written before the request ends
        with contextlib.suppress(BaseException):  # a stream the algorithm broke: its output is lost, not the verdict
            stream.flush()
    out.done()


def _source(algorithm: Any, n: int, first: int, start: Any, goal: Any) -> Iterator[Any]:
    """What *algorithm* yields for the request."""
    if start is not None:
        ends = (tuple(start), tuple(goal))
        return iter(algorithm.solve_between(n, *ends) if algorithm.chunks else algorithm.moves_for(n, *ends))
    if algorithm.chunks:
        return iter(algorithm.solve_from(n, first) if first else algorithm.solve(n))
    return iter(algorithm.moves_from(n, first) if first else algorithm.moves(n))


def batch_size(sent: int, count: int | None, trace: tuple[int, int] | None) -> int:
    """How many moves to take next, *sent* being sent already.

    >>> batch_size(0, None, None), batch_size(0, 10, None), batch_size(0, None, (5, 9)), batch_size(5, None, (5, 9))
    (65536, 10, 4, 1)
    """
    size = protocol.BATCH if count is None else min(protocol.BATCH, count - sent)
    if trace is not None:
        first, last = trace
        if sent + 1 < first:
            size = min(size, first - 1 - sent)
        elif sent + 1 <= last:
            size = min(size, 1)
    return size


def _moves(
    source: Iterator[Any],
    out: protocol.Writer,
    control: Skips,
    rid: int,
    count: int | None,
    trace: tuple[int, int] | None,
    roots: tuple[str, ...] = (),
) -> None:
    """Batches of moves, pulled in C (``list.extend``)."""
    sent = 0
    while (size := batch_size(sent, count, trace)) > 0:
        batch: list[Any] = []
        raised: BaseException | None = None
        try:
            batch.extend(islice(source, size))  # on an exception, the moves taken before it stay in the batch
        except BaseException as exc:
            raised = exc
        try:
            plain = out.moves(batch)
        except BaseException as exc:  # raised by a move's own __iter__
            raised, plain = exc, True
        if not plain:
            return
        if raised is not None:
            out.failure(protocol.RAISED, Crash.of(raised, roots))
            return
        sent += len(batch)
        if len(batch) < size or control.skipped(rid):
            return


def _arrays(
    source: Iterator[Any], out: protocol.Writer, control: Skips, rid: int, count: int | None, roots: tuple[str, ...]
) -> None:
    """One frame per array; with *count*, the arrays' first *count* rows only."""
    left = count
    while left is None or left > 0:
        try:
            chunk = next(source)
            if left is not None:
                rows = len(chunk) if hasattr(chunk, "__len__") else 0
                chunk = chunk[:left] if rows > left else chunk
                left -= rows
        except StopIteration:
            return
        except BaseException as exc:
            out.failure(protocol.RAISED, Crash.of(exc, roots))
            return
        try:
            out.array(chunk)
        except protocol.ChunkFailed as exc:
            out.failure(protocol.RAISED, Crash.of(exc.error, roots))
            return
        if control.skipped(rid):
            return


class Skips(Protocol):
    """What serving a request needs of the control channel: its skips."""

    def skipped(self, rid: int) -> bool: ...


def _sink(fd: int) -> protocol.Sink:
    """Writes buffers to *fd* in full."""

    def write(parts: Sequence[protocol.Buffer]) -> None:
        views = [memoryview(part).cast("B") for part in parts]
        try:
            while views:
                written = os.writev(fd, views)
                while views and written >= len(views[0]):
                    written -= len(views[0])
                    views.pop(0)
                if views:
                    views[0] = views[0][written:]
        except (BrokenPipeError, OSError):
            os._exit(0)

    return write


class _Control:
    """Requests and skips on file descriptor *fd*, one line each."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = b""

    def requests(self) -> Iterator[dict[str, Any]]:
        """Each request in turn, until the parent closes the pipe."""
        while True:
            line = self._line()
            if line is None:
                return
            if line.startswith(b"{"):
                yield json.loads(line)

    def skipped(self, rid: int) -> bool:
        """Whether the parent has asked by now to skip request *rid*; no wait."""
        while select.select([self.fd], [], [], 0)[0]:
            data = os.read(self.fd, 4096)
            if not data:
                return True  # the parent has gone
            self.pending += data
        lines = self.pending.split(b"\n")
        wanted = f"skip {rid}".encode()
        if wanted in lines[:-1]:
            self.pending = b"\n".join(line for line in lines if line != wanted)
            return True
        return False

    def _line(self) -> bytes | None:
        while b"\n" not in self.pending:
            data = os.read(self.fd, 4096)
            if not data:
                return None
            self.pending += data
        line, self.pending = self.pending.split(b"\n", 1)
        return line


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
