"""Test every command's guards of the standard streams, in this process.

The tests say what a failing write or a closed stream turns into.  Real processes with real streams are
in tests/cli/test_streams.py.
"""

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
    """A text stream whose writes and flushes fail with *error*.

    Its ``buffer`` fails the same way.
    """

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


# --- what algorithm code prints ----------------------------------------------------------------------------


@contextlib.contextmanager
def file_streams(tmp_path: Any) -> Iterator[tuple[Any, Any]]:
    """Put sys.stdout and sys.stderr on files of their own.

    The files' descriptors are other than 1 and 2, and stderr is line-buffered.
    """
    saved = sys.stdout, sys.stderr
    out, err = open(tmp_path / "out", "w+"), open(tmp_path / "err", "w+", buffering=1)  # noqa: SIM115
    sys.stdout, sys.stderr = out, err
    try:
        yield out, err
    finally:
        sys.stdout, sys.stderr = saved
        out.close()
        err.close()


def test_algorithm_output_sends_every_write_to_stderr_and_the_commands_to_stdout(tmp_path: Any) -> None:
    with file_streams(tmp_path) as (out, err):
        out_fd = out.fileno()
        with _cli_streams.algorithm_output():
            print("printed")
            sys.stdout.buffer.write(b"bytes ")
            os.write(out_fd, b"to the descriptor ")
            sys.stdout.close()  # harmless
            print("after close")
            _cli_streams.write_lines(["1 0 2\n"])
            with _cli_streams.algorithm_output():  # nested: the same
                _cli_streams.write_binary([b"\x01\x00\x02"])
            assert sys.stdout.writable() and not sys.stdout.closed
        assert sys.stdout is out and os.path.sameopenfile(out_fd, out.fileno())
        err.flush()
        assert (tmp_path / "out").read_bytes() == b"1 0 2\n\x01\x00\x02"
        assert (tmp_path / "err").read_text() == "printed\nbytes to the descriptor after close\n"


def test_algorithm_output_puts_everything_back_when_the_block_raises(tmp_path: Any) -> None:
    with file_streams(tmp_path) as (out, _):
        before = os.fstat(out.fileno())
        with pytest.raises(ZeroDivisionError), _cli_streams.algorithm_output():
            raise ZeroDivisionError
        assert sys.stdout is out and os.fstat(out.fileno()).st_ino == before.st_ino
        assert _cli_streams.command_stdout() is out


def test_algorithm_output_without_descriptors_swaps_sys_stdout_only(capsys: pytest.CaptureFixture[str]) -> None:
    with _cli_streams.algorithm_output():
        print("the algorithm's")
        _cli_streams.write_lines(["the command's\n"])
    assert capsys.readouterr() == ("the command's\n", "the algorithm's\n")


def test_a_reader_gone_while_algorithm_output_is_on_stays_gone(tmp_path: Any) -> None:
    read, write = os.pipe()
    stdout = _GuardedText(open(write, "w"), _Guard(write))  # noqa: SIM115
    saved = sys.stdout
    sys.stdout = stdout  # type: ignore[assignment]
    try:
        os.close(read)
        with _cli_streams.algorithm_output():
            _cli_streams.write_lines(["x\n" * 70000])
            assert reader_gone()
        assert reader_gone()
    finally:
        sys.stdout = saved
