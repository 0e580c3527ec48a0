"""The move stream: how an algorithm's process sends its moves to the process that judges them.

The algorithm runs in a process of its own (:mod:`hanoi_harness.sandbox.child`) that only sends what
its generator yields; the checker runs in the judging process (:mod:`hanoi_harness.sandbox.judge`),
which never imports the algorithm's code.  Nothing on this stream can be a verdict: the worst
an algorithm can send is moves, and moves are judged.  The stream is binary frames::

    magic b"HM" | kind (1 byte) | writer's pid (u32) | frame number (u32) | length (u32) | payload

Kinds:

``M`` moves
    A batch of plain moves (tuples of three ``int``) as an (m, 3) array: one byte ``B``
    (uint8) or ``q`` (int64, native order), then the rows.  Up to :data:`BATCH` moves.
``A`` array
    One array of a record that yields arrays (``chunks=True``): the length and text of its
    dtype (integer kinds only), then its rows.
``C`` odd chunk
    What such a record yielded that is not an integer (m, 3) array: its repr (80 characters),
    dtype and shape, all the checker reports of it.
``O`` odd move
    One move that is not a plain tuple, encoded by :func:`hanoi_harness.sandbox.oddvalues.encode_value`:
    exactly when it is plain data, by what the checker asks of it otherwise.
``S`` / ``E``
    Calling the algorithm failed / its generator raised: the exception's type name and message.
``D`` done
    This request is answered.
``F`` fatal
    The process cannot serve requests (the algorithm is unknown, say): the reason.

The reader checks the magic, that every frame comes from the process it started and that
frames are numbered 0, 1, 2, ...: a second writer (a fork inside a plugin) or garbage is
:class:`BrokenStream`, a verdict against the algorithm.
"""

from __future__ import annotations

import os
import re
import struct
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from hanoi_harness.sandbox.oddvalues import (
    CHUNK_REPR,
    Malformed,
    OddChunk,
    decode_value,
    describe_exception,
    encode_opaque,
    encode_value,
    exception,
    safe_repr,
)

MAGIC = b"HM"
HEADER = struct.Struct("<2sBIII")
"""Magic, kind, the writer's pid, the frame's number, the payload's length."""

MAX_PAYLOAD = 1 << 26
"""64 MiB: the largest payload a reader accepts (an M frame of 65536 int64 moves is 1.5 MiB)."""

BATCH = 1 << 16
"""Moves per M frame: large enough that a frame costs ~1% of its moves' time, small enough to stream."""

MOVES, ARRAY, ODD_CHUNK, ODD_MOVE, START_FAILED, RAISED, DONE, FATAL = (ord(k) for k in "MACOSEDF")

Buffer = bytes | bytearray | memoryview
"""What a frame is written from."""

Sink = Callable[[Sequence[Buffer]], None]
"""Writes every byte of the buffers given, in order."""


class BrokenStream(Exception):
    """The stream is not what the writer would send: garbage, a second writer, a frame out of place."""


