"""Test how an algorithm's faults are told.

That is a move that is not three ints, a crash's place and traceback, and what its process printed.
"""

from __future__ import annotations

import enum
import io
import json
import numbers
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from hanoi_harness.core.checker import check
from hanoi_harness.registry.sources import build_registry, load_plugin
from hanoi_harness.sandbox.faults import SHOWN, TEXT, Crash, Odd, roots_of, shown, triple
from hanoi_harness.sandbox.output import LINES, WIDTH, Printed, ToStderr
from tests.helpers import FIXTURES


class Peg(enum.IntEnum):
    A, B, C = 0, 1, 2


class BadInt:
    """An integer by registration whose int() raises."""

    def __int__(self) -> int:
        raise OverflowError("no int here")

    def __index__(self) -> int:
        raise OverflowError("no index here")


numbers.Integral.register(BadInt)


@pytest.mark.parametrize(
    ("move", "ints"),
    [
        ((1, 0, 2), (1, 0, 2)),
        ([1, 0, 2], (1, 0, 2)),
        ((np.int64(1), np.uint8(0), Peg.C), (1, 0, 2)),
        (iter((1, 0, 2)), (1, 0, 2)),
        (b"\x01\x00\x02", (1, 0, 2)),
        ({1: "a", 0: "b", 2: "c"}, (1, 0, 2)),
        ((-(2**63), 2**63 - 1, 0), (-(2**63), 2**63 - 1, 0)),
    ],
)
def test_three_integers_of_64_bits_are_a_triple_of_ints(move: Any, ints: tuple[int, int, int]) -> None:
    got = triple(move)
    assert got == ints and all(type(value) is int for value in got)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("move", "what"),
    [
        (None, "a NoneType"),
        (7, "an int"),
        ((1, 0), "a tuple of 2 items"),
        ([1, 0, 2, 0], "a list of 4 items"),
        ((True, 0, 2), "a tuple holding bool, int, int"),
        ((1, 0.0, 2), "a tuple holding int, float, int"),
        ((BadInt(), 0, 2), "a tuple holding BadInt, int, int"),
        ((2**63, 0, 2), "a tuple holding an integer beyond 64 bits"),
        ((1, 0, -(2**63) - 1), "a tuple holding an integer beyond 64 bits"),
        (iter(range(5)), "a range_iterator"),
    ],
)
def test_anything_else_is_odd_and_illegal_wherever_it_comes(move: Any, what: str) -> None:
    odd = triple(move)
    assert isinstance(odd, Odd) and odd.what == what and len(odd.shown) <= SHOWN
    verdict = odd.verdict(2, 1, 11, 2, (2, None, 1))
    assert (verdict.status, verdict.step, verdict.moves, verdict.move) == ("illegal", 2, 1, odd.shown)
    assert verdict.reason == f"a move must be a triple of integers (disk, src, dst), not {what}"


def test_a_move_whose_unpacking_raises_is_odd_but_ctrl_c_is_not() -> None:
    class Raising:
        def __init__(self, error: BaseException) -> None:
            self.error = error

        def __iter__(self) -> Iterator[int]:
            raise self.error

    assert isinstance(triple(Raising(RuntimeError("no"))), Odd)
    with pytest.raises(KeyboardInterrupt):
        triple(Raising(KeyboardInterrupt()))


def test_shown_is_one_bounded_line_and_never_raises() -> None:
    class Hostile:
        def __repr__(self) -> str:
            raise RuntimeError("no repr")

    assert shown(Hostile()) == "<Hostile object>"
    assert shown((Hostile(), 1)) == "(<Hostile object>, 1)"
    assert shown(10**5000) == "<int object>"  # past Python's digit limit
    assert shown("a\nb") == "'a\\nb'" and "\n" not in shown(type("M", (), {"__repr__": lambda s: "a\nb"})())
    assert len(shown(list(range(10**6)))) <= SHOWN and len(shown("x" * 10**6)) == SHOWN


