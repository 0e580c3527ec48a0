"""The input as lines of text: decoded, cut to a bounded length, refused."""

from __future__ import annotations

import codecs
import functools
import io
import re
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from hanoi_harness.errors import UsageError
from hanoi_harness.transcript.pegs import quote
from hanoi_harness.transcript.tokens import ARROW

LIMIT = 10_000
"""The longest line read whole: a longer one is read in pieces, or refused."""
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


class UnreadableInput(UsageError):
    """Input that cannot be read as moves; ``line`` is at fault (None: all)."""

    line: int | None = None


class MalformedLine(UnreadableInput):
    """A line that looks like a move but cannot be read as one."""

    def __init__(self, line: int, text: str, why: str) -> None:
        super().__init__(f"line {line}: cannot read a move from {quote(text)}: {why}")
        self.line, self.source = line, text


class AmongMoves(MalformedLine):
    """A line like a move, among the moves, that no rule reads."""

    def __init__(self, line: int, text: str, failed: str = "") -> None:
        why = "a line like a move among the moves, and no rule reads it"
        if failed:
            why = f"a line like a move, and no rule reads it; without it the run is {failed}"
        super().__init__(line, text, f"{why}: print it as the others, or give a --pattern that reads every move alone")


class StateMismatch(MalformedLine):
    """A move's line printed a state after it that is not the pegs' state."""

    def __init__(self, line: int, text: str, why: str) -> None:
        super().__init__(line, text, why)
        self.text, self.why = text, why


class NoMoves(UnreadableInput):
    """Input in which no line is a move (for n >= 1)."""


def open_text(raw: BinaryIO, encoding: str | None = None) -> io.TextIOWrapper:
    """A text stream over ``raw``: UTF-8, its BOM's encoding, or ``encoding``.

    >>> open_text(io.BytesIO("A -> C\\n".encode("utf-16"))).read()
    'A -> C\\n'
    """
    buffered = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(raw)  # type: ignore[arg-type,type-var]
    if encoding is None:
        head = buffered.peek(4)[:4]
        encoding = next((name for bom, name in _BOMS if head.startswith(bom)), "utf-8")
    return io.TextIOWrapper(buffered, encoding=encoding, errors="replace", newline=None)


def binary(text: str) -> str:
    """Why a line with a NUL byte is not read: UTF-16 text, or binary data."""
    for start, order in ((1, "le"), (0, "be")):
        nuls, chars = text[start::2], text[1 - start :: 2].rstrip("\r\n")
        if nuls.strip("\x00\r\n") == "" and chars and chars.replace("\x00", "").isprintable():
            return f"a NUL byte after every character: UTF-16 text with no byte-order mark (--encoding utf-16-{order})"
    return "a NUL byte: binary data, not text (no option reads it)"


def pieces(lines: Iterable[str]) -> Iterator[str]:
    """The lines of ``lines``, any longer than :data:`LIMIT` in pieces."""
    if isinstance(lines, io.TextIOBase):
        return iter(functools.partial(lines.readline, LIMIT), "")
    if isinstance(lines, (io.BufferedIOBase, io.RawIOBase)):
        return pieces(open_text(lines))  # type: ignore[arg-type]
    return _sliced(lines)


def _sliced(lines: Iterable[str]) -> Iterator[str]:
    for text in lines:
        if len(text) < LIMIT:
            yield text
            continue
        for start in range(0, len(text), LIMIT):
            piece = text[start : start + LIMIT]
            yield piece + "\n" if start + LIMIT >= len(text) and len(piece) == LIMIT else piece


def continues(piece: str) -> bool:
    """Whether ``piece`` is LIMIT characters of a longer line."""
    return len(piece) >= LIMIT and not piece.endswith("\n")


GROUPS = frozenset({"disk", "src", "dst", "step"})
"""The named groups of a ``--pattern``: src and dst needed, disk and step optional."""


def by_pattern(lines: Iterable[str], pattern: re.Pattern[str]) -> Iterator[str]:
    """Each line that ``pattern`` matches, as one plain move; others blank.

    >>> move = re.compile(r"(?P<step>\\d+): (?P<src>\\w+) => (?P<dst>\\w+)")
    >>> list(by_pattern(["1: A => C\\n", "done\\n"], move))
    ['A -> C\\n', '\\n']
    """
    for text in lines:
        m = pattern.search(text)
        if m is None:
            yield "\n"
            continue
        src, dst = (_label(m["src"]), _label(m["dst"]))
        disk = m.groupdict().get("disk")
        yield f"Move disk {disk.strip()} from {src} to {dst}\n" if disk else f"{src} -> {dst}\n"


def _label(text: str) -> str:
    """A peg's label as one word: its letters and digits alone."""
    return "".join(ch for ch in text if ch.isalnum()) or "?"


_LONE = re.compile(r"(?<![^\W_])[A-Za-z0-9](?![^\W_])")
_NUMBER = re.compile(r"\d+")
_SEVERAL = re.compile(rf"(?i)(?<!from )(?<!to )\bfrom\b|{ARROW}")


def propose(text: str) -> str | None:
    """A ``--pattern`` that reads ``text`` as a move, or None.

    The last two lone letters or digits are the pegs, a number before them the disk.

    >>> propose("Sposta disco 1 dal perno 1 al perno 3")
    'Sposta disco (?P<disk>\\\\d+) dal perno (?P<src>\\\\w) al perno (?P<dst>\\\\w)'
    """
    text = text.strip()
    if len(_SEVERAL.findall(text)) > 1:
        return None  # several moves on the line: a pattern would read one of them
    pegs = list(_LONE.finditer(text))
    if len(pegs) < 2:
        return None
    src, dst = pegs[-2], pegs[-1]
    if src[0].isdigit() != dst[0].isdigit():
        return None  # a digit and a letter: not two labels of one kind
    disks = [m for m in _NUMBER.finditer(text, 0, src.start()) if m.end() <= src.start()]
    cuts = [(src.start(), src.end(), r"(?P<src>\w)"), (dst.start(), dst.end(), r"(?P<dst>\w)")]
    if disks:
        cuts.insert(0, (disks[-1].start(), disks[-1].end(), r"(?P<disk>\d+)"))
    out, end = [], 0
    for start, stop, group in cuts:
        out += [_literal(text[end:start]), group]
        end = stop
    pattern = "".join([*out, _literal(text[end:])])
    return pattern if re.search(pattern, text) else None


def _literal(text: str) -> str:
    """``text`` as a regular expression, any number standing for any."""
    return r"\d+".join(re.escape(part).replace("\\ ", " ") for part in _NUMBER.split(text))
