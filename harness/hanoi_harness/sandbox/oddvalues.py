"""Odd moves across processes: a tagged encoding of whatever a generator yields, and the stand-ins rebuilt from it.

An algorithm's moves are mostly tuples of three ints, sent as rows of bytes
(:mod:`hanoi_harness.sandbox.protocol`).  Anything else it yields is an *odd move*: encoded here by
:func:`encode_value` in its own process and rebuilt by :func:`decode_value` in the judging one,
so that :func:`~hanoi_harness.core.checker.check` gives the same verdict on it.  Ints of any size,
floats, bools, None, strings, bytes, tuples, lists (one that holds itself too) and numpy
scalars come back exactly; integers of other types as their value and repr
(:class:`Integer`); any other object as what
the checker asks of it, its repr, its str and what unpacking it into three gave
(:class:`Opaque`, :class:`Unpacked`, :class:`Unpacking`).  What a ``chunks=True`` record yields
that is not an integer (m, 3) array comes back as an :class:`OddChunk`.  Decoding never runs
code of the sender's: a malformed encoding is :class:`Malformed`.
"""

from __future__ import annotations

import contextlib
import numbers
import re
import struct
from collections.abc import Callable
from typing import Any

MAX_DEPTH = 32
"""Nesting of an odd move's values beyond which it is sent by its repr."""

MAX_VALUES = 1 << 16
"""Values of an odd move past which its tuples, lists and objects are sent by their reprs too.

A move is three values.  An object that unpacks into three of its kind at every level would
be 3**16 of them by :data:`MAX_DEPTH` (hours to encode); this stops it after 0.2 s, and
the checker's verdict, which reads the move's top and the reprs below, stays the same.
"""

CHUNK_REPR = 80
"""Characters of an odd chunk's repr that the checker reports (``repr(chunk)[:80]``)."""


class Malformed(ValueError):
    """Bytes that are not an encoding :func:`encode_value` writes."""


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
_ANY_DTYPE = re.compile(r"[<>|=]?[A-Za-z][A-Za-z0-9\[\]]{0,30}")


def encode_value(value: Any, out: bytearray) -> None:
    """Append *value* to *out* in the tagged encoding :func:`decode_value` reads.

    >>> out = bytearray()
    >>> encode_value((1, -2**70, None, "x", [True, 1.5]), out)
    >>> decode_value(bytes(out))
    (1, -1180591620717411303424, None, 'x', [True, 1.5])

    A tuple, list or other object nested more than :data:`MAX_DEPTH` deep, or met after
    :data:`MAX_VALUES` values, is sent by its repr.
    """
    _Encoder(out).value(value, 0)


class _Encoder:
    """Writes one odd move's values into *out*, opening containers while fewer than :data:`MAX_VALUES` are written."""

    def __init__(self, out: bytearray) -> None:
        self.out = out
        self.left = MAX_VALUES
        self.lists: dict[int, int] = {}  # the lists being written, by id: their places, outermost first

    def opens(self, depth: int) -> bool:
        """Whether a value at *depth* is sent by what it holds (else by its repr)."""
        return depth < MAX_DEPTH and self.left > 0

    def value(self, value: Any, depth: int) -> None:
        self.left -= 1
        kind, out = type(value), self.out
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
        elif kind is list and id(value) in self.lists:  # a list that holds itself: rebuilt so
            out += b"r" + struct.pack("<I", self.lists[id(value)])
        elif kind is tuple and self.opens(depth):
            out += b"t" + struct.pack("<I", len(value))
            for item in value:
                self.value(item, depth + 1)
        elif kind is list and self.opens(depth):
            out += b"l" + struct.pack("<I", len(value))
            self.lists[id(value)] = len(self.lists)
            for item in value:
                self.value(item, depth + 1)
            del self.lists[id(value)]
        elif _is_numpy_scalar(value):
            _text(out, b"n", value.dtype.str.encode())
            _text(out, b"", value.tobytes())
        else:
            self.object(value, depth)

    def object(self, value: Any, depth: int) -> None:
        """Any other object: what the checker can ask of it, and its repr.

        An integer of another type (an IntEnum, a big-number library's) is its value and repr;
        anything else is what ``disk, src, dst = value`` gave (three values, a TypeError or
        ValueError, or another error) and its repr.
        """
        texts = (safe_repr(value), safe_repr(value, str))
        if isinstance(value, numbers.Integral):
            with contextlib.suppress(Exception):
                number = int(value)
                _texts(self.out, b"I", texts)
                self.value(number, depth + 1)
                return
        if not self.opens(depth):
            _texts(self.out, b"o", texts)
            return
        try:
            items = _unpack(value)
        except (TypeError, ValueError):
            _texts(self.out, b"o", texts)
            return
        except Exception as exc:
            _texts(self.out, b"x", texts)
            self.value(describe_exception(exc), depth + 1)
            return
        _texts(self.out, b"u", texts)
        self.value(items, depth + 1)


