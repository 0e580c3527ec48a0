"""How an algorithm's faults are told: odd moves, and where a crash was."""

from __future__ import annotations

import numbers
import os
import reprlib
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from hanoi_harness.core.digest import MASK
from hanoi_harness.core.verdict import Failure, Verdict

if TYPE_CHECKING:
    import traceback

SHOWN = 80  #: Characters of an odd move's repr that a verdict shows.

TEXT = 1000  #: Characters of an exception's text that a verdict keeps.

TRACEBACK = 20000  #: Characters of a traceback that are kept (its end, where the error is).

_LOW, _HIGH = -(1 << 63), 1 << 63


class _Repr(reprlib.Repr):
    """reprlib's bounded repr; an object whose repr raises is its type."""

    def repr_instance(self, x: Any, level: int) -> str:
        try:
            text = repr(x)
        except Exception:
            return f"<{type(x).__name__} object>"
        return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


_REPR = _Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = SHOWN


@dataclass(frozen=True)
class Odd:
    """A move that is not three integers: a bounded repr, its type in words."""

    shown: str
    what: str

    def verdict(self, n: int, moves: int, digest: int, step: int, tops: tuple[int | None, ...]) -> Verdict:
        """The verdict on this move at *step*: illegal, whatever the pegs."""
        failure = Failure("odd_move", detail=self.what)
        return Verdict("illegal", n, moves, digest & MASK, step=step, move=self.shown, tops=tops, failure=failure)


@dataclass(frozen=True)
class OddChunk:
    """A chunk that is not an integer (m, 3) array: its repr, and what it is."""

    shown: str
    detail: str

    def verdict(self, n: int, moves: int, digest: int, step: int, tops: tuple[int | None, ...]) -> Verdict:
        """The verdict on this chunk at *step*: illegal, as check_chunks says."""
        failure = Failure("bad_chunk", detail=self.detail)
        return Verdict("illegal", n, moves, digest & MASK, step=step, move=self.shown, tops=tops, failure=failure)


def triple(move: Any) -> tuple[int, int, int] | Odd:
    """*move* as three ints, when it is three 64-bit integers; else an Odd.

    >>> triple((1, 0, 2)), triple([1, 0, 2]), triple(iter((1, 0, 2)))
    ((1, 0, 2), (1, 0, 2), (1, 0, 2))
    >>> triple((1, 0, 2.0)).what, triple(None).what, triple((1, 0)).what
    ('a tuple holding int, int, float', 'a NoneType', 'a tuple of 2 items')
    >>> triple((2**64, 0, 2))
    Odd(shown='(18446744073709551616, 0, 2)', what='a tuple holding an integer beyond 64 bits')
    """
    kind = type(move)
    if kind is tuple and len(move) == 3 and type(move[0]) is type(move[1]) is type(move[2]) is int:
        if all(_LOW <= value < _HIGH for value in move):
            return move  # type: ignore[no-any-return]
    name = _a(kind.__name__)
    try:
        disk, src, dst = move
    except Exception:  # not three items (or its iteration raised): no move at all
        many = f" of {len(move)} items" if kind in (tuple, list) else ""
        return Odd(shown(move), name + many)
    items = (disk, src, dst)
    try:
        ints = [_integer(item) for item in items]
    except Exception:  # an integer whose int() raises
        ints = [None]
    if any(value is None for value in ints):
        return Odd(shown(move), f"{name} holding {', '.join(type(item).__name__ for item in items)}")
    if not all(_LOW <= value < _HIGH for value in ints if value is not None):
        return Odd(shown(move), f"{name} holding an integer beyond 64 bits")
    return (int(disk), int(src), int(dst))


def _integer(item: Any) -> int | None:
    if type(item) is int:
        return item
    if isinstance(item, bool) or not isinstance(item, numbers.Integral):
        return None
    return int(item)


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1].lower() in "aeiou" else f"a {noun}"


def shown(value: Any) -> str:
    """A repr of *value* on one line, at most :data:`SHOWN` characters.

    >>> class Bad:
    ...     def __repr__(self): raise RuntimeError("no")
    >>> shown(Bad()), len(shown("x" * 100)), shown([[[[[[[1]]]]]]])
    ('<Bad object>', 80, '[[[[[[[...]]]]]]]')
    """
    try:
        text = " ".join(_REPR.repr(value).split())
    except Exception:  # a repr that raises, or an int too long to write
        return f"<{type(value).__name__} object>"
    return text if len(text) <= SHOWN else text[: SHOWN - 3] + "..."


