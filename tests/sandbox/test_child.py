"""Test an algorithm's process and the judging side's handle on it.

In this process, through pipes: the producer's serving of chunks, its control channel and its writes.
Then :class:`Producer`'s endings with a real process: a plugin that does not load, a process that died,
one we stopped.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from hanoi_harness import process
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.sandbox import child, protocol, stream
from hanoi_harness.sandbox.child import _Control, _sink
from hanoi_harness.sandbox.stream import Producer, StreamEnded
from tests.helpers import reference


class Skips:
    """A control channel that asks to skip request *rid* after *after* asks."""

    def __init__(self, after: int = 10**9) -> None:
        self.after = after

    def skipped(self, rid: int) -> bool:
        self.after -= 1
        return self.after < 0


def written(write: Any) -> bytes:
    """Return the bytes *write* writes, called with a writer.

    They are as this process would send them.
    """
    out = bytearray()
    write(protocol.Writer(lambda parts: out.extend(b"".join(parts))))
    return bytes(out)


def frames_written(write: Any) -> list[protocol.Frame]:
    """The frames *write* (called with a writer) writes, read back."""
    return list(iter(protocol.Reader(io.BytesIO(written(write)).read).next, None))


def served(solve: Any, n: int, control: Any = None, **request: Any) -> list[protocol.Frame]:
    """Return the frames a chunked record with *solve* sends for one request.

    The request is ``solve(n)``, or as *request* says.
    """
    algorithm = Algorithm(name="under_test", solve=solve, summary="under test", chunks=True)
    ask = {"id": 1, "n": n, "first": 0, "count": None, **request}
    return frames_written(lambda writer: child.serve(algorithm, ask, writer, control or Skips()))


def rows_of(frames: list[protocol.Frame]) -> list[list[int]]:
    return [row.tolist() for frame in frames if frame.kind == protocol.ARRAY for row in protocol.rows(frame)]


def chunks_of(moves: list[tuple[int, int, int]], size: int) -> Any:
    return lambda n: (np.array(moves[i : i + size], dtype=np.uint8) for i in range(0, len(moves), size))


# --- serving a chunked record ----------------------------------------------------------------------------


def test_a_count_cuts_the_chunks_at_that_many_rows() -> None:
    moves = list(reference(4))
    frames = served(chunks_of(moves, 4), 4, count=6)
    assert rows_of(frames) == [list(move) for move in moves[:6]]
    assert [frame.kind for frame in frames][-1] == protocol.DONE


def test_a_chunk_generator_that_raises_ends_with_its_error() -> None:
    def solve(n: int) -> Iterator[Any]:
        yield np.array([[1, 0, 2]], dtype=np.uint8)
        raise ArithmeticError("at the second chunk")

    frames = served(solve, 1)
    assert [frame.kind for frame in frames] == [protocol.ARRAY, protocol.RAISED, protocol.DONE]
    crash = protocol.failure(frames[1])
    assert (crash.name, crash.text) == ("ArithmeticError", "at the second chunk")
    assert (
        crash.location
        == f"{os.path.join('tests', 'sandbox', 'test_child.py')}:{solve.__code__.co_firstlineno + 2} in solve"
    )


def test_a_chunk_that_fails_to_become_an_array_is_the_algorithms_error() -> None:
    class Unreadable:
        def __array__(self, *args: Any, **kwargs: Any) -> Any:
            raise LookupError("no rows here")

    frames = served(lambda n: iter([Unreadable()]), 1)
    assert [frame.kind for frame in frames] == [protocol.RAISED, protocol.DONE]
    assert protocol.failure(frames[0]).reason.startswith("LookupError: no rows here")


def test_a_skipped_request_stops_after_the_chunk_in_hand() -> None:
    moves = list(reference(5))
    frames = served(chunks_of(moves, 8), 5, control=Skips(after=1))
    assert rows_of(frames) == [list(move) for move in moves[:16]]


# --- the control channel and the writes ------------------------------------------------------------------


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read, write = os.pipe()
    yield read, write
    for fd in (read, write):
        with contextlib.suppress(OSError):  # closed by the test already
            os.close(fd)


def test_requests_come_one_a_line_and_stale_skips_are_dropped(pipe: tuple[int, int]) -> None:
    read, write = pipe
    os.write(write, b'{"id": 1}\nskip 1\n{"id": 2}\n')
    os.close(write)
    assert list(_Control(read).requests()) == [{"id": 1}, {"id": 2}]


def test_a_skip_is_seen_for_its_request_only_and_the_parent_gone_is_a_skip(pipe: tuple[int, int]) -> None:
    read, write = pipe
    control = _Control(read)
    assert not control.skipped(1)
    os.write(write, b"skip 2\n")
    assert not control.skipped(1)
    assert control.skipped(2)
    assert not control.skipped(2)  # taken: a skip counts once
    os.close(write)
    assert control.skipped(3)


def test_the_sink_writes_every_byte_through_a_full_pipe(pipe: tuple[int, int]) -> None:
    read, write = pipe
    data = os.urandom(3 << 20)  # 48 times what a pipe holds: written as the reader drains it
    got = bytearray()

    def drain() -> None:
        while block := os.read(read, 1 << 16):
            got.extend(block)

    reader = threading.Thread(target=drain)
    reader.start()
    _sink(write)([data[:100], memoryview(data)[100:]])
    os.close(write)
    reader.join(timeout=60)
    assert bytes(got) == data


def test_the_sink_goes_on_after_a_partial_write(pipe: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    # A signal handler can cut a pipe write short.  Here every call writes 7 bytes at most, so each
    # ends inside a buffer or just past one, and the rest must follow in order.
    read, write = pipe
    calls: list[int] = []

    def short_writev(fd: int, buffers: Any) -> int:
        head = b"".join(bytes(buffer) for buffer in buffers)[:7]
        calls.append(len(head))
        return os.write(fd, head)

    monkeypatch.setattr(os, "writev", short_writev)
    parts: list[protocol.Buffer] = [b"0123456789", b"", b"abc", memoryview(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")]
    _sink(write)(parts)
    os.close(write)
    assert os.read(read, 1 << 10) == b"".join(bytes(part) for part in parts)
    assert calls == [7, 7, 7, 7, 7, 4]


def test_the_sink_ends_the_process_quietly_once_the_reader_has_gone(
    pipe: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    read, write = pipe
    os.close(read)
    exits: list[int] = []

    class Exited(Exception):
        pass

    def exit_(status: int) -> None:
        exits.append(status)
        raise Exited

    monkeypatch.setattr(os, "_exit", exit_)
    with pytest.raises(Exited):
        _sink(write)([b"lost"])
    assert exits == [0]


# --- Producer: how a stream ends -----------------------------------------------------------------------------


@pytest.fixture
def producer() -> Iterator[Producer]:
    made = Producer()
    yield made
    made.close()


def test_a_plugin_that_does_not_load_is_a_crash_naming_why(tmp_path: Any) -> None:
    made = Producer([f"{tmp_path / 'missing.py'}:solve"])
    try:
        made.ask("solve", 3)
        with pytest.raises(StreamEnded) as ended:
            made.next_frame()
        assert ended.value.status == "crashed" and "missing.py" in ended.value.reason
        assert not made.alive()
    finally:
        made.close()


def test_a_skip_reads_to_the_end_of_the_request_and_the_process_serves_again(producer: Producer) -> None:
    producer.ask("recursive", 20)
    assert producer.next_frame().kind == protocol.MOVES
    assert producer.skip()
    producer.ask("recursive", 2)
    kinds = [producer.next_frame().kind for _ in range(2)]
    assert kinds == [protocol.MOVES, protocol.DONE]


def test_a_skip_when_the_process_has_died_says_it_cannot_serve(producer: Producer) -> None:
    producer.ask("recursive", 30)  # a billion moves: it is still at work when killed
    producer.next_frame()
    os.kill(producer.proc.pid, signal.SIGKILL)
    producer.proc.wait()
    assert not producer.skip()
    assert not producer.alive()


def test_a_stream_we_stopped_ends_so(producer: Producer) -> None:
    producer.ask("recursive", 3)
    code = producer.stop()
    with pytest.raises(StreamEnded, match=r"^the process was stopped$"):
        producer.next_frame()
    assert producer.stop() == code and not producer.alive()  # a second stop is a no-op


def test_the_last_words_of_a_closed_producer_are_empty(producer: Producer) -> None:
    producer.close()
    assert producer.last_words() == ""


def test_a_process_that_cannot_start_leaves_no_descriptor_open(monkeypatch: pytest.MonkeyPatch) -> None:
    def cannot(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no more processes")

    monkeypatch.setattr(process, "start", cannot)
    before = sorted(os.listdir("/proc/self/fd"))
    with pytest.raises(OSError, match="no more processes"):
        stream.Producer()
    assert sorted(os.listdir("/proc/self/fd")) == before


# --- frames the judging side reads apart ------------------------------------------------------------------


def test_a_fatal_frame_carries_its_reason_and_one_without_is_broken() -> None:
    (frame,) = frames_written(lambda writer: writer.fatal("no such plugin: x.py"))
    assert frame.kind == protocol.FATAL and protocol.fatal_reason(frame) == "no such plugin: x.py"
    with pytest.raises(protocol.BrokenStream, match=r"a frame of kind 'F' that is not its fields \(reason\)"):
        protocol.fatal_reason(protocol.Frame(protocol.FATAL, b"N"))


def test_an_odd_move_of_any_size_is_sent_by_the_start_of_its_repr() -> None:
    move = (1, 0, "x" * 10**7)
    first, odd = frames_written(lambda writer: writer.moves([(1, 0, 2), move, (2, 0, 1)]))
    assert (first.kind, odd.kind) == (protocol.MOVES, protocol.ODD_MOVE) and len(odd.payload) < 200
    sent = protocol.odd_move(odd)
    assert (
        sent.shown.startswith("(1, 0, 'xxx") and len(sent.shown) == 80 and sent.what == "a tuple holding int, int, str"
    )


def test_a_read_gives_up_when_interrupted_or_past_its_deadline(producer: Producer) -> None:
    producer.ask("recursive", 30)
    cancel = threading.Event()
    cancel.set()
    producer.bound(None, cancel)
    with pytest.raises(StreamEnded, match=r"^interrupted$") as ended:
        producer.next_frame()
    assert ended.value.status == "crashed" and not producer.alive()
    late = Producer()
    try:
        late.ask("recursive", 30)
        late.bound(time.monotonic() - 1)
        with pytest.raises(StreamEnded, match=r"^the process was killed$") as ended:
            late.next_frame()
        assert ended.value.status == "timed_out"
    finally:
        late.close()


def test_garbage_or_a_fatal_frame_without_a_reason_is_a_broken_stream(producer: Producer) -> None:
    for data, why in (
        (b"not a frame at all", "bytes that are not a frame"),
        (written(lambda writer: writer.frame(protocol.FATAL, b"N")), "a frame of kind 'F' that is not its fields"),
    ):
        producer.reader = protocol.Reader(io.BytesIO(data).read)
        with pytest.raises(StreamEnded, match=f"^the process broke the move stream: {why}") as ended:
            producer.next_frame()
        assert ended.value.status == "crashed"
