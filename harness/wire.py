"""The move stream: how an algorithm's process sends its moves to the process that judges them.

The algorithm runs in a process of its own (:mod:`hanoi_harness._producer`) that only sends what
its generator yields; the checker runs in the judging process (:mod:`hanoi_harness.judge`),
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
    One move that is not a plain tuple, encoded by :func:`encode_value`: ints of any size,
    floats, bools, None, strings, bytes, tuples, lists, numpy scalars exactly; any other object
    by its repr and what unpacking it into three gave.
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

import contextlib
import numbers
import os
import re
import struct
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

MAGIC = b"HM"
HEADER = struct.Struct("<2sBIII")
"""Magic, kind, the writer's pid, the frame's number, the payload's length."""

MAX_PAYLOAD = 1 << 26
"""64 MiB: the largest payload a reader accepts (an M frame of 65536 int64 moves is 1.5 MiB)."""

BATCH = 1 << 16
"""Moves per M frame: large enough that a frame costs ~1% of its moves' time, small enough to stream."""

MAX_DEPTH = 32
"""Nesting of an odd move's values beyond which it is sent by its repr."""

CHUNK_REPR = 80
"""Characters of an odd chunk's repr that the checker reports (``repr(chunk)[:80]``)."""

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


# --- values of odd moves --------------------------------------------------------------------------


class Opaque:
    """An object the judge knows only by its repr *text* and str *shown*: not iterable, equal only to itself."""

    __slots__ = ("shown", "text")

    def __init__(self, text: str, shown: str | None = None) -> None:
        self.text = text
        self.shown = text if shown is None else shown

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.shown


class Integer(int):
    """An integer of a type other than int (an IntEnum member, say): its value, shown by the original's repr."""

    text: str
    shown: str

    def __new__(cls, value: int, text: str, shown: str) -> Integer:
        self = super().__new__(cls, value)
        self.text, self.shown = text, shown
        return self

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.shown


class Unpacked(Opaque):
    """An object that unpacked into three *items*: iterating it gives them again."""

    __slots__ = ("items",)

    def __init__(self, text: str, shown: str, items: tuple[Any, Any, Any]) -> None:
        super().__init__(text, shown)
        self.items = items

    def __iter__(self) -> Any:
        return iter(self.items)


class Unpacking(Opaque):
    """An object whose unpacking raised *error* (not a TypeError or ValueError): iterating it raises it."""

    __slots__ = ("error",)

    def __init__(self, text: str, shown: str, error: Exception) -> None:
        super().__init__(text, shown)
        self.error = error

    def __iter__(self) -> Any:
        raise self.error


_EXCEPTIONS: dict[str, type[Exception]] = {}


def exception(name: str, message: str) -> Exception:
    """An exception whose type is named *name* and whose text is *message*: what the checker reports of the original.

    >>> e = exception("ZeroDivisionError", "division by zero")
    >>> f"{type(e).__name__}: {e}"
    'ZeroDivisionError: division by zero'
    """
    if not name.isidentifier() or len(name) > 200:
        name = "Exception"
    if name not in _EXCEPTIONS:
        _EXCEPTIONS[name] = type(name, (Exception,), {"__module__": "builtins"})
    return _EXCEPTIONS[name](message)


def describe_exception(exc: BaseException) -> tuple[str, str]:
    """The type name and text of *exc*, as the checker shows them (``Name: text``); never raises."""
    try:
        text = str(exc)
    except Exception as inner:  # a hostile __str__
        text = f"<str() of the exception raised {type(inner).__name__}>"
    return type(exc).__name__, text


def safe_repr(value: Any, show: Callable[[Any], str] = repr) -> str:
    """repr(*value*) (or *show* of it), or a description of it when that raises.

    >>> class Bad:
    ...     def __repr__(self): raise RuntimeError("no")
    >>> safe_repr(Bad())
    '<Bad object: repr() raised RuntimeError: no>'
    """
    try:
        return show(value)
    except Exception as exc:
        name, text = describe_exception(exc)
        return f"<{type(value).__name__} object: {show.__name__}() raised {name}: {text}>"


_NUMPY_DTYPE = re.compile(r"[<>|=][biufc]\d{1,2}")
_ARRAY_DTYPE = re.compile(r"[<>|=][iu][1248]")
_ANY_DTYPE = re.compile(r"[<>|=]?[A-Za-z][A-Za-z0-9\[\]]{0,30}")


