"""How another program names its pegs: the conventions ``hanoi check`` reads, and how one is chosen.

A convention maps the labels a program prints to the model's pegs 0, 1 and 2
(the start peg first).  The built-in ones are ``0-2``, ``1-3``, ``A-C``
(letters in either case), ``words`` (common names such as left/middle/right
or source/auxiliary/target, see :data:`WORDS`) and ``cyclic`` (lines that
give a disk and a direction, ``1 left``, on a circle of three pegs); any
other is three names in order, ``S,A,D``.  :func:`detect` picks one from a
program's first move when the user gave none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from hanoi_harness.errors import UsageError

WORDS: Mapping[str, int] = MappingProxyType(
    {
        word: peg
        for peg, words in enumerate(
            (
                "left source src start from first begin origin initial",
                "middle mid center centre auxiliary auxilary auxillary aux spare helper via temp tmp temporary"
                " intermediate second other",
                "right target destination dest dst end to third final goal finish",
            )
        )
        for word in words.split()
    }
)
"""Peg names read without ``--pegs`` (any case): each is the start peg 0, the middle peg 1 or peg 2."""

KEYWORDS = frozenset(
    {"disk", "disc", "ring", "disks", "discs", "rings", "step", "the", "peg", "pegs", "pole", "rod", "tower"}
    | {"pillar", "post", "needle", "column", "stack", "spindle", "stick", "pin"}
)
"""Words the reader takes as part of a sentence, never as a peg's name (``--pegs`` refuses them)."""

LETTER_SETS = (
    ("S", "A", "D"),
    ("S", "H", "D"),
    ("S", "T", "D"),
    ("S", "I", "D"),
    ("S", "M", "D"),
    ("X", "Y", "Z"),
    ("L", "M", "R"),
    ("L", "C", "R"),
    ("F", "V", "T"),
    ("F", "U", "T"),
    ("P", "Q", "R"),
)
"""Letter sets seen in programs (source/auxiliary/destination, left/middle/right, ...), start peg first."""

_NAME = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class PegNames:
    """A convention: its ``name`` (as ``--pegs`` spells it), the ``labels`` written for pegs 0-2, and
    ``index``, every accepted spelling of a label mapped to its peg (look-ups fall back to lower case).

    >>> names = PegNames.of("S,A,D")
    >>> names.peg("d"), names.labels
    (2, ('S', 'A', 'D'))
    """

    name: str
    labels: tuple[str, str, str]
    index: Mapping[str, int]

    @classmethod
    def of(cls, name: str) -> PegNames:
        """The convention ``--pegs`` calls ``name``; :class:`UsageError` for anything else."""
        builtin = _BUILTIN.get(name.strip().lower())
        if builtin is not None:
            return builtin
        labels = tuple(part.strip() for part in name.split(","))
        problem = _bad_names(labels)
        if problem:
            raise UsageError(
                f"--pegs {name!r}: {problem}; expected 0-2, 1-3, A-C, words, cyclic or three names in order "
                "(e.g. S,A,D or left,centre,right)"
            )
        index = _spellings({label: peg for peg, label in enumerate(labels)})
        return cls(",".join(labels), (labels[0], labels[1], labels[2]), index)

    @property
    def cyclic(self) -> bool:
        return self.name == "cyclic"

    def peg(self, label: str) -> int:
        """The peg ``label`` names, or :class:`ValueError` saying which labels this convention has."""
        found = self.index.get(label)
        if found is None:
            found = self.index.get(label.lower())
        if found is None:
            raise ValueError(f"peg {quote(label)} is not one of {', '.join(self.labels)} (pegs read as {self.name})")
        return found


def quote(text: str, width: int = 60) -> str:
    """``text`` stripped and quoted, cut to about ``width`` characters once quoted (escapes count).

    >>> quote("  A -> C\\n"), quote("x" * 100, 10), quote("\\x00" * 100, 20)
    ("'A -> C'", "'xxxxxxxxxx...'", "'\\\\x00\\\\x00\\\\x00\\\\x00...'")
    """
    text = text.strip()
    shown = repr(text)
    if len(shown) <= width + 2:
        return shown
    size = width
    while len(repr(text[:size])) > width + 2:
        size = size * 3 // 4
    return repr(text[:size] + "...")