@dataclass(frozen=True)
class Crash:
    """What the algorithm raised (*name*, *text*), where, and its traceback."""

    name: str
    text: str
    location: str = ""
    traceback: str = ""

    @classmethod
    def of(cls, exc: BaseException, roots: Iterable[str] = ()) -> Crash:
        """The crash *exc* tells of, sought under *roots* first; never raises."""
        try:
            text = str(exc)
        except Exception as inner:  # a hostile __str__
            text = f"<str() of the exception raised {type(inner).__name__}>"
        if len(text) > TEXT:
            text = text[: TEXT - 3] + "..."
        roots = tuple(roots)
        import traceback  # here: only a crash needs it

        try:
            frames = traceback.extract_tb(exc.__traceback__)
            location = _location([(frame.filename, frame.lineno or 0, frame.name) for frame in frames], roots)
            told = _traceback(exc)
        except Exception:  # a traceback that cannot be read is no reason to lose the verdict
            location, told = "", ""
        return cls(type(exc).__name__, text, location, told)

    @property
    def reason(self) -> str:
        return f"{self.name}: {self.text}"

    def verdict(self, n: int, moves: int, digest: int, step: int, tops: tuple[int | None, ...] | None) -> Verdict:
        """The verdict ``crashed`` at *step*; the traceback in ``extra``."""
        failure = Failure("crashed", detail=self.reason, location=self.location)
        extra = {"traceback": self.traceback} if self.traceback else None
        return Verdict("crashed", n, moves, digest & MASK, step=step, tops=tops, failure=failure, extra=extra)


def roots_of(algorithm: Any) -> tuple[str, ...]:
    """Where *algorithm*'s own code lives: its top package's folder, or file."""
    roots: list[str] = []
    for function in (algorithm.solve, algorithm.solve_from, algorithm.solve_for):
        module = sys.modules.get(getattr(function, "__module__", None) or "")
        if module is None:
            continue
        top = sys.modules.get((module.__name__ or "").split(".")[0], module)
        where = getattr(top, "__path__", None)
        files = list(where) if where is not None else [getattr(module, "__file__", None)]
        roots.extend(os.path.realpath(str(path)) for path in files if path)
    return tuple(dict.fromkeys(roots))


def _location(frames: list[tuple[str, int, str]], roots: tuple[str, ...]) -> str:
    """``FILE:LINE in FUNCTION`` of the innermost frame of the algorithm."""
    own = [frame for frame in frames if _own(frame[0], roots)]
    others = [frame for frame in frames if not _harness(frame[0])]
    chosen = own or others
    if not chosen:
        return ""
    filename, line, function = chosen[-1]
    return f"{_short(filename)}:{line} in {function}"


def _own(filename: str, roots: tuple[str, ...]) -> bool:
    """Whether *filename* is the algorithm's own."""
    path = os.path.realpath(filename)
    if any(path == root or path.startswith(root + os.sep) for root in roots):
        return True
    return not filename.startswith("<") and not _harness(filename) and not path.startswith(_libraries())


def _harness(filename: str) -> bool:
    return os.path.realpath(filename).startswith(_libraries()[0])


@cache
def _libraries() -> tuple[str, ...]:
    """The harness's folder, then the standard library's and site-packages."""
    import sysconfig

    here = os.path.dirname(os.path.dirname(os.path.realpath(__file__))) + os.sep
    paths = sysconfig.get_paths()
    found = [os.path.realpath(paths[key]) + os.sep for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    return (here, *dict.fromkeys(found))


def _short(filename: str) -> str:
    """*filename* relative to the current directory when it is below it."""
    try:
        relative = os.path.relpath(filename)
    except ValueError:  # another drive, on Windows
        return filename
    return filename if relative.startswith(os.pardir) else relative


def _traceback(exc: BaseException) -> str:
    """The traceback of *exc*, without the harness's frames; its end only."""
    import traceback

    told = traceback.TracebackException.from_exception(exc)
    seen: set[int] = set()
    todo: list[traceback.TracebackException] = [told]
    while todo:
        part = todo.pop()
        if id(part) in seen:
            continue
        seen.add(id(part))
        part.stack = traceback.StackSummary.from_list([f for f in part.stack if not _harness(f.filename)])
        todo.extend(p for p in (part.__cause__, part.__context__, *(part.exceptions or ())) if p is not None)
    text = "".join(told.format())
    return text if len(text) <= TRACEBACK else "...\n" + text[-TRACEBACK:]