def _is_numpy_scalar(value: Any) -> bool:
    kind = type(value)
    return kind.__module__ == "numpy" and hasattr(value, "dtype") and hasattr(value, "tobytes") and value.ndim == 0


def _unpack(value: Any) -> tuple[Any, Any, Any]:
    disk, src, dst = value
    return (disk, src, dst)


def _text(out: bytearray, tag: bytes, data: bytes) -> None:
    out += tag + struct.pack("<I", len(data)) + data


def encode_opaque(text: str, out: bytearray) -> None:
    """Append an object known only by its repr *text* (a move too large to send whole) to *out*."""
    _texts(out, b"o", (text, text))


def _texts(out: bytearray, tag: bytes, texts: tuple[str, str]) -> None:
    """The tag, then an object's repr and str."""
    _text(out, tag, texts[0].encode("utf-8", "surrogatepass"))
    _text(out, b"", texts[1].encode("utf-8", "surrogatepass"))


def decode_value(data: bytes) -> Any:
    """The value :func:`encode_value` wrote into *data*; :class:`Malformed` for anything else."""
    reader = _Cursor(data)
    value = reader.value(0)
    if reader.at != len(data):
        raise Malformed("an odd move has bytes after its value")
    return value


class _Cursor:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0
        self.lists: list[list[Any]] = []  # the lists being read, outermost first

    def take(self, size: int) -> bytes:
        end = self.at + size
        if end > len(self.data):
            raise Malformed("an odd move is cut short")
        chunk = self.data[self.at : end]
        self.at = end
        return chunk

    def sized(self) -> bytes:
        (size,) = struct.unpack("<I", self.take(4))
        return self.take(size)

    def text(self) -> str:
        return self.sized().decode("utf-8", "surrogatepass")

    def count(self) -> int:
        """The number of items a tuple or list claims, checked against the bytes left."""
        (count,) = struct.unpack("<I", self.take(4))
        if count > len(self.data) - self.at:  # every item takes a byte at least
            raise Malformed("an odd move claims more items than it holds")
        return int(count)

    def value(self, depth: int) -> Any:
        if depth > MAX_DEPTH + 2:
            raise Malformed("an odd move is nested too deep")
        tag = self.take(1)
        simple = {b"N": None, b"T": True, b"F": False}
        if tag in simple:
            return simple[tag]
        try:
            return self._tagged(tag, depth)
        except Malformed:
            raise
        except (UnicodeDecodeError, struct.error, ValueError, TypeError) as exc:
            raise Malformed(f"an odd move does not decode: {type(exc).__name__}") from None

    def _tagged(self, tag: bytes, depth: int) -> Any:
        if tag == b"i":
            return int.from_bytes(self.sized(), "little", signed=True)
        if tag == b"f":
            return struct.unpack("<d", self.take(8))[0]
        if tag == b"s":
            return self.text()
        if tag == b"y":
            return self.sized()
        if tag == b"t":
            return tuple([self.value(depth + 1) for _ in range(self.count())])
        if tag == b"l":
            listed: list[Any] = []
            self.lists.append(listed)  # before its items: one of them may be this list
            listed.extend([self.value(depth + 1) for _ in range(self.count())])
            self.lists.pop()
            return listed
        if tag == b"r":
            (place,) = struct.unpack("<I", self.take(4))
            if place >= len(self.lists):
                raise Malformed("an odd move refers to a list it is not in")
            return self.lists[place]
        if tag == b"n":
            return _numpy_scalar(self.sized().decode("ascii"), self.sized())
        if tag == b"o":
            return Opaque(self.text(), self.text())
        if tag == b"I":
            text, shown, number = self.text(), self.text(), self.value(depth + 1)
            if type(number) is not int:
                raise Malformed("an integer of another type without its value")
            return Integer(number, text, shown)
        if tag == b"u":
            text, shown, items = self.text(), self.text(), self.value(depth + 1)
            if type(items) is not tuple or len(items) != 3:
                raise Malformed("an unpacked move is not three items")
            return Unpacked(text, shown, items)
        if tag == b"x":
            text, shown, error = self.text(), self.text(), self.value(depth + 1)
            if type(error) is not tuple or len(error) != 2 or not all(type(part) is str for part in error):
                raise Malformed("an unpacking error is not a name and a text")
            return Unpacking(text, shown, exception(*error))
        raise Malformed(f"an odd move has the unknown tag {tag!r}")


def _numpy_scalar(dtype: str, raw: bytes) -> Any:
    import numpy as np

    if not _NUMPY_DTYPE.fullmatch(dtype):
        raise Malformed(f"an odd move has the numpy type {dtype!r}")
    kind = np.dtype(dtype)
    if kind.itemsize != len(raw):
        raise Malformed("a numpy scalar's bytes do not fit its type")
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
            raise Malformed(f"an odd chunk's dtype {dtype!r} or shape {shape} is not valid: {exc}") from None

    def __repr__(self) -> str:
        return self.text

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return self.view
