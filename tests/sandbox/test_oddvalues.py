"""Odd moves across processes: what comes back of objects the encoding cannot send whole, and what a
malformed encoding is refused as (the judging side never runs the sender's code)."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from hanoi_harness.sandbox.oddvalues import (
    MAX_DEPTH,
    MAX_VALUES,
    Malformed,
    Opaque,
    Unpacked,
    decode_value,
    describe_exception,
    encode_opaque,
    encode_value,
    exception,
)


def round_trip(value: Any) -> Any:
    out = bytearray()
    encode_value(value, out)
    return decode_value(bytes(out))


def test_an_exception_type_name_that_is_not_a_name_becomes_exception() -> None:
    for name in ("not a name", "x" * 201, ""):
        error = exception(name, "its text")
        assert (type(error).__name__, str(error)) == ("Exception", "its text")
    assert type(exception("HanoiError", "a")) is type(exception("HanoiError", "b"))  # one type a name


def test_an_exception_whose_str_raises_is_still_described() -> None:
    class Hostile(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no text for you")

    assert describe_exception(Hostile()) == ("Hostile", "<str() of the exception raised RuntimeError>")


class Russian:
    """Unpacks into itself and two pegs, forever."""

    def __iter__(self) -> Any:
        return iter((self, 0, 2))

    def __repr__(self) -> str:
        return "Russian()"


def test_an_object_nested_without_end_is_sent_by_its_repr_from_max_depth_on() -> None:
    value = round_trip(Russian())
    depth = 0
    while isinstance(value, Unpacked):
        depth += 1
        value = value.items[0]
    # Each level is two deep in the encoding: the object, then the tuple of its three items.
    assert depth == MAX_DEPTH // 2 and type(value) is Opaque and repr(value) == "Russian()"


class Hydra:
    """Unpacks into three new ones of its kind, forever: 3**16 values by the depth bound."""

    def __iter__(self) -> Any:
        return iter((Hydra(), Hydra(), Hydra()))

    def __repr__(self) -> str:
        return "Hydra()"


def opened(value: Any) -> int:
    """How many of the values under *value* were sent by what they hold rather than by their reprs."""
    if isinstance(value, Unpacked):
        return 1 + sum(opened(item) for item in value.items)
    return 0


def test_an_object_that_branches_without_end_is_opened_up_to_max_values_then_sent_by_its_repr() -> None:
    sent = round_trip(Hydra())
    # the top is what the checker reads, as it was; below, at most MAX_VALUES were opened
    assert isinstance(sent, Unpacked) and len(sent.items) == 3 and repr(sent) == "Hydra()"
    assert MAX_VALUES // 4 < opened(sent) <= MAX_VALUES


def test_a_list_that_holds_itself_comes_back_holding_itself() -> None:
    itself: list[Any] = [1]
    itself.extend([itself, (0, [itself])])
    sent = round_trip(itself)
    assert sent[1] is sent and sent[2][1][0] is sent and repr(sent) == repr(itself) == "[1, [...], (0, [[...]])]"


def test_an_opaque_move_is_its_repr_alone() -> None:
    out = bytearray()
    encode_opaque("(1, 0, <70 MB of bytes>...", out)
    value = decode_value(bytes(out))
    assert type(value) is Opaque and repr(value) == str(value) == "(1, 0, <70 MB of bytes>..."


def sized(tag: bytes, data: bytes) -> bytes:
    return tag + struct.pack("<I", len(data)) + data


def text(value: str) -> bytes:
    return sized(b"", value.encode())


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"NN", "bytes after its value"),
        (b"t\x01\x00\x00\x00" * (MAX_DEPTH + 3) + b"N", "nested too deep"),
        (sized(b"s", b"\xff\xfe"), "does not decode: UnicodeDecodeError"),
        (b"I" + text("True") + text("True") + b"T", "an integer of another type without its value"),
        (b"u" + text("p") + text("p") + b"t\x02\x00\x00\x00NN", "an unpacked move is not three items"),
        (b"x" + text("p") + text("p") + b"t\x01\x00\x00\x00N", "an unpacking error is not a name and a text"),
        (sized(b"n", b"<f8") + sized(b"", b"\0" * 4), "a numpy scalar's bytes do not fit its type"),
        (sized(b"n", b"<V8") + sized(b"", b"\0" * 8), "the numpy type '<V8'"),
        (b"?", "the unknown tag b'?'"),
        (b"l\x01\x00\x00\x00r\x01\x00\x00\x00", "refers to a list it is not in"),
    ],
)
def test_a_malformed_encoding_is_refused_saying_how(data: bytes, why: str) -> None:
    with pytest.raises(Malformed, match=why.replace("(", r"\(")):
        decode_value(data)