def test_a_crash_is_its_type_text_place_and_traceback() -> None:
    def inner() -> None:
        json.loads("{")

    def algorithm() -> None:
        inner()

    try:
        algorithm()
    except ValueError as exc:
        crash = Crash.of(exc, roots=())
    here = os.path.relpath(__file__)
    assert crash.name == "JSONDecodeError" and crash.text.startswith("Expecting property name")
    assert crash.location == f"{here}:{inner.__code__.co_firstlineno + 1} in inner"  # not json's own lines
    assert crash.traceback.startswith("Traceback") and 'json.loads("{")' in crash.traceback
    verdict = crash.verdict(3, 1, 11, 2, (2, None, 1))
    assert verdict.describe() == f"crashed at step 2: {crash.reason} (at {crash.location})"
    assert verdict.extra["traceback"] == crash.traceback


def test_a_crash_with_a_hostile_or_huge_text_is_still_told() -> None:
    class Unspeakable(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no text")

    assert Crash.of(Unspeakable()).reason == "Unspeakable: <str() of the exception raised RuntimeError>"
    huge = Crash.of(ValueError("x" * 10**6))
    assert len(huge.text) == TEXT and huge.text.endswith("...")
    bare = Crash.of(RuntimeError("never raised"))  # no traceback at all
    assert (bare.location, bare.traceback.splitlines()) == ("", ["RuntimeError: never raised"])


def test_the_place_is_in_the_algorithms_own_files_first() -> None:
    from hanoi_harness.sandbox import faults

    harness, stdlib = os.path.join(os.path.dirname(faults.__file__), "child.py"), json.__file__
    frames = [(harness, 1, "serve"), ("/own/mod.py", 5, "solve"), (stdlib, 9, "loads")]
    assert faults._location(frames, ("/own",)) == "/own/mod.py:5 in solve"
    assert faults._location([*frames, ("/elsewhere/helper.py", 2, "helper")], ()) == "/elsewhere/helper.py:2 in helper"
    assert faults._location([(harness, 3, "serve")], ()) == ""  # only the harness's frames: no place
    assert faults._location([(stdlib, 3, "loads")], ()) == f"{stdlib}:3 in loads"  # none of its own: the nearest


def test_an_algorithms_roots_are_its_package_or_its_file() -> None:
    recursive = build_registry().get("recursive")
    (root,) = roots_of(recursive)
    assert root == os.path.realpath(os.path.dirname(sys.modules["hanoi_algorithms"].__file__ or ""))
    file = FIXTURES / "plugins" / "prints.py"
    assert roots_of(load_plugin(f"{file}:chatty")) == (os.path.realpath(file),)


# --- what a process printed ---------------------------------------------------------------------------


def printed(data: bytes, start: int = 0) -> Printed:
    with tempfile.TemporaryFile() as file:
        file.write(data)
        return Printed.read(file, start)


def test_printed_keeps_the_first_lines_cut_and_counts_the_rest() -> None:
    assert printed(b"") == Printed()
    assert printed(b"one\ntwo") == Printed(("one", "two"), 0)
    many = b"".join(b"line %d\n" % k for k in range(1000)) + b"x" * 3000
    got = printed(many)
    assert got.lines == tuple(f"line {k}" for k in range(LINES)) and got.more == 1001 - LINES
    assert printed(b"y" * 5000).lines == ("y" * WIDTH,)
    assert printed(b"old\nnew\n", start=4) == Printed(("new",), 0)
    both = Printed(("a",) * 15, 2) + Printed(("b",) * 10, 1)
    assert both.lines == ("a",) * 15 + ("b",) * 5 and both.more == 2 + 1 + 5
    assert both.told("x")[-1] == "x: (8 more lines printed)" and Printed(("a",)).told("x") == ["x: a"]


def test_to_stderr_takes_text_and_bytes_and_survives_close(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.TextIOWrapper(io.BytesIO(), write_through=True)
    monkeypatch.setattr(sys, "stderr", err)
    out = ToStderr()
    print("text", file=out)
    out.buffer.write(b"bytes")
    out.close()
    out.buffer.close()
    assert not out.closed and out.writable() and not out.buffer.closed and out.encoding
    print("again", file=out)
    assert err.buffer.getvalue() == b"text\nbytesagain\n"  # type: ignore[attr-defined]
    text = io.StringIO()
    monkeypatch.setattr(sys, "stderr", text)  # no buffer: bytes as text
    out.buffer.write(b"raw")
    assert text.getvalue() == "raw"


def test_check_itself_is_left_as_it_was() -> None:
    assert check([(1, 0, 2.0)], 1).reason == "destination peg 2.0 is not 0, 1 or 2"  # in-process wording kept
