"""How another program names its pegs: the conventions, and the choice."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

from hanoi_harness.core.verdict import one_of
from hanoi_harness.errors import UsageError
from hanoi_harness.transcript import lexicon

WORDS: Mapping[str, int] = MappingProxyType(
    {
        word: peg
        for peg, words in enumerate(
            (
                "left source src start from first begin origin initial"
                " origen origem inicio início quelle anfang départ depart izquierda links gauche esquerda 源"
                " sinistra sx origine partenza",
                "middle mid center centre auxiliary auxilary auxillary aux spare helper via temp tmp temporary"
                " intermediate second other auxiliar intermedio intermediario intermediário medio meio centro"
                " hilfe hilfs zwischen mitte milieu intermédiaire 辅 appoggio ausiliario ausiliaria central",
                "right target destination dest dst end to third final goal finish"
                " destino ziel arrivée arrivee derecha rechts droite droit direita 目 destra dx destinazione arrivo",
            )
        )
        for word in words.split()
    }
)
"""Peg names read without ``--pegs``: the start peg 0, the middle 1, the end 2."""

KEYWORDS = frozenset(
    {"disk", "disc", "ring", "disks", "discs", "rings", "step", "the", "peg", "pegs", "pole", "rod", "tower"}
    | {"pillar", "post", "needle", "column", "stack", "spindle", "stick", "pin"}
    | lexicon.DISK
    | lexicon.DISKS
    | lexicon.PEGWORD
    | (lexicon.STEP - {"第", "步"})
)
"""Words read as part of a sentence, never as a peg's name."""

LETTER_SETS = tuple(
    tuple(letters) for letters in ("SAD", "SHD", "STD", "SID", "SMD", "XYZ", "LMR", "LCR", "FVT", "FUT", "PQR")
)
"""Letter sets seen in programs, start peg first."""

_NAME = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class PegNames:
    """A convention: the labels a program writes for each peg.

    ``index`` maps every accepted spelling of a label to its peg.

    >>> names = PegNames.of("S,A,D")
    >>> names.peg("d"), names.labels
    (2, ('S', 'A', 'D'))
    >>> PegNames.of("a-d", 4).labels
    ('A', 'B', 'C', 'D')
    """

    name: str
    labels: tuple[str, ...]
    index: Mapping[str, int]

    @classmethod
    def of(cls, name: str, pegs: int = 3) -> PegNames:
        """The convention ``--pegs`` calls ``name``, or raise :class:`UsageError`."""
        table = conventions(pegs)
        builtin = table.get(name.strip().lower())
        if builtin is not None:
            return builtin
        labels = tuple(part.strip() for part in name.split(","))
        problem = _bad_names(labels, pegs)
        if problem and _OTHER_COUNT.fullmatch(name.strip()):
            problem = f"not a convention of {pegs} pegs"
        if problem:
            raise UsageError(f"--pegs {name!r}: {problem}; expected {_expected(pegs)}")
        return cls.listed(",".join(labels), labels)

    @classmethod
    def listed(cls, name: str, labels: tuple[str, ...]) -> PegNames:
        """The convention *name* whose *labels* are the pegs', peg 0 first."""
        return cls(name, labels, _spellings({label: peg for peg, label in enumerate(labels)}))

    @property
    def cyclic(self) -> bool:
        return self.name == "cyclic"

    def peg(self, label: str) -> int:
        """The peg that ``label`` names, or raise :class:`ValueError`."""
        found = self.index.get(label)
        if found is None:
            found = self.index.get(label.lower())
        if found is None:
            raise ValueError(f"peg {quote(label)} is not {one_of(self.labels)} (pegs read as {self.name})")
        return found


_OTHER_COUNT = re.compile(r"(?i)\d+-\d+|[a-z]-[a-z]|words")


def _expected(pegs: int) -> str:
    """The conventions of *pegs* pegs, for a message.

    >>> _expected(3)
    '0-2, 1-3, A-C, words, cyclic or three names in order (e.g. S,A,D or left,centre,right)'
    >>> _expected(4)
    '0-3, 1-4, A-D, cyclic or 4 names in order (e.g. S,A,B,D)'
    """
    if pegs == 3:
        return "0-2, 1-3, A-C, words, cyclic or three names in order (e.g. S,A,D or left,centre,right)"
    builtin = ", ".join(names.name for names in conventions(pegs).values())
    return f"{builtin} or {pegs} names in order (e.g. {example(pegs)})"


def example(pegs: int) -> str:
    """Names for *pegs* pegs, start peg first, that ``--pegs`` takes as is.

    >>> example(4), example(27)[:12], example(100)
    ('S,A,B,D', 'P1,P2,P3,P4,', 'P1,P2,...,P100')
    """
    if pegs <= 26:
        middle = [letter for letter in _letters(26) if letter not in "SD"][: pegs - 2]
        return ",".join(["S", *middle, "D"])
    if pegs <= 40:
        return ",".join(f"P{peg}" for peg in range(1, pegs + 1))
    return f"P1,P2,...,P{pegs}"


def _others(count: int) -> list[str]:
    """Placeholders for *count* names: OTHER, or OTHER1, OTHER2, ..."""
    return ["OTHER"] if count == 1 else [f"OTHER{k}" for k in range(1, count + 1)]