def encode_value(value: Any, out: bytearray, depth: int = 0) -> None:
    """Append *value* to *out* in the tagged encoding :func:`decode_value` reads.

    >>> out = bytearray()
    >>> encode_value((1, -2**70, None, "x", [True, 1.5]), out)
    >>> decode_value(bytes(out))
    (1, -1180591620717411303424, None, 'x', [True, 1.5])
    """
    kind = type(value)
    if value is None or kind is bool:
        out += b"N" if value is None else (b"T" if value else b"F")
    elif kind is int:
        size = (value.bit_length() + 8) // 8
        _text(out, b"i", value.to_bytes(size, "little", signed=True))
    elif kind is float:
        out += b"f" + struct.pack("<d", value)
    elif kind is str:
        _text(out, b"s", value.encode("utf-8", "surrogatepass"))
    elif kind is bytes:
        _text(out, b"y", value)
    elif (kind is tuple or kind is list) and depth < MAX_DEPTH:
        out += (b"t" if kind is tuple else b"l") + struct.pack("<I", len(value))
        for item in value:
            encode_value(item, out, depth + 1)
    elif _is_numpy_scalar(value):
        _text(out, b"n", value.dtype.str.encode())
        _text(out, b"", value.tobytes())
    else:
        _encode_object(value, out, depth)


def _is_numpy_scalar(value: Any) -> bool:
    kind = type(value)
    return kind.__module__ == "numpy" and hasattr(value, "dtype") and hasattr(value, "tobytes") and value.ndim == 0


def _encode_object(value: Any, out: bytearray, depth: int) -> None:
    """Any other object: what the checker can ask of it, and its repr.

    An integer of another type (an IntEnum, a big-number library's) is its value and repr;
    anything else is what ``disk, src, dst = value`` gave (three values, a TypeError or
    ValueError, or another error) and its repr.
    """
    texts = (safe_repr(value), safe_repr(value, str))
    if isinstance(value, numbers.Integral):
        with contextlib.suppress(Exception):
            number = int(value)
            _texts(out, b"I", texts)
            encode_value(number, out, depth + 1)
            return
    if depth >= MAX_DEPTH:
        _texts(out, b"o", texts)
        return
    try:
        items = _unpack(value)
    except (TypeError, ValueError):
        _texts(out, b"o", texts)
        return
    except Exception as exc:
        _texts(out, b"x", texts)
        encode_value(describe_exception(exc), out, depth + 1)
        return
    _texts(out, b"u", texts)
    encode_value(items, out, depth + 1)


def _unpack(value: Any) -> tuple[Any, Any, Any]:
    disk, src, dst = value
    return (disk, src, dst)


def _text(out: bytearray, tag: bytes, data: bytes) -> None:
    out += tag + struct.pack("<I", len(data)) + data


def _texts(out: bytearray, tag: bytes, texts: tuple[str, str]) -> None:
    """The tag, then an object's repr and str."""
    _text(out, tag, texts[0].encode("utf-8", "surrogatepass"))
    _text(out, b"", texts[1].encode("utf-8", "surrogatepass"))