def _spellings(labels: Mapping[str, int]) -> Mapping[str, int]:
    """Each label as written, in upper, lower and title case: the look-ups of the commonest spellings hit first."""
    index: dict[str, int] = {}
    for label, peg in labels.items():
        for spelling in (label.lower(), label.upper(), label.title(), label):
            index.setdefault(spelling, peg)
    return MappingProxyType(index)


def _bad_names(labels: tuple[str, ...]) -> str | None:
    """Why ``labels`` cannot name three pegs, or None."""
    if len(labels) != 3:
        return "not a convention" if len(labels) == 1 else f"{len(labels)} names, not 3"
    for label in labels:
        if not _NAME.fullmatch(label):
            return f"{label!r} is not one word of letters or digits"
        if label.lower() in KEYWORDS:
            return f"{label!r} is read as a keyword, not a peg"
    if len({label.lower() for label in labels}) < 3:
        return "the names must differ"
    return None


_BUILTIN = {
    "0-2": PegNames("0-2", ("0", "1", "2"), _spellings({"0": 0, "1": 1, "2": 2})),
    "1-3": PegNames("1-3", ("1", "2", "3"), _spellings({"1": 0, "2": 1, "3": 2})),
    "a-c": PegNames("A-C", ("A", "B", "C"), _spellings({"A": 0, "B": 1, "C": 2})),
    "words": PegNames("words", ("left", "middle", "right"), _spellings(WORDS)),
    "cyclic": PegNames("cyclic", ("0", "1", "2"), _spellings({"0": 0, "1": 1, "2": 2})),
}
CONVENTIONS = tuple(names.name for names in _BUILTIN.values())
"""The built-in conventions' names, as ``--pegs`` takes them."""


def detect(src: str | None, dst: str) -> PegNames:
    """The convention of a program whose first move goes from ``src`` to ``dst`` (``src`` None: a direction).

    Digits are 1-3 when the move has no 0 and either leaves peg 1 (the start
    peg in 1-3) or names peg 3, and 0-2 otherwise; letters A-C; known names
    (:data:`WORDS`) words.  Other letters or names raise :class:`ValueError`
    with the ``--pegs`` that would read them.

    >>> [detect(s, d).name for s, d in (("A", "c"), ("1", "3"), ("1", "2"), ("0", "2"), ("Source", "to"))]
    ['A-C', '1-3', '1-3', '0-2', 'words']
    >>> detect("S", "D")
    Traceback (most recent call last):
    ...
    ValueError: the pegs 'S' and 'D' are letters but not A, B, C: say which is which, start peg first, \
with --pegs (here --pegs S,A,D)
    """
    if src is None:
        return _BUILTIN["cyclic"]
    if src.isdigit() and dst.isdigit():
        return _BUILTIN["1-3" if "0" not in (src, dst) and (src == "1" or "3" in (src, dst)) else "0-2"]
    if len(src) == len(dst) == 1 and src.isalpha() and dst.isalpha():
        if {src.upper(), dst.upper()} <= {"A", "B", "C"}:
            return _BUILTIN["a-c"]
        raise ValueError(
            f"the pegs {src!r} and {dst!r} are letters but not A, B, C: say which is which, start peg first, "
            f"with --pegs (here --pegs {_letters_for(src.upper(), dst.upper())})"
        )
    if src.lower() in WORDS and dst.lower() in WORDS:
        return _BUILTIN["words"]
    if src.isdigit() != dst.isdigit():
        raise ValueError(f"the pegs {quote(src, 30)} and {quote(dst, 30)} are not written alike")
    raise ValueError(
        f"the pegs {quote(src, 30)} and {quote(dst, 30)} are not 0-2, 1-3, A-C or known names: name the three pegs, "
        f"start peg first, with --pegs (e.g. --pegs {src if len(src) < 30 else 'FIRST'},OTHER,"
        f"{dst if len(dst) < 30 else 'THIRD'})"
    )


def _letters_for(src: str, dst: str) -> str:
    """The known letter set a first move from ``src`` to ``dst`` fits (it leaves the start peg), else a pattern."""
    for letters in LETTER_SETS:
        if letters[0] == src and dst in letters[1:]:
            return ",".join(letters)
    return f"{src},OTHER,{dst}"