def quote(text: str, width: int = 60) -> str:
    """``text`` stripped and quoted, cut to about ``width`` characters.

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
    """Each label as written, in upper, lower and title case."""
    index: dict[str, int] = {}
    for label, peg in labels.items():
        for spelling in (label.lower(), label.upper(), label.title(), label):
            index.setdefault(spelling, peg)
    return MappingProxyType(index)


def _bad_names(labels: tuple[str, ...], pegs: int = 3) -> str | None:
    """Why ``labels`` cannot name *pegs* pegs, or None."""
    if len(labels) != pegs:
        return "not a convention" if len(labels) == 1 else f"{len(labels)} names, not {pegs}"
    for label in labels:
        if not _NAME.fullmatch(label):
            return f"{label!r} is not one word of letters or digits"
        if label.lower() in KEYWORDS:
            return f"{label!r} is read as a keyword, not a peg"
    if len({label.lower() for label in labels}) < len(labels):
        return "the names must differ"
    return None


_BUILTIN = {
    "0-2": PegNames.listed("0-2", ("0", "1", "2")),
    "1-3": PegNames.listed("1-3", ("1", "2", "3")),
    "a-c": PegNames.listed("A-C", ("A", "B", "C")),
    "words": PegNames("words", ("left", "middle", "right"), _spellings(WORDS)),
    "cyclic": PegNames.listed("cyclic", ("0", "1", "2")),
}
CONVENTIONS = tuple(names.name for names in _BUILTIN.values())
"""The built-in conventions' names, as ``--pegs`` takes them."""


def _letters(count: int) -> tuple[str, ...]:
    """The first *count* capital letters, A first."""
    return tuple(chr(ord("A") + i) for i in range(count))


@cache
def conventions(pegs: int = 3) -> Mapping[str, PegNames]:
    """The built-in conventions of *pegs* pegs, by their names in lower case.

    >>> list(conventions(4))
    ['0-3', '1-4', 'a-d', 'cyclic']
    >>> conventions(4)["1-4"].peg("4")
    3
    """
    if pegs == 3:
        return MappingProxyType(_BUILTIN)
    digits = tuple(map(str, range(pegs)))
    table = {
        f"0-{pegs - 1}": PegNames.listed(f"0-{pegs - 1}", digits),
        f"1-{pegs}": PegNames.listed(f"1-{pegs}", tuple(str(peg + 1) for peg in range(pegs))),
    }
    if pegs <= 26:
        letters = _letters(pegs)
        table[f"a-{letters[-1].lower()}"] = PegNames.listed(f"A-{letters[-1]}", letters)
    table["cyclic"] = PegNames("cyclic", digits, table[f"0-{pegs - 1}"].index)
    return MappingProxyType(table)


def detect(src: str | None, dst: str, pegs: int = 3, occupied: frozenset[int] = frozenset({0})) -> PegNames:
    """The convention of a program from its first move, ``src`` to ``dst``.

    Letters or names it cannot place raise ValueError naming ``--pegs``.

    >>> [detect(s, d).name for s, d in (("A", "c"), ("1", "3"), ("1", "2"), ("0", "2"), ("Source", "to"))]
    ['A-C', '1-3', '1-3', '0-2', 'words']
    >>> detect("2", "1", occupied=frozenset({2})).name, detect("1", "2", occupied=frozenset({1})).name
    ('0-2', '0-2')
    >>> detect("D", "B", 4).name, detect("1", "4", 4).name
    ('A-D', '1-4')
    >>> detect("S", "D")
    Traceback (most recent call last):
    ...
    ValueError: the pegs 'S' and 'D' are letters but not A, B, C: say which is which, start peg first, \
    with --pegs (here --pegs S,A,D)
    """
    table = conventions(pegs)
    if src is None:
        return table["cyclic"]
    if src.isdigit() and dst.isdigit():
        return table[f"1-{pegs}" if _from_one(src, dst, pegs, occupied) else f"0-{pegs - 1}"]
    letters = _letters(min(pegs, 26))
    if len(src) == len(dst) == 1 and src.isalpha() and dst.isalpha():
        if pegs <= 26 and {src.upper(), dst.upper()} <= set(letters):
            return table[f"a-{letters[-1].lower()}"]
        raise ValueError(
            f"the pegs {src!r} and {dst!r} are letters but not {', '.join(letters)}: say which is which, start peg "
            f"first, with --pegs (here --pegs {_letters_for(src.upper(), dst.upper(), pegs)})"
        )
    if pegs == 3 and src.lower() in WORDS and dst.lower() in WORDS:
        return _BUILTIN["words"]
    if src.isdigit() != dst.isdigit():
        raise ValueError(f"the pegs {quote(src, 30)} and {quote(dst, 30)} are not written alike")
    known = "0-2, 1-3, A-C or known names" if pegs == 3 else ", ".join(n.name for n in table.values() if not n.cyclic)
    others = ",".join(_others(pegs - 2))
    raise ValueError(
        f"the pegs {quote(src, 30)} and {quote(dst, 30)} are not {known}: name the {pegs} pegs, "
        f"start peg first, with --pegs (e.g. --pegs {src if len(src) < 30 else 'FIRST'},{others},"
        f"{dst if len(dst) < 30 else 'LAST'})"
    )


def _from_one(src: str, dst: str, pegs: int, occupied: frozenset[int]) -> bool:
    """Whether a first move in digits counts its pegs from 1."""
    if "0" in (src, dst) or src.startswith("0") or dst.startswith("0"):
        return False
    if str(pegs) in (src, dst):
        return True
    holds = {str(peg) for peg in occupied}
    return src in {str(peg + 1) for peg in occupied} and src not in holds


def _letters_for(src: str, dst: str, pegs: int = 3) -> str:
    """The known letter set a first move fits, else a pattern."""
    for letters in LETTER_SETS if pegs == 3 else ():
        if letters[0] == src and dst in letters[1:]:
            return ",".join(letters)
    return ",".join([src, *_others(pegs - 2), dst])