def decode_value(data: bytes) -> Any:
    """The value :func:`encode_value` wrote into *data*; :class:`BrokenStream` for anything else."""
    reader = _Cursor(data)
    value = reader.value(0)
    if reader.at != len(data):
        raise BrokenStream("an odd move has bytes after its value")
    return value


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, size: int) -> bytes:
        end = self.at + size
        if end > len(self.data):
            raise BrokenStream("an odd move is cut short")
        chunk = self.data[self.at : end]
        self.at = end
        return chunk

    def sized(self) -> bytes:
        (size,) = struct.unpack("<I", self.take(4))
        return self.take(size)

    def text(self) -> str:
        return self.sized().decode("utf-8", "surrogatepass")

    def value(self, depth: int) -> Any:
        if depth > MAX_DEPTH + 2:
            raise BrokenStream("an odd move is nested too deep")
        tag = self.take(1)
        simple = {b"N": None, b"T": True, b"F": False}
        if tag in simple:
            return simple[tag]
        try:
            return self._tagged(tag, depth)
        except (UnicodeDecodeError, struct.error, ValueError, TypeError) as exc:
            raise BrokenStream(f"an odd move does not decode: {type(exc).__name__}") from None

    def _tagged(self, tag: bytes, depth: int) -> Any:
        if tag == b"i":
            return int.from_bytes(self.sized(), "little", signed=True)
        if tag == b"f":
            return struct.unpack("<d", self.take(8))[0]
        if tag == b"s":
            return self.text()
        if tag == b"y":
            return self.sized()
        if tag in (b"t", b"l"):
            (count,) = struct.unpack("<I", self.take(4))
            if count > len(self.data) - self.at:  # every item takes a byte at least
                raise BrokenStream("an odd move claims more items than it holds")
            items = [self.value(depth + 1) for _ in range(count)]
            return tuple(items) if tag == b"t" else items
        if tag == b"n":
            return _numpy_scalar(self.sized().decode("ascii"), self.sized())
        if tag == b"o":
            return Opaque(self.text(), self.text())
        if tag == b"I":
            text, shown, number = self.text(), self.text(), self.value(depth + 1)
            if type(number) is not int:
                raise BrokenStream("an integer of another type without its value")
            return Integer(number, text, shown)
        if tag == b"u":
            text, shown, items = self.text(), self.text(), self.value(depth + 1)
            if type(items) is not tuple or len(items) != 3:
                raise BrokenStream("an unpacked move is not three items")
            return Unpacked(text, shown, items)
        if tag == b"x":
            text, shown, error = self.text(), self.text(), self.value(depth + 1)
            if type(error) is not tuple or len(error) != 2 or not all(type(part) is str for part in error):
                raise BrokenStream("an unpacking error is not a name and a text")
            return Unpacking(text, shown, exception(*error))
        raise BrokenStream(f"an odd move has the unknown tag {tag!r}")


def _numpy_scalar(dtype: str, raw: bytes) -> Any:
    import numpy as np

    if not _NUMPY_DTYPE.fullmatch(dtype):
        raise BrokenStream(f"an odd move has the numpy type {dtype!r}")
    kind = np.dtype(dtype)
    if kind.itemsize != len(raw):
        raise BrokenStream("a numpy scalar's bytes do not fit its type")
    return np.frombuffer(raw, dtype=kind)[0]


# --- odd chunks -----------------------------------------------------------------------------------


class OddChunk:
    """What a ``chunks=True`` record yielded that is not an integer (m, 3) array, as the checker sees it.

    ``np.asarray`` of it has the original's dtype and shape (a view of one element, so no memory
    for its size) and its repr is the original's, cut to :data:`CHUNK_REPR` characters.
    """

    def __init__(self, text: str, dtype: str, shape: tuple[int, ...]) -> None:
        import numpy as np

        self.text = text
        try:
            if not _ANY_DTYPE.fullmatch(dtype) or len(shape) > 32 or min(shape, default=0) < 0:
                raise ValueError(dtype)
            one = np.zeros(1, dtype=np.dtype(dtype))
            self.view = np.lib.stride_tricks.as_strided(one, shape=shape, strides=(0,) * len(shape), writeable=False)
        except (TypeError, ValueError) as exc:
            raise BrokenStream(f"an odd chunk's dtype {dtype!r} or shape {shape} is not valid: {exc}") from None

    def __repr__(self) -> str:
        return self.text

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return self.view


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
            cut = safe_repr(move)[: MAX_PAYLOAD // 8]
            _texts(out, b"o", (cut, cut))
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
    value = decode_value(frame.payload)
    if (
        type(value) is not tuple
        or len(value) != 3
        or type(value[0]) is not str
        or type(value[1]) is not str
        or type(value[2]) is not list
        or not all(type(size) is int for size in value[2])
    ):
        raise BrokenStream("an odd chunk is not a repr, a dtype and a shape")
    return OddChunk(value[0], value[1], tuple(value[2]))


def failure(frame: Frame) -> Exception:
    """The exception of an S or E frame, rebuilt with its type's name and its text."""
    value = decode_value(frame.payload)
    if type(value) is not tuple or len(value) != 2 or not all(type(part) is str for part in value):
        raise BrokenStream("an error frame is not a type name and a text")
    return exception(value[0], value[1])


def fatal_reason(frame: Frame) -> str:
    """The reason of an F frame."""
    value = decode_value(frame.payload)
    if type(value) is not str:
        raise BrokenStream("a fatal frame without its reason")
    return value
