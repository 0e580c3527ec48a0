"""Standard streams for every command, and how it ends whatever they do."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress

from hanoi_harness.cli.options import one_line
from hanoi_harness.errors import UsageError

TYPE_CHECKING = False  # mypy reads it as True; typing itself is left out of a command's start-up
if TYPE_CHECKING:
    from typing import Any, NoReturn, TextIO


class OutputError(UsageError):
    """Standard output cannot take what a command writes (a full disk, say)."""


def write_lines(lines: Iterable[str]) -> None:
    """Write *lines* to stdout in 64 KB blocks, until the reader has gone."""
    out = command_stdout()
    block: list[str] = []
    size = 0
    for line in lines:
        block.append(line)
        size += len(line)
        if size >= 1 << 16:
            out.write("".join(block))
            block.clear()
            size = 0
            if reader_gone():
                return
    out.write("".join(block))
    out.flush()


def write_binary(blocks: Iterable[Any]) -> None:
    """Write the byte buffers of *blocks* to stdout, until the reader has gone."""
    out = command_stdout().buffer
    for block in blocks:
        out.write(block)
        if reader_gone():
            return
    out.flush()


def reader_gone() -> bool:
    """Tell whether the reader of stdout has closed its end (``| head``)."""
    return bool(getattr(command_stdout(), "reader_gone", False))


_COMMAND_STDOUT: list[Any] = []  # the command's own stdout while algorithm_output() runs (one at most)


def command_stdout() -> Any:
    """Where the command's own output goes, even within algorithm_output."""
    return _COMMAND_STDOUT[-1] if _COMMAND_STDOUT else sys.stdout


@contextmanager
def algorithm_output() -> Iterator[None]:
    """Run the block with what algorithm code prints sent to stderr."""
    if _COMMAND_STDOUT:
        yield
        return
    from hanoi_harness.sandbox.output import ToStderr

    command = sys.stdout
    command.flush()
    fd, err = _descriptor(command), _descriptor(sys.stderr)
    own: Any = command
    copy: Any = None
    if fd is not None and err is not None and fd != err:
        copy = open(  # noqa: SIM115 - closed at the end of the block
            os.dup(fd),
            "w",
            encoding=getattr(command, "encoding", None) or "utf-8",
            errors=getattr(command, "errors", None) or "strict",
            buffering=1 if getattr(command, "line_buffering", False) else -1,
        )
        own = _GuardedText(copy, _Guard(copy.fileno()))
        os.dup2(err, fd)
    _COMMAND_STDOUT.append(own)
    sys.stdout = ToStderr()  # type: ignore[assignment]  # a TextIO in all but name
    try:
        yield
    finally:
        sys.stdout = command
        _COMMAND_STDOUT.pop()
        if copy is not None:
            try:
                own.flush()
            finally:
                os.dup2(copy.fileno(), fd)  # type: ignore[arg-type]
                with suppress(OSError, ValueError):
                    copy.close()  # flushed (or its descriptor pointed at /dev/null by the guard)
                if own.reader_gone and isinstance(command, _GuardedText):
                    command._guard.reader_gone = True


def quiet_stdout(fd: int | None) -> None:
    """Point *fd* (stdout's) at /dev/null, so that no flush at exit fails."""
    if fd is None:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fd)
    finally:
        os.close(devnull)


def _descriptor(stream: Any) -> int | None:
    try:
        return int(stream.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None


class _Guard:
    """What stdout's guards share: whether the reader has gone, and failures."""

    def __init__(self, fd: int | None) -> None:
        self.fd = fd
        self.reader_gone = False

    def failed(self, exc: OSError) -> None:
        """Handle the write error *exc*: a closed pipe ends output quietly."""
        quiet_stdout(self.fd)
        if isinstance(exc, BrokenPipeError):
            self.reader_gone = True
            return
        raise OutputError(f"cannot write to standard output: {exc.strerror or exc}") from None


class _GuardedText:
    """The ``sys.stdout`` of a running command, its write errors handled."""

    def __init__(self, stream: TextIO, guard: _Guard) -> None:
        self._stream = stream
        self._guard = guard

    @property
    def reader_gone(self) -> bool:
        return self._guard.reader_gone

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            self._guard.failed(exc)
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            self._guard.failed(exc)
        except ValueError:  # closed (by an algorithm's code, through sys.__stdout__): nothing is left to flush
            pass

    @property
    def buffer(self) -> _GuardedBinary:
        return _GuardedBinary(self._stream.buffer, self._guard)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _GuardedBinary:
    """The ``sys.stdout.buffer`` of a running command, guarded likewise."""

    def __init__(self, stream: Any, guard: _Guard) -> None:
        self._stream = stream
        self._guard = guard

    def write(self, data: Any) -> int:
        try:
            return int(self._stream.write(data))
        except OSError as exc:
            self._guard.failed(exc)
            return memoryview(data).nbytes

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            self._guard.failed(exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _ClosedInput(io.TextIOBase):
    """The ``sys.stdin`` of a command started with standard input closed."""

    def _refuse(self) -> NoReturn:
        raise UsageError("standard input is closed: give the input as a FILE argument or on a pipe")

    def read(self, size: int | None = -1) -> str:
        self._refuse()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self._refuse()

    @property
    def buffer(self) -> Any:
        self._refuse()

    def isatty(self) -> bool:
        return False


def _plug(fd: int, flags: int) -> bool:
    """Open /dev/null with *flags* on *fd* if closed; tell whether it was."""
    try:
        os.fstat(fd)
        return False
    except OSError:
        pass
    devnull = os.open(os.devnull, flags)
    if devnull != fd:
        os.dup2(devnull, fd)
        os.close(devnull)
    return True


@contextmanager
def guarded_stdio() -> Iterator[None]:
    """Run a command with safe standard streams; put the originals back after."""
    saved = sys.stdin, sys.stdout, sys.stderr
    if _plug(2, os.O_WRONLY) or sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - it lives as long as the process
    if _plug(0, os.O_RDONLY) or sys.stdin is None:
        sys.stdin = _ClosedInput()
    try:
        if saved[1] is None:
            raise OutputError("standard output is closed, so nothing can be written (started with '>&-'?)")
        guarded = _GuardedText(saved[1], _Guard(_descriptor(saved[1])))
        sys.stdout = guarded  # type: ignore[assignment]  # a TextIO in all but name
        try:
            yield
        finally:
            guarded.flush()  # what is buffered goes out (or fails) before any message about the command
    finally:
        sys.stdin, sys.stdout = saved[0], saved[1]
        if saved[2] is not None:
            sys.stderr = saved[2]


def say(message: str) -> None:
    """Print ``hanoi: MESSAGE`` as one line on stderr, if stderr can take it."""
    with suppress(OSError, ValueError, AttributeError):
        print(f"hanoi: {one_line(message)}", file=sys.stderr, flush=True)
