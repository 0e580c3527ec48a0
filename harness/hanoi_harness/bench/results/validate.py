"""Strict, bounded reading of the JSON files a bench run writes.

Nothing in them is trusted.

A result file decides the exit status of the regression gate (``hanoi
compare``) and feeds every table, so a value that is not what the schema says
stops the command with one line (:class:`~hanoi_harness.errors.UsageError`,
exit status 2), never passes silently and never ends in a traceback.

:func:`read_json` bounds what is read before anything is parsed: a regular
file only (a named pipe or ``/dev/zero`` never ends), of at most
:data:`MAX_BYTES`; integers of at most :data:`MAX_INT_DIGITS` digits (Python
would spend quadratic time on a long one, and refuses past 4300); nesting at
most :data:`MAX_DEPTH` deep; and every float finite (Python's ``json`` reads
``NaN`` and ``Infinity``, and ``1e999`` as infinity).  Then :class:`Fields`
reads each value with its type and range, and a refusal names the value's
path in the file, as in ``algorithms.bitwise.runs[2].timing.median``.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hanoi_harness.errors import UsageError

MAX_BYTES = 16 * 2**20
"""The largest result file read: a full run's results.json is about 0.7 MB (up to 32 kept rounds a case), so 24
times that."""

MAX_DEPTH = 32
"""The deepest nesting read: the schema nests 7 deep (algorithms, a name, runs, a run, timing, a value)."""

MAX_INT_DIGITS = 20
"""The longest integer read: 2^64 has 20 digits, and no figure in a result file comes near it."""

Scalar = str | int | float | bool | None


class _Refused(ValueError):
    """Raised from inside the JSON parser by a hook that refuses a value."""


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS} are read)")
    return int(text)


def read_json(path: Path) -> Any:
    """Return the JSON value in the file at *path*.

    Read within the bounds above.

    Every refusal is a one-line :class:`UsageError` naming the file: a file
    that is missing, not regular, too large, not UTF-8, not JSON, too deep,
    or holds a long integer or a number that is not finite.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     file = Path(tmp) / "r.json"
    ...     _ = file.write_text('{"median": NaN}')
    ...     read_json(file)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    hanoi_harness.errors.UsageError: ...r.json: median: expected a finite number, got nan
    """
    data = _read_bounded(path)
    try:
        value = json.loads(data.decode("utf-8"), parse_int=_bounded_int)
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except _Refused as exc:
        raise UsageError(f"{path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not JSON: {exc}") from None
    except RecursionError:
        raise UsageError(f"{path}: nested more than {MAX_DEPTH} levels deep") from None
    problem = _first_problem(value)
    if problem:
        raise UsageError(f"{path}: {problem}")
    return value


def _read_bounded(path: Path) -> bytes:
    """Return the bytes of the regular file at *path*.

    Refusing anything else or more than MAX_BYTES.

    The file is opened without blocking, so a named pipe with no writer is
    refused at once instead of waiting for one.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot open: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):  # checked before fdopen, which refuses a directory with a traceback
        os.close(fd)
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise UsageError(f"{path}: {kind}, not a result file (a JSON file on disk)")
    with os.fdopen(fd, "rb") as file:
        try:
            if info.st_size > MAX_BYTES:
                raise UsageError(f"{path}: {info.st_size} bytes, more than the {MAX_BYTES} a result file may have")
            data = file.read(MAX_BYTES + 1)
        except OSError as exc:
            raise UsageError(f"{path}: cannot read: {exc.strerror}") from None
    if len(data) > MAX_BYTES:  # it grew while being read
        raise UsageError(f"{path}: more than the {MAX_BYTES} bytes a result file may have")
    return data


