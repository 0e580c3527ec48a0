"""What an algorithm prints: it goes to stderr, never among the moves."""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass
from typing import IO, Any, TextIO

LINES = 20  #: Lines of an algorithm's output that ``hanoi verify`` shows.

WIDTH = 200  #: Characters of each of those lines.


class ToStderr(io.TextIOBase):
    """``sys.stdout`` for an algorithm's code: it writes to ``sys.stderr``."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()

    def close(self) -> None:
        self.flush()  # closing standard output is the algorithm's own affair: the stream stays open

    @property
    def closed(self) -> bool:
        return False

    @property
    def buffer(self) -> Any:  # type: ignore[override]
        return _BytesToStderr()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(getattr(sys.stderr, "encoding", None) or "utf-8")

    def fileno(self) -> int:
        return sys.stderr.fileno()

    def isatty(self) -> bool:
        return sys.stderr.isatty()

    def writable(self) -> bool:
        return True


class _BytesToStderr(io.RawIOBase):
    """``sys.stdout.buffer`` of :class:`ToStderr`: bytes go to stderr."""

    def write(self, data: Any) -> int:
        target = getattr(sys.stderr, "buffer", None)
        if target is not None:
            sys.stderr.flush()  # the text written before goes first, and these bytes at once, as stderr's do
            written = int(target.write(data))
            target.flush()
            return written
        sys.stderr.write(bytes(data).decode(errors="replace"))
        return memoryview(data).nbytes

    def close(self) -> None:
        sys.stderr.flush()

    @property
    def closed(self) -> bool:
        return False

    def writable(self) -> bool:
        return True


def own_stdout() -> TextIO:  # pragma: no cover - in a child (tests/cli/test_output.py runs bench's)
    """Point stdout, descriptor 1 too, at stderr; return a stream on the old."""
    sys.stdout.flush()
    answer = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = ToStderr()
    return open(answer, "w", buffering=1, encoding="utf-8")


@dataclass(frozen=True)
class Printed:
    """The first :data:`LINES` *lines* a process printed, and how many *more*."""

    lines: tuple[str, ...] = ()
    more: int = 0

    @classmethod
    def read(cls, file: IO[bytes], start: int) -> Printed:
        """What *file* holds from *start* on, each line cut to :data:`WIDTH`."""
        file.seek(start)
        head = file.read(LINES * (WIDTH + 1) * 4)
        count, last = head.count(b"\n"), head[-1:]
        while chunk := file.read(1 << 20):  # the rest is only counted
            count, last = count + chunk.count(b"\n"), chunk[-1:]
        count += last not in (b"", b"\n")  # a last line without its newline
        kept = tuple(line[:WIDTH] for line in head.decode(errors="replace").splitlines()[:LINES])
        return cls(kept, max(0, count - len(kept)))

    def __add__(self, other: Printed) -> Printed:
        """This output, then *other*, kept to :data:`LINES` lines."""
        lines = self.lines + other.lines
        return Printed(lines[:LINES], self.more + other.more + max(0, len(lines) - LINES))

    def told(self, name: str) -> list[str]:
        """The lines to show, each after *name*, then how many were left.

        >>> Printed(("moving", "moving"), 3).told("mine")
        ['mine: moving', 'mine: moving', 'mine: (3 more lines printed)']
        """
        told = [f"{name}: {line}" for line in self.lines]
        if self.more:
            told.append(f"{name}: ({self.more} more lines printed)")
        return told
