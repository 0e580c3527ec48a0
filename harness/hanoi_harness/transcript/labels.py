"""A program's own peg labels, inferred from its moves, and their order."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hanoi_harness.errors import UsageError
from hanoi_harness.transcript.lexicon import FROM
from hanoi_harness.transcript.pegs import LETTER_SETS, WORDS, PegNames, conventions, detect
from hanoi_harness.transcript.tokens import MARK, tokens

if TYPE_CHECKING:
    from hanoi_harness.transcript import rules
    from hanoi_harness.transcript.infer import Inference

_NUMBERED = re.compile(r"([^\W\d_]{1,10})(\d{1,3})")


def own_names(
    result: Inference, found: list[tuple[str, list[rules.Move]]], pegs: int, before: list[str], symmetric: bool
) -> None:
    """Decide the peg names, from labels that no built-in convention reads."""
    first: dict[str, None] = {}
    for _, moves in found:
        for _, src, dst in moves:
            for label in (src, dst):
                if label is not None:
                    first.setdefault(label, None)
    seen = _distinct(first)
    (_, src0, dst0) = found[0][1][0]
    try:
        builtin = detect(src0, dst0, pegs)
        if all(_known(builtin, label) for label in seen):
            return
    except ValueError:
        pass
    if any(all(_known(names, label) for label in seen) for names in conventions(pegs).values() if not names.cyclic):
        return  # a built-in convention reads them all (0-2 when the tower starts elsewhere): the reader's rule
    if len(seen) != pegs or len({_kind(label) for label in seen}) > 1:
        return  # the reader says which label it cannot read, and names --pegs
    order = _order(seen, pegs)
    start = str(src0)
    if order is None and _kind(start) != "w":
        return  # letters or digits out of any order (A, C, D): a slip, which the reader names, or --pegs
    if order is None:
        rest = [label for label in seen if label.lower() != start.lower()]
        order = [start, *rest]
        said = _announced(before, seen)
        example = f"--pegs {','.join(order)}"
        if said is not None and said.lower() != start.lower():
            others = [label for label in seen if label.lower() != said.lower()]
            result.refusal = (
                f"the text before the moves names {said} as the start peg, but the first move leaves {start}: "
                f"say which holds the tower with --pegs (e.g. {example}, or --pegs {','.join([said, *others])})"
            )
            return
        if said is not None:
            why = "the start peg first, as the text before the moves says"
        elif not symmetric:
            result.refusal = (
                f"the pegs {', '.join(seen)} have no order of their own, and with these rules or ends the verdict "
                f"depends on it: name them start peg first with --pegs (e.g. {example})"
            )
            return
        else:
            why = "the first move's source first"
            result.unsure = (
                f"the pegs {', '.join(seen)} have no order of their own and nothing before the moves says which "
                f"holds the tower: with {start} (the first move's source) the {{moves}} moves solve the puzzle, "
                f"with {' or '.join(rest)} move 1 leaves an empty peg; say which with {example} (start peg first)"
            )
    elif order[0].lower() != start.lower():  # two readings: the names' start peg, or the first move's source
        others = [label for label in order if label.lower() != start.lower()]
        result.refusal = (
            f"the names {', '.join(order)} put {order[0]} first, but the first move leaves {start}: say which "
            f"holds the tower with --pegs (--pegs {','.join(order)} makes move 1 illegal; --pegs "
            f"{','.join([start, *others])} reads it from {start})"
        )
        return
    else:
        why = "in the order their names give"
    try:
        result.names = PegNames.of(",".join(order), pegs)
    except UsageError:  # a label that --pegs refuses (a keyword): the reader refuses the line
        return
    result.notes.append(f"read pegs {', '.join(order)} ({why}; --pegs to say otherwise)")


def _announced(before: list[str], labels: list[str]) -> str | None:
    """The start peg that the text before the moves names, or None."""
    wanted = {label.lower(): label for label in labels}
    listed: str | None = None
    for text in before:
        toks = [tok for tok in tokens(text) if tok.kind != MARK or tok.low not in _LEGEND_MARKS]
        seen: list[str] = []
        for i, tok in enumerate(toks):
            if tok.low not in wanted:
                continue
            if i and (toks[i - 1].low in FROM or WORDS.get(toks[i - 1].low) == 0):
                return wanted[tok.low]
            seen.append(tok.low)
        if listed is None and len(set(seen)) == len(labels):
            listed = wanted[seen[0]]
    return listed


_LEGEND_MARKS = frozenset(":=,'\"()[]")


def builtin_names(result: Inference, found: list[tuple[str, list[rules.Move]]], pegs: int) -> None:
    """Decide the built-in convention of the labels, when moves name no source."""
    labels = {label for _, moves in found for _, src, dst in moves for label in (src, dst) if label is not None}
    for names in conventions(pegs).values():
        if not names.cyclic and labels and all(_known(names, label) for label in labels):
            if names.name[0].isdigit() and not ("0" in labels or str(pegs) in labels):
                return  # digits 1 and 2 alone: from 0 or from 1?  The reader asks for --pegs
            result.names = names
            result.notes.append(f"read pegs as {names.name}, the labels the moves use (--pegs)")
            return


def _distinct(first: dict[str, None]) -> list[str]:
    """The labels in order of first appearance, one spelling each (case aside)."""
    out: dict[str, str] = {}
    for label in first:
        out.setdefault(label.lower(), label)
    return list(out.values())


def _kind(label: str) -> str:
    """A label's kind: n(umber), l(etter) or w(ord), alike in a program."""
    return "n" if label.isdecimal() else "l" if len(label) == 1 else "w"


def _known(names: PegNames, label: str) -> bool:
    try:
        names.peg(label)
    except ValueError:
        return False
    return True


def _order(labels: list[str], pegs: int) -> list[str] | None:
    """The order the labels' names give, start peg first, or None."""
    upper = {label.upper(): label for label in labels}
    if pegs == 3:
        for letters in LETTER_SETS:
            if set(letters) == set(upper):
                return [upper[letter] for letter in letters]
    ranks = [WORDS.get(label.lower()) for label in labels]
    known = {rank for rank in ranks if rank is not None}
    if pegs == 3 and ranks.count(None) == 1 and len(known) == 2:  # 'from', 'to' and 'using': the third is the rest
        ranks[ranks.index(None)] = ({0, 1, 2} - known).pop()
    if pegs == 3 and None not in ranks and len(set(ranks)) == 3:
        return [label for _, label in sorted(zip(ranks, labels, strict=True))]
    numbered = [(m[1].lower(), int(m[2]), label) for label in labels if (m := _NUMBERED.fullmatch(label))]
    if len(numbered) == len(labels) and len({prefix for prefix, _, _ in numbered}) == 1:  # T1, T2, T3
        codes = sorted(code for _, code, _ in numbered)
        if codes == list(range(codes[0], codes[0] + len(codes))):
            return [label for _, _, label in sorted(numbered)]
    if all(len(label) == 1 and label.isalpha() for label in labels) or all(label.isdecimal() for label in labels):
        ordered = sorted(labels, key=lambda label: (len(label), label.upper()))
        codes = [int(label) if label.isdecimal() else ord(label.upper()) for label in ordered]
        if codes == list(range(codes[0], codes[0] + len(codes))):  # consecutive: X, Y, Z or P, Q, R
            return ordered
    return None