def _first_problem(value: Any) -> str:
    """Return what is wrong with a parsed JSON *value* as a whole, or "".

    That is: too deep, or a float not finite.

    Iterative, so a deep value cannot exhaust the stack here.

    >>> _first_problem({"a": [1, {"b": float("inf")}]})
    'a[1].b: expected a finite number, got inf'
    >>> _first_problem([[[[1]]]]), _first_problem(1.5)
    ('', '')
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return f"{where or 'the file'}: expected a finite number, got {item}"
        if depth > MAX_DEPTH:
            shown = where if len(where) <= 60 else where[:57] + "..."
            return f"nested more than {MAX_DEPTH} levels deep (at {shown})"
        stack.extend((child, path, depth + 1) for child, path in _children(item, where))
    return ""


def _children(item: Any, where: str) -> Iterator[tuple[Any, str]]:
    if isinstance(item, dict):
        for key, child in item.items():
            yield child, f"{where}.{key}" if where else str(key)
    elif isinstance(item, list):
        for index, child in enumerate(item):
            yield child, f"{where}[{index}]"


def _shown(value: Any) -> str:
    """Return *value* as a refusal quotes it.

    Its JSON spelling, cut to 40 characters.

    >>> _shown("x" * 50)
    '"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'
    >>> _shown(True), _shown(None), _shown([1, 2])
    ('true', 'null', '[1, 2]')
    """
    try:
        text = json.dumps(value)
    except ValueError:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Fields:
    """Typed access to one JSON object of a result file at path *where*.

    Every refusal names the value's path.

    A key that is missing or null is absent: the ``optional_*`` readers then
    give None (or the default), the others refuse.

    >>> Fields({"n": 3, "ok": True}, "runs[0]").integer("n", 0, 1000)
    3
    >>> Fields({"n": True}, "runs[0]").integer("n", 0, 1000)
    Traceback (most recent call last):
    hanoi_harness.errors.UsageError: runs[0].n: expected an integer from 0 to 1000, got true
    """

    def __init__(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise UsageError(f"{where or 'the file'}: expected an object, got {_shown(value)}")
        self.data: dict[str, Any] = value
        self.where = where

    def at(self, key: str) -> str:
        """Return the path of *key* in this object."""
        return f"{self.where}.{key}" if self.where else key

    def _present(self, key: str) -> Any:
        value = self.data.get(key)
        if value is None:
            raise UsageError(f"{self.at(key)}: missing")
        return value

    def has(self, key: str) -> bool:
        """Whether *key* is present and not null."""
        return self.data.get(key) is not None

    def text(self, key: str, default: str | None = None) -> str:
        """Return the string at *key*.

        *default* when it is absent, or a refusal when there is no default.
        """
        if default is not None and not self.has(key):
            return default
        value = self._present(key)
        if not isinstance(value, str):
            raise UsageError(f"{self.at(key)}: expected a string, got {_shown(value)}")
        return value

    def optional_text(self, key: str) -> str | None:
        """Return the string at *key*, or None when it is absent."""
        return self.text(key) if self.has(key) else None

    def choice(self, key: str, options: tuple[str, ...]) -> str:
        """Return the string at *key*, which must be one of *options*."""
        value = self.text(key)
        if value not in options:
            raise UsageError(f"{self.at(key)}: expected one of {', '.join(options)}, got {_shown(value)}")
        return value

    def name(self, key: str) -> str:
        """Return the string at *key*, which must be a Python identifier.

        As every algorithm's name is.
        """
        value = self.text(key)
        if not value.isidentifier():
            raise UsageError(f"{self.at(key)}: expected an algorithm's name (an identifier), got {_shown(value)}")
        return value

    def flag(self, key: str, default: bool = False) -> bool:
        """Return the boolean at *key*, *default* when it is absent."""
        if not self.has(key):
            return default
        value = self.data[key]
        if not isinstance(value, bool):
            raise UsageError(f"{self.at(key)}: expected true or false, got {_shown(value)}")
        return value

    def integer(self, key: str, low: int, high: int) -> int:
        """Return the integer at *key*, from *low* to *high*.

        A boolean is not an integer here.
        """
        return check_integer(self._present(key), self.at(key), low, high)

    def optional_integer(self, key: str, low: int, high: int) -> int | None:
        """Return the integer at *key* from *low* to *high*.

        Or None when it is absent.
        """
        return self.integer(key, low, high) if self.has(key) else None

    def number(self, key: str, low: float, high: float) -> float:
        """Return the finite number at *key*, from *low* to *high*, as a float."""
        return check_number(self._present(key), self.at(key), low, high)

    def optional_number(self, key: str, low: float, high: float) -> float | None:
        """Return the number at *key* from *low* to *high*.

        Or None when it is absent.
        """
        return self.number(key, low, high) if self.has(key) else None

    def fields(self, key: str) -> Fields:
        """Return the object at *key*."""
        return Fields(self._present(key), self.at(key))

    def optional_fields(self, key: str) -> Fields | None:
        """Return the object at *key*, or None when it is absent."""
        return self.fields(key) if self.has(key) else None

    def each(self, key: str) -> list[Fields]:
        """Return the objects of the list at *key* ([] when it is absent)."""
        if not self.has(key):
            return []
        value = self.data[key]
        if not isinstance(value, list):
            raise UsageError(f"{self.at(key)}: expected a list, got {_shown(value)}")
        return [Fields(item, f"{self.at(key)}[{index}]") for index, item in enumerate(value)]

    def integers(self, key: str, low: int, high: int) -> list[int] | None:
        """Return the list of integers from *low* to *high* at *key*.

        Or None when it is absent.
        """
        if not self.has(key):
            return None
        value = self.data[key]
        if not isinstance(value, list):
            raise UsageError(f"{self.at(key)}: expected a list, got {_shown(value)}")
        return [check_integer(item, f"{self.at(key)}[{index}]", low, high) for index, item in enumerate(value)]

    def _list(self, key: str, most: int) -> list[Any]:
        """Return the list at *key* ([] when it is absent).

        It has at most *most* items.
        """
        if not self.has(key):
            return []
        value = self.data[key]
        if not isinstance(value, list):
            raise UsageError(f"{self.at(key)}: expected a list, got {_shown(value)}")
        if len(value) > most:
            raise UsageError(f"{self.at(key)}: expected at most {most} items, got {len(value)}")
        return value

    def numbers(self, key: str, low: float, high: float, most: int = 10**6) -> list[float]:
        """Return the list of at most *most* numbers from *low* to *high* at *key*.

        [] when it is absent.
        """
        items = self._list(key, most)
        return [check_number(item, f"{self.at(key)}[{index}]", low, high) for index, item in enumerate(items)]

    def texts(self, key: str, most: int = 100) -> list[str]:
        """Return the list of at most *most* strings at *key*.

        [] when it is absent.
        """
        found = []
        for index, item in enumerate(self._list(key, most)):
            if not isinstance(item, str):
                raise UsageError(f"{self.at(key)}[{index}]: expected a string, got {_shown(item)}")
            found.append(item)
        return found

    def refuse(self, key: str, message: str) -> UsageError:
        """Return the refusal of the value at *key*, saying *message*.

        For a check across values; raise it.

        >>> Fields({"low": 2, "high": 1}, "interval").refuse("high", "expected at least 2, got 1")
        UsageError('interval.high: expected at least 2, got 1')
        """
        return UsageError(f"{self.at(key)}: {message}")

    def by_name(self, key: str) -> dict[str, Fields]:
        """Return the object at *key* as a mapping of algorithm names to objects."""
        objects = self.fields(key)
        found: dict[str, Fields] = {}
        for name, value in objects.data.items():
            if not name.isidentifier():
                raise UsageError(f"{objects.where}: expected algorithm names (identifiers), got {_shown(name)}")
            found[name] = Fields(value, objects.at(name))
        return found

    def scalars(self, key: str) -> dict[str, Scalar]:
        """Return the object at *key* whose values are all scalars.

        They are strings, numbers, booleans or null ({} when absent).
        """
        if not self.has(key):
            return {}
        objects = self.fields(key)
        for name, value in objects.data.items():
            if isinstance(value, int) and not isinstance(value, bool):
                check_integer(value, objects.at(name), -(2**63), 2**63)
            elif not isinstance(value, str | float | bool) and value is not None:
                raise UsageError(f"{objects.at(name)}: expected a string, a number or a flag, got {_shown(value)}")
        return dict(objects.data)

    def seconds_by_name(self, key: str, high: float) -> dict[str, float]:
        """Return the object at *key* as a mapping of names to seconds.

        Each number of seconds is from 0 to *high*.
        """
        if not self.has(key):
            return {}
        objects = self.fields(key)
        return {name: objects.number(name, 0.0, high) for name in objects.data}


def check_integer(value: Any, where: str, low: int, high: int) -> int:
    """Return *value* when it is an integer from *low* to *high*.

    A refusal naming *where* otherwise.

    >>> check_integer(7, "n", 0, 10)
    7
    >>> check_integer(7.0, "n", 0, 10)
    Traceback (most recent call last):
    hanoi_harness.errors.UsageError: n: expected an integer from 0 to 10, got 7.0
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise UsageError(f"{where}: expected an integer from {low} to {high}, got {_shown(value)}")
    return value


def check_number(value: Any, where: str, low: float, high: float) -> float:
    """Return *value* as a float: a finite number from *low* to *high*.

    Anything else is a refusal naming *where*.

    >>> check_number(2, "t", 0, 10)
    2.0
    >>> check_number("2", "t", 0, 10)
    Traceback (most recent call last):
    hanoi_harness.errors.UsageError: t: expected a number from 0 to 10, got "2"
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise UsageError(f"{where}: expected a number from {low:g} to {high:g}, got {_shown(value)}")
    return float(value)
