"""Test reading one line: the rules for ambiguous lines, and templates.

The templates read a shape fast, as the rules read it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_harness.transcript.check import MalformedLine, check_lines, parse_line
from hanoi_harness.transcript.pegs import WORDS
from hanoi_harness.transcript.templates import Parser
from hanoi_harness.transcript.tokens import ARROWS, MARK, WORD, tokens
from tests.helpers import at_scale


def test_parse_line_shapes() -> None:
    assert parse_line("Moving 3 disks from A to C") is None
    assert parse_line("Enter the number of disks: 3") is None
    assert parse_line("Enter the number of disks: Move disk 1 from A to C") == (1, "A", "C")
    assert parse_line("  7") is None
    assert parse_line("peg1 -> peg3") == (None, "1", "3")
    assert parse_line("Move disk1 from rodA to rodC") == (1, "A", "C")
    assert parse_line("3) 2 A C") == (2, "A", "C")
    assert parse_line("#3 A -> C") == (None, "A", "C")  # '#3' counts moves
    assert parse_line("A -> C (move 3 of 7)") == (None, "A", "C")
    assert parse_line("1 A -> C 2") == (2, "A", "C")  # the number after the pegs wins
    assert parse_line("Move 1 from A to C") == (1, "A", "C")
    assert parse_line("disk 2 to the left") == (2, None, "left")
    assert parse_line("A B C") is None  # a row of labels
    assert parse_line("A: 3 2 1") is None  # a peg's disks
    with pytest.raises(ValueError, match="arrow"):
        parse_line("-> C")
    with pytest.raises(MalformedLine):
        check_lines(["from A to"], 1)


def test_the_rules_for_ambiguous_lines() -> None:
    assert parse_line("Move disk 1 from A to C (disk 1)") == (1, "A", "C")
    assert parse_line("A -> C (1 of 7)") == (None, "A", "C")
    assert parse_line("A -> C 1/7") == (None, "A", "C")
    assert parse_line("Move disk 1 from source A to target C") == (1, "A", "C")  # a name labels the letter after it
    assert parse_line("left -> right 2") == (2, "left", "right")  # ... but not a number: that is the disk
    assert parse_line("Move disk 1 from from to to") == (1, "from", "to")
    assert parse_line("1 from to") == (1, "from", "to")
    assert parse_line("Enter the number of disks (1-10): A -> C") == (None, "A", "C")
    assert parse_line("A C 2") == parse_line("2 A C") == (2, "A", "C")
    assert parse_line("[1] A -> C") == parse_line("(1) A -> C") == (None, "A", "C")  # steps
    assert parse_line("move(1, 'A', 'C')") == parse_line("Move 1 A C") == (1, "A", "C")
    assert parse_line("Move disk 1 from pole left to pole right") == (1, "left", "right")
    assert parse_line("Press A to continue") is None
    assert parse_line("  |  |  |") is None
    assert parse_line("------>") is None  # no letter or digit: no peg, no move (a separator)
    with pytest.raises(ValueError, match="2 numbers after the pegs"):
        parse_line("A -> C 2 3")
    with pytest.raises(ValueError, match="'shelf' is not a peg"):
        parse_line("Move disk 1 from A to shelf")


def test_a_run_of_dashes_or_of_letters_is_one_token() -> None:
    # An arrow was read by trying '-+>' at each dash of a run, or a peg before it at each letter of a word.
    # That took a time quadratic in the run's length (25 s for a 40 KB line); a run read as one token is read once.
    assert [tok.text for tok in tokens("-" * 40_000 + "> C")] == ["-" * 40_000 + ">", "C"]
    assert [tok.kind for tok in tokens("-" * 40_000 + " x")] == [MARK, WORD]
    assert len(tokens("=" * 40_000)) == 1
    assert [tok.kind for tok in tokens("a" * 40_000 + "->")] == [WORD, ARROWS]
    with pytest.raises(ValueError, match=re.escape("'" + "a" * 30 + "...' is not a peg")):
        parse_line("a" * 40_000 + "-> C")


# Templates: once a shape is read, later lines of the shape are read by one regular expression. They must
# read every line they match as the rules do.

PIECES = [
    *("0", "1", "2", "3", "12", "A", "b", "C", "D", "S", "n", "->", "=>", "-->", "→", "-", ">", "=", ",", ":", "."),
    *(")", "(", "[", "]", "#", "'", '"', "/", "?", "\t", "disk", "disks", "from", "to", "Move", "moving", "peg"),
    *("rod", "step", "the", "of", "left", "right", "middle", "source", "Target", "via", "end", "rodA", "peg1", "disk3"),
    *("rods", "number", "Enter", "red", "x"),
]


@st.composite
def move_like_lines(draw: st.DrawFn) -> str:
    """Draw lines shaped like moves, near and off the shapes.

    A move is a step, disk, source, separator, destination and trailer.
    """
    prefix = draw(st.sampled_from(["", "1: ", "12. ", "3) ", "#4 ", "Step 2: ", "7 ", " ", "Enter n: ", "Move "]))
    disk = draw(st.sampled_from(["", "1 ", "disk 2 ", "disk 3: ", "12 ", "x ", "1,", "(1, ", "from "]))
    pegs = ["A", "b", "C", "D", "0", "1", "3", "12", "AB", "", "left", "Source", "'S'", "rod A", "peg1", "the end"]
    middle = draw(st.sampled_from([" ", "->", " -> ", "-->", "=>", " → ", ",", ", ", " to ", "\t", ". ", " to the "]))
    suffix = draw(st.sampled_from(["", " ", "\n", " extra", " 5", ".", " disks", ")", " : 2", " (disk 2)", " left"]))
    return prefix + disk + draw(st.sampled_from(pegs)) + middle + draw(st.sampled_from(pegs)) + suffix


@st.composite
def any_pieces(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.sampled_from(PIECES), max_size=9))
    return "".join(draw(st.sampled_from(["", " ", "  "])) + piece for piece in pieces)


@st.composite
def alike(draw: st.DrawFn, text: str) -> str:
    """Return ``text`` with other numbers, words and whitespace in places.

    Also other letters and arrows, and other amounts of whitespace.
    """
    out = []
    for piece in text.split(" "):
        if piece.isdecimal():
            piece = str(draw(st.integers(0, 40)))
        elif len(piece) == 1 and piece.isalpha():
            piece = draw(st.sampled_from("ABCDSxyn"))
        elif piece.isalpha() and draw(st.booleans()):
            piece = draw(st.sampled_from([*WORDS, *PIECES]))
        elif piece in ("->", "=>", "-->"):
            piece = draw(st.sampled_from(["->", "=>", "-->", "→"]))
        out.append(piece)
    return draw(st.sampled_from([" ", "  "])).join(out)


def outcome(parse: Callable[[str], object], text: str) -> object:
    try:
        return parse(text)
    except ValueError as exc:
        return f"ValueError: {exc}"


@at_scale
@settings(max_examples=600, deadline=None)
@given(data=st.data(), first=st.one_of(move_like_lines(), any_pieces()))
def test_a_template_reads_each_line_it_matches_as_the_rules_do(data: st.DataObject, first: str) -> None:
    parser = Parser()
    if not isinstance(outcome(parser.parse, first), tuple):
        return
    assert parser.templates, "a line read as a move leaves a template"
    assert outcome(parser.parse, first) == outcome(Parser().rules, first)
    for _ in range(3):
        other = data.draw(alike(first))
        if parser.templates[0].match(other):
            assert outcome(parser.parse, other) == outcome(Parser().rules, other), (first, other)
