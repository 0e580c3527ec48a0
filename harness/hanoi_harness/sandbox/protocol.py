"""The move stream: how an algorithm's process sends its moves to a judge."""

from __future__ import annotations

import json
import os
import re
import struct
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

from hanoi_harness.sandbox.faults import Crash, Odd, OddChunk, shown, triple

MAGIC = b"HM"
HEADER = struct.Struct("<2sBIII")  #: Magic, kind, the writer's pid, the frame's number, the payload's length.

MAX_PAYLOAD = 1 << 26  #: 64 MiB: the largest payload a reader accepts (an M frame of 65536 int64 moves is 1.5 MiB).

BATCH = 1 << 16  #: Moves per M frame: large enough that a frame costs ~1% of its moves' time, small enough to stream.

MOVES, ARRAY, ODD_CHUNK, ODD_MOVE, START_FAILED, RAISED, DONE, FATAL = (ord(k) for k in "MACOSEDF")

Buffer = bytes | bytearray | memoryview  #: What a frame is written from.

Sink = Callable[[Sequence[Buffer]], None]  #: Writes every byte of the buffers given, in order.


class BrokenStream(Exception):
    """The stream is not what the writer sends: garbage, a second writer..."""


class ChunkFailed(Exception):
    """Looking at a chunk raised *error*: the algorithm's failure."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass(frozen=True)
class Frame:
    """One frame: its *kind* (one of the kind constants) and *payload*."""

    kind: int
    payload: bytes


class Writer:
    """Writes frames to *sink*, numbered from 0, stamped with the writer's pid."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.number = 0

    def frame(self, kind: int, *parts: Buffer) -> None:
        """Write one frame of *kind* whose payload is *parts* joined."""
        length = sum(len(part) for part in parts)
        header = HEADER.pack(MAGIC, kind, os.getpid(), self.number & 0xFFFFFFFF, length)
        self.number += 1
        self.sink([header, *parts])

    def moves(self, batch: list[Any]) -> bool:
        """Write *batch* as M frames, up to an odd move (an O frame); whether none."""
        packed = _pack(batch)
        if packed is not None:
            self.frame(MOVES, *packed)
            return True
        rows: list[tuple[int, int, int]] = []
        try:
            for move in batch:
                move = triple(move)
                if isinstance(move, Odd):
                    self._rows(rows)
                    self.frame(ODD_MOVE, _json({"shown": move.shown, "what": move.what}))
                    return False
                rows.append(move)
        except BaseException:  # the moves before what the algorithm raised (in its __iter__) were made
            self._rows(rows)
            raise
        self._rows(rows)
        return True

    def _rows(self, rows: list[tuple[int, int, int]]) -> None:
        packed = _pack(rows)
        if packed is not None:
            self.frame(MOVES, *packed)

    def array(self, chunk: Any) -> None:
        """Write a chunk: an integer (m, 3) array as A frames, else a C frame."""
        import numpy as np

        rows = as_rows(chunk)
        if isinstance(rows, OddChunk):
            self.frame(ODD_CHUNK, _json(vars(rows)))
            return
        rows = np.ascontiguousarray(rows)
        code = rows.dtype.str.encode()
        per_frame = max(1, MAX_PAYLOAD // (3 * rows.dtype.itemsize))
        for at in range(0, max(len(rows), 1), per_frame):
            body = rows[at : at + per_frame].reshape(-1).view(np.uint8)  # the rows' bytes, not a copy
            self.frame(ARRAY, bytes([len(code)]), code, body.data)

    def failure(self, kind: int, crash: Crash) -> None:
        """Write an S or E frame (per *kind*) for *crash*."""
        self.frame(kind, _json(vars(crash)))

    def fatal(self, reason: str) -> None:
        self.frame(FATAL, _json({"reason": reason}))

    def done(self) -> None:
        self.frame(DONE)


def as_rows(chunk: Any) -> Any:
    """*chunk* as an integer (m, 3) array, or the :class:`OddChunk` it is."""
    import numpy as np

    try:
        arr = np.asarray(chunk)
    except (TypeError, ValueError):  # ragged rows, say: what the checker makes of it too
        arr = np.asarray(None)
    except Exception as exc:
        raise ChunkFailed(exc) from exc
    if arr.ndim == 2 and arr.shape[1:] == (3,) and arr.dtype.kind in "iu":
        return arr
    try:
        text = repr(chunk)[:80]
    except Exception:
        text = shown(chunk)
    return OddChunk(text, f"{arr.dtype} of shape {'x'.join(map(str, arr.shape)) or 'scalar'}")


def _json(fields: dict[str, str]) -> bytes:
    return json.dumps(fields).encode()


def _pack(batch: list[Any]) -> tuple[bytes, bytes] | None:
    """The payload of an M frame for *batch*, or None.

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
    """Frames read through *read*: magic, writer, number and length checked."""

    def __init__(self, read: Callable[[int], bytes], pid: int | None = None) -> None:
        self.read = read
        self.pid = pid
        self.number = 0

    def next(self) -> Frame | None:
        """The next frame; None at the end, or at a frame cut short."""
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


def _fields(frame: Frame, *names: str) -> list[str]:
    """The text fields *names* of a JSON frame, in order."""
    try:
        value = json.loads(frame.payload)
    except (UnicodeDecodeError, ValueError, RecursionError):
        value = None
    if type(value) is not dict or set(value) != set(names) or not all(type(value[name]) is str for name in names):
        raise BrokenStream(f"a frame of kind {chr(frame.kind)!r} that is not its fields ({', '.join(names)})")
    return [value[name] for name in names]


def odd_move(frame: Frame) -> Odd:
    """The odd move of an O frame."""
    return Odd(*_fields(frame, "shown", "what"))


def odd_chunk(frame: Frame) -> OddChunk:
    """The odd chunk of a C frame."""
    return OddChunk(*_fields(frame, "shown", "detail"))


def failure(frame: Frame) -> Crash:
    """The crash of an S or E frame."""
    return Crash(*_fields(frame, "name", "text", "location", "traceback"))


def fatal_reason(frame: Frame) -> str:
    """The reason of an F frame."""
    return _fields(frame, "reason")[0]
