"""A line of another program's output cut into tokens."""

from __future__ import annotations

import re
from typing import NamedTuple

from hanoi_harness.transcript import lexicon

ARROW = r"(?:[-‐-―−]+ ?>|=+ ?>|[→⟶⇒⟹➔➜])"
"""An arrow: dashes or '=' then '>' (``A - > B``, ``A—>B``), or an arrow sign."""
# CJK text has no spaces: an ideogram is a token, and so is a run of hiragana, katakana or hangul ('A에서', '1を').
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HIRAGANA, _KATAKANA, _HANGUL = "\u3040-\u309f", "\u30a0-\u30ff", "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
CJK = _HIRAGANA + _KATAKANA + _HAN + _HANGUL
# A run of '-' or '=' is one token, an arrow if '>' ends it: read once, not once a dash (quadratic).
_TOKEN = re.compile(
    rf"(\d+)|([{_HAN}]|[{_HIRAGANA}]+|[{_KATAKANA}]+|[{_HANGUL}]+|[^\W\d_{CJK}][^\W_{CJK}]*)"
    r"|([-‐-―−]+(?: ?>)?|=+(?: ?>)?|[→⟶⇒⟹➔➜])|(\S)"
)
NUM, WORD, ARROWS, MARK = 1, 2, 3, 4
_WIDE = {"：": ":", "，": ",", "。": ".", "；": ";", "（": "(", "）": ")", "！": "!", "？": "?", "【": "[", "】": "]"}

_PEGWORD, _DISK = lexicon.PEGWORD, lexicon.DISK
# "peg1", "rodA", "disk3": a keyword and a label in one word
_GLUABLE = sorted(_PEGWORD | _DISK | {"to", "from"}, key=len, reverse=True)
_JOINED = re.compile("(" + "|".join(_GLUABLE) + r")(?:\d+|[a-z])")
# "plate3", "Scheibe3": any word of two letters or more with a number glued to its end
_GLUED = re.compile(r"[^\W\d_]{2,}(?=\d+$)")
IDEOGRAM = re.compile(f"[{CJK}]")
"""A character of Chinese, Japanese or Korean text: never a peg letter."""


class Token(NamedTuple):
    """A token of a line: its kind, text, lower case, spacing and origin."""

    kind: int
    text: str
    low: str
    spaced: bool
    joined: bool = False


def tokens(text: str) -> list[Token]:
    """The tokens of ``text``, in one pass.

    >>> [t.text for t in tokens("1: disk 2 peg1-->rod 'C'.")]
    ['1', ':', 'disk', '2', 'peg', '1', '-->', 'rod', "'", 'C', "'", '.']
    >>> [t.text for t in tokens("第1步：从A移到C")]
    ['第', '1', '步', '：', '从', 'A', '移', '到', 'C']
    """
    out: list[Token] = []
    end = 0
    for m in _TOKEN.finditer(text):
        kind, word, start = m.lastindex or MARK, m[0], m.start()
        if kind == ARROWS and word[-1] in "-=\u2010\u2011\u2012\u2013\u2014\u2015\u2212":
            kind = MARK  # dashes or '=' with no '>'
        spaced, end = start > end, m.end()
        low = _WIDE.get(word, word) if kind == MARK else word.lower()
        if kind == WORD and len(word) > 1:
            split = _split_joined(word, low) or _particle(word)
            if split:
                out += [Token(WORD, word[:split], low[:split], spaced), _label(word[split:], spaced=False)]
                continue
        out.append(Token(kind, word, low, spaced))
    return out


def _particle(word: str) -> int:
    """Where a Korean word splits from the particle it ends with, or 0."""
    if not IDEOGRAM.match(word):
        return 0
    for particle in lexicon.KOREAN_PARTICLES:
        if len(word) > len(particle) and word.endswith(particle):
            return len(word) - len(particle)
    return 0


def _split_joined(word: str, low: str) -> int:
    """Where a word such as ``peg1`` splits into a word and a label, or 0."""
    if low[1:] == "to" and word[0].isupper():
        return 1  # 'from Ato B': a peg glued to 'to'
    m = _JOINED.fullmatch(low)
    if m is None:
        glued = _GLUED.match(word)
        return glued.end() if glued else 0
    split = m.end(1)
    rest = word[split:]
    return split if rest.isdecimal() or ("A" <= rest <= "Z" and not word[:split].isupper()) else 0


def _label(text: str, *, spaced: bool) -> Token:
    return Token(NUM if text.isdecimal() else WORD, text, text.lower(), spaced, joined=True)
