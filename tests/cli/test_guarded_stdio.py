"""The standard-stream guards of every command, in this process: what a failing write, a closed
stream turns into.  Real processes with real streams are in
tests/cli/test_streams.py."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from hanoi_harness.cli import streams as _cli_streams
from hanoi_harness.cli.streams import (
    OutputError,
    _ClosedInput,
    _Guard,
    _GuardedText,
    _plug,
    guarded_stdio,
    reader_gone,
)
from hanoi_harness.errors import UsageError


class Failing(io.StringIO):
    """A text stream whose writes and flushes fail with *error*; its ``buffer`` fails the same way."""

    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error
        self.raw = FailingBinary(error)

    def write(self, text: str) -> int:
        raise self.error

    def flush(self) -> None:
        raise self.error

    @property
    def buffer(self) -> Any:
        return self.raw


class FailingBinary(io.BytesIO):
    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, data: Any) -> int:
        raise self.error

    def flush(self) -> None:
        raise self.error


FULL = OSError(errno.ENOSPC, "No space left on device")


def guarded(error: OSError) -> _GuardedText:
    return _GuardedText(Failing(error), _Guard(None))  # no descriptor: nothing to point at /dev/null


def test_a_full_disk_is_one_error_naming_it_on_write_and_on_flush() -> None:
    message = r"^cannot write to standard output: No space left on device$"
    with pytest.raises(OutputError, match=message):
        guarded(FULL).write("x")
    with pytest.raises(OutputError, match=message):
        guarded(FULL).flush()


def test_a_full_disk_under_the_binary_buffer_is_the_same_error() -> None:
    with pytest.raises(OutputError, match="No space left on device"):
        guarded(FULL).buffer.write(b"x")
    with pytest.raises(OutputError, match="No space left on device"):
        guarded(FULL).buffer.flush()


def test_a_reader_gone_ends_output_quietly_and_is_remembered(monkeypatch: pytest.MonkeyPatch) -> None:
    out = guarded(BrokenPipeError(errno.EPIPE, "Broken pipe"))
    monkeypatch.setattr(sys, "stdout", out)
    assert not reader_gone()
    assert out.buffer.write(b"abc") == 3  # counted as written: the caller goes on and checks reader_gone
    assert reader_gone() and out.reader_gone
    assert out.write("four") == 4
    out.flush()
    out.buffer.flush()


def test_the_guards_pass_everything_else_to_the_stream() -> None:
    stream = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    out = _GuardedText(stream, _Guard(None))
    assert out.write("é") == 1
    out.flush()
    assert (out.encoding, out.buffer.getvalue()) == ("utf-8", "é".encode())


def test_a_closed_stdin_is_a_usage_error_when_read() -> None:
    closed = _ClosedInput()
    for read in (closed.read, closed.readline, lambda: closed.buffer):
        with pytest.raises(UsageError, match="standard input is closed: give the input as a FILE argument"):
            read()
    assert not closed.isatty()


@pytest.fixture
def free_fd() -> Iterator[int]:
    """A descriptor number above every open one, closed again after the test."""
    fd = 200
    while True:
        try:
            os.fstat(fd)
        except OSError:
            break
        fd += 1
    yield fd
    with contextlib.suppress(OSError):
        os.close(fd)


def test_a_closed_descriptor_is_plugged_with_dev_null(free_fd: int) -> None:
    assert _plug(free_fd, os.O_WRONLY)
    assert os.path.samestat(os.fstat(free_fd), os.stat(os.devnull))
    assert not _plug(free_fd, os.O_WRONLY)  # open now: left as it is


def test_without_stderr_messages_go_to_dev_null(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", None)
    with guarded_stdio():
        assert sys.stderr is not None and sys.stderr.name == os.devnull
        _cli_streams.say("lost")
    assert sys.stderr.name == os.devnull  # kept after the command: there was nothing to put back
    sys.stderr.close()