class ChunkFailed(Exception):
    """Looking at a chunk raised *error* (its ``__array__``, say): the algorithm's failure, not the writer's."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


# --- frames -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """One frame: its *kind* (one of the kind constants) and *payload*."""

    kind: int
    payload: bytes


class Writer:
    """Writes frames to *sink*, numbered from 0, stamped with the pid of the process writing each."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.number = 0

    def frame(self, kind: int, *parts: Buffer) -> None:
        """Write one frame of *kind* whose payload is *parts* joined."""
        length = sum(len(part) for part in parts)
        header = HEADER.pack(MAGIC, kind, os.getpid(), self.number & 0xFFFFFFFF, length)
        self.number += 1
        self.sink([header, *parts])

    def moves(self, batch: list[Any]) -> None:
        """Write the moves of *batch* (as yielded): M frames for runs of plain ones, an O frame for each other."""
        packed = _pack(batch)
        if packed is not None:
            self.frame(MOVES, *packed)
            return
        run: list[Any] = []
        for move in batch:
            if _plain(move):
                run.append(move)
                continue
            if run:
                self.frame(MOVES, *(_pack(run) or ()))
                run = []
            self.odd_move(move)
        if run:
            self.frame(MOVES, *(_pack(run) or ()))

    def odd_move(self, move: Any) -> None:
        out = bytearray()
        encode_value(move, out)
        if len(out) > MAX_PAYLOAD:  # a move of tens of MB: sent by the start of its repr
            out = bytearray()
            encode_opaque(safe_repr(move)[: MAX_PAYLOAD // 8], out)
        self.frame(ODD_MOVE, out)

    def array(self, chunk: Any) -> None:
        """Write one chunk of a ``chunks=True`` record: A frames for an integer (m, 3) array, else a C frame."""
        import numpy as np

        try:
            arr = np.asarray(chunk)
        except (TypeError, ValueError):  # ragged rows, say: what the checker makes of it too
            arr = np.asarray(None)
        except Exception as exc:
            raise ChunkFailed(exc) from exc
        if arr.ndim != 2 or arr.shape[1:] != (3,) or arr.dtype.kind not in "iu":
            shape = tuple(int(size) for size in arr.shape)
            out = bytearray()
            encode_value((safe_repr(chunk)[:CHUNK_REPR], arr.dtype.str, list(shape)), out)
            self.frame(ODD_CHUNK, out)
            return
        rows = np.ascontiguousarray(arr)
        code = rows.dtype.str.encode()
        per_frame = max(1, MAX_PAYLOAD // (3 * rows.dtype.itemsize))
        for at in range(0, max(len(rows), 1), per_frame):
            body = rows[at : at + per_frame].reshape(-1).view(np.uint8)  # the rows' bytes, not a copy
            self.frame(ARRAY, bytes([len(code)]), code, body.data)

    def failure(self, kind: int, exc: BaseException) -> None:
        """Write an S or E frame (per *kind*) for *exc*."""
        out = bytearray()
        encode_value(describe_exception(exc), out)
        self.frame(kind, out)

    def fatal(self, reason: str) -> None:
        out = bytearray()
        encode_value(reason, out)
        self.frame(FATAL, out)

    def done(self) -> None:
        self.frame(DONE)


def _plain(move: Any) -> bool:
    """A tuple of three ints that fit in int64: what an M frame carries."""
    return (
        type(move) is tuple
        and len(move) == 3
        and all(type(value) is int and -(1 << 63) <= value < 1 << 63 for value in move)
    )


def _pack(batch: list[Any]) -> tuple[bytes, bytes] | None:
    """The payload of an M frame for *batch*, or None when a move in it is not plain.

    Every test runs in C over the whole batch (about 0.25 us a move): tuples only, of length 3,
    of exact ints (a bool or a numpy integer is an odd move: the checker treats them apart).

    >>> _pack([(1, 0, 2), (2, 0, 1)])
    (b'B', b'\\x01\\x00\\x02\\x02\\x00\\x01')
    >>> _pack([(1, 0, True)]) is None, _pack([(1, 0)]) is None, _pack([(2**64, 0, 1)]) is None
    (True, True, True)
    """
    if not batch or set(map(type, batch)) != {tuple} or set(map(len, batch)) != {3}:
        return None
    flat = list(chain.from_iterable(batch))
    if set(map(type, flat)) != {int}:
        return None
    try:
        return b"B", bytes(flat)
    except ValueError:
        pass
    try:
        return b"q", array("q", flat).tobytes()
    except OverflowError:
        return None


class Reader:
    """Frames read through *read*, checked: the magic, the writer (*pid*, when known), the numbers, the lengths.

    *read(size)* returns *size* bytes, or fewer at the end of the stream.
    """

    def __init__(self, read: Callable[[int], bytes], pid: int | None = None) -> None:
        self.read = read
        self.pid = pid
        self.number = 0

    def next(self) -> Frame | None:
        """The next frame; None at the end of the stream (a frame cut short by the writer's end counts as the end)."""
        header = self.read(HEADER.size)
        if len(header) < HEADER.size:
            return None
        magic, kind, pid, number, length = HEADER.unpack(header)
        if magic != MAGIC:
            raise BrokenStream(f"bytes that are not a frame ({bytes(header[:8])!r}...)")
        if self.pid is not None and pid != self.pid:
            raise BrokenStream(f"a frame from process {pid}, not {self.pid}: did the algorithm fork?")
        if number != self.number & 0xFFFFFFFF:
            raise BrokenStream(f"frame {number} where frame {self.number} was due: a second writer?")
        if length > MAX_PAYLOAD:
            raise BrokenStream(f"a frame of {length} bytes (at most {MAX_PAYLOAD})")
        payload = self.read(length)
        if len(payload) < length:
            return None
        self.number += 1
        return Frame(kind, payload)


_ARRAY_DTYPE = re.compile(r"[<>|=][iu][1248]")


def _decoded(payload: bytes) -> Any:
    try:
        return decode_value(payload)
    except Malformed as exc:
        raise BrokenStream(str(exc)) from None


def odd_move(frame: Frame) -> Any:
    """The move of an O frame, rebuilt."""
    return _decoded(frame.payload)


def rows(frame: Frame) -> Any:
    """The (m, 3) array of an M or A frame (read-only, no copy)."""
    import numpy as np

    data = memoryview(frame.payload)
    dtype: Any
    if frame.kind == MOVES:
        if not data:
            raise BrokenStream("an empty frame of moves")
        dtype = {b"B": np.dtype(np.uint8), b"q": np.dtype(np.int64)}.get(bytes(data[:1]))
        body = data[1:]
    else:
        size = data[0] if data else 0
        code = bytes(data[1 : 1 + size]).decode("ascii", "replace")
        dtype = np.dtype(code) if _ARRAY_DTYPE.fullmatch(code) else None
        body = data[1 + size :]
    if dtype is None or len(body) % (3 * dtype.itemsize):
        raise BrokenStream("a frame of moves that is not whole rows of a known integer type")
    return np.frombuffer(body, dtype=dtype).reshape(-1, 3)


def odd_chunk(frame: Frame) -> OddChunk:
    """The stand-in for the odd chunk of a C frame."""
    value = _decoded(frame.payload)
    if (
        type(value) is not tuple
        or len(value) != 3
        or type(value[0]) is not str
        or type(value[1]) is not str
        or type(value[2]) is not list
        or not all(type(size) is int for size in value[2])
    ):
        raise BrokenStream("an odd chunk is not a repr, a dtype and a shape")
    try:
        return OddChunk(value[0], value[1], tuple(value[2]))
    except Malformed as exc:
        raise BrokenStream(str(exc)) from None


def failure(frame: Frame) -> Exception:
    """The exception of an S or E frame, rebuilt with its type's name and its text."""
    value = _decoded(frame.payload)
    if type(value) is not tuple or len(value) != 2 or not all(type(part) is str for part in value):
        raise BrokenStream("an error frame is not a type name and a text")
    return exception(value[0], value[1])


def fatal_reason(frame: Frame) -> str:
    """The reason of an F frame."""
    value = _decoded(frame.payload)
    if type(value) is not str:
        raise BrokenStream("a fatal frame without its reason")
    return value
