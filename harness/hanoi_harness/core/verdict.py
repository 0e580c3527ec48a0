"""Verdicts: what the checker found for one run, and why it failed.

A verdict is plain data: :meth:`Verdict.to_dict` and :meth:`Verdict.from_dict` round-trip it exactly.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, cast, get_args

from hanoi_harness.core.optimal import CONJECTURE

Status = Literal["ok", "illegal", "incomplete", "not_optimal", "crashed", "timed_out"]

STATUSES: tuple[Status, ...] = get_args(Status)

Rule = Literal[
    "not_a_triple",  # the move is not a (disk, src, dst) triple
    "odd_move",  # a move from the sandbox that is not three integers of 64 bits: known by its type and repr
    "bad_peg",  # a source or destination that is not an integer 0..pegs-1
    "same_peg",  # source and destination are the same peg
    "forbidden_move",  # the variant's rule (cyclic, linear) does not allow a move between these pegs
    "empty_source",  # the source peg holds no disk
    "not_integer",  # the disk is not an integer
    "not_on_top",  # the disk is not the source's top disk
    "larger_on_smaller",  # the destination's top disk is smaller
    "bad_chunk",  # a chunk of moves that is not an integer array of shape (m, 3)
    "still_moving",  # legal moves past the cap (see hanoi_harness.core.checker.move_cap)
    "spread",  # the moves end with the disks on more than one peg
    "wrong_peg",  # the moves end with the tower on a peg it may not end on
    "not_at_goal",  # the moves end elsewhere than the goal configuration the run was given
    "wrong_count",  # the disks are where they should be, after a number of moves that is not optimal
    "crashed",  # the algorithm or its process failed; the detail says how
    "timed_out",  # no verdict in time; the detail says how long
    "other",  # a failure known only by its text (the detail)
]

RULES: tuple[Rule, ...] = get_args(Rule)

Value = int | str  #: A field of a move as given: an integer, or the repr of what was given.

Labels = Sequence[str] | None  #: The names of pegs 0, 1, ... as a reader writes them; None writes numbers.


def value_of(given: Any) -> Value:
    """The integer *given* is (numpy's too), or its repr when it is no integer.

    >>> value_of(2), value_of(True), value_of("0"), value_of(0.0)
    (2, 'True', "'0'", '0.0')
    """
    if isinstance(given, numbers.Integral) and not isinstance(given, bool):
        return int(given)
    return repr(given)


def label(peg: Any, labels: Labels) -> str:
    """Write peg *peg* with *labels*; any other value as it is.

    >>> label(2, ("A", "B", "C")), label(2, None), label(5, ("A", "B", "C")), label(True, ("A", "B", "C"))
    ('C', '2', '5', 'True')
    """
    if labels is not None and isinstance(peg, numbers.Integral) and not isinstance(peg, bool):
        if 0 <= int(peg) < len(labels):
            return labels[int(peg)]
    return str(peg)


@dataclass(frozen=True, repr=False)
class Failure:
    """Which rule a run broke, and the values involved.

    Each rule fills the fields it speaks of (docs/project/core.md lists them); :meth:`text` says it in words.
    """

    rule: Rule
    disk: Value | None = None
    src: Value | None = None
    dst: Value | None = None
    side: Literal["source", "destination"] | None = None
    pegs: int | None = None
    top: int | None = None
    count: int | None = None
    optimal: int | None = None
    heights: tuple[int, ...] | None = None
    peg: int | None = None
    targets: tuple[int, ...] | None = None
    variant: str | None = None
    conjecture: str | None = None
    config: tuple[int, ...] | None = None
    goal: tuple[int, ...] | None = None
    detail: str = ""
    location: str = ""
    astray: int | None = None

    def __repr__(self) -> str:
        """The constructor call that makes this failure, with the fields set.

        >>> Failure("not_on_top", disk=2, src=0, dst=2, top=1)
        Failure('not_on_top', disk=2, src=0, dst=2, top=1)
        """
        fields_set = self.to_dict()
        rule = fields_set.pop("rule")
        return f"Failure({', '.join([repr(rule), *(f'{k}={getattr(self, k)!r}' for k in fields_set)])})"

    @classmethod
    def from_text(cls, status: str, text: str) -> Failure:
        """A failure known only by *text*: ``crashed``, ``timed_out`` or ``other``.

        >>> Failure.from_text("timed_out", "no verdict within 2 s").text()
        'no verdict within 2 s'
        """
        rule: Rule = "crashed" if status == "crashed" else "timed_out" if status == "timed_out" else "other"
        return cls(rule, detail=text)

    def text(self, labels: Labels = None) -> str:
        """The failure in words, pegs written with *labels* (numbers without).

        >>> f = Failure("not_on_top", disk=2, src=0, dst=2, top=1)
        >>> f.text(), f.text(("A", "B", "C"))
        ('disk 2 is not on top of peg 0 (its top is 1)', 'disk 2 is not on top of peg A (its top is 1)')
        """
        return _TEXTS[self.rule].format_map(self._words(labels))

    def _words(self, labels: Labels) -> dict[str, str]:
        """Each field as the text writes it: pegs through *labels*, lists joined."""
        pegs = labels if labels is not None else [str(p) for p in range(self.pegs or 0)]
        bad = self.src if self.side == "source" else self.dst
        return {
            "disk": str(self.disk),
            "src": label(self.src, labels),
            "dst": label(self.dst, labels),
            "side": str(self.side),
            "bad": str(bad),
            "allowed": one_of(pegs),
            "top": str(self.top),
            "count": str(self.count),
            "heights": "; ".join(f"peg {label(p, labels)}: {h}" for p, h in enumerate(self.heights or ())),
            "peg": label(self.peg, labels),
            "targets": " or ".join(label(p, labels) for p in self.targets or ()),
            "variant": str(self.variant),
            "lanes": lanes(str(self.variant), labels),
            "optimum": self._optimum(),
            "config": ",".join(label(p, labels) for p in self.config or ()),
            "goal": ",".join(label(p, labels) for p in self.goal or ()),
            "detail": self.detail,
            "at": f" (at {self.location})" if self.location else "",
            "astray": f"; step {self.astray} leaves every shortest solution" if self.astray else "",
        }

    def _optimum(self) -> str:
        """The optimal count in words: proven, conjectured, or unknown."""
        if self.optimal is None:
            return "no optimal count is known"
        if self.conjecture:
            return f"the {self.conjecture} is {self.optimal}, {CONJECTURE}"
        return f"optimal is {self.optimal}"

    def to_dict(self) -> dict[str, Any]:
        """The fields that are set, JSON-ready (tuples as lists).

        >>> Failure("wrong_peg", count=7, peg=1, targets=(2,)).to_dict()
        {'rule': 'wrong_peg', 'count': 7, 'peg': 1, 'targets': [2]}
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Failure:
        """The failure :meth:`to_dict` wrote."""
        kept: dict[str, Any] = {key: tuple(v) if isinstance(v, list) else v for key, v in data.items()}
        return cls(**kept)


def lanes(rule: str, labels: Labels = None) -> str:
    """The moves the puzzle's *rule* allows, in words, pegs with *labels*.

    >>> lanes("cyclic"), lanes("cyclic", ("A", "B", "C"))
    ('only 0->1, 1->2, 2->0', 'only A->B, B->C, C->A')
    >>> lanes("linear")
    'only moves between adjacent pegs (0-1, 1-2)'
    """
    a, b, c = (label(peg, labels) for peg in range(3))
    if rule == "cyclic":
        return f"only {a}->{b}, {b}->{c}, {c}->{a}"
    if rule == "linear":
        return f"only moves between adjacent pegs ({a}-{b}, {b}-{c})"
    return "every move"


def one_of(words: Sequence[str]) -> str:
    """List *words* for prose; more than ten as a range, first to last.

    >>> one_of(["0", "1", "2"]), one_of(["A", "B"]), one_of(["0"]), one_of([str(p) for p in range(12)])
    ('0, 1 or 2', 'A or B', '0', 'one of 0 .. 11')
    """
    if len(words) > 10:
        return f"one of {words[0]} .. {words[-1]}"
    return f"{', '.join(words[:-1])} or {words[-1]}" if len(words) > 1 else "".join(words)


_TEXTS: dict[Rule, str] = {
    "not_a_triple": "a move must be a (disk, src, dst) triple",
    "odd_move": "a move must be a triple of integers (disk, src, dst), not {detail}",
    "bad_peg": "{side} peg {bad} is not {allowed}",
    "same_peg": "source and destination are both peg {src}",
    "forbidden_move": "the {variant} rule allows {lanes}, not {src}->{dst}",
    "empty_source": "peg {src} is empty",
    "not_integer": "disk {disk} is not an integer",
    "not_on_top": "disk {disk} is not on top of peg {src} (its top is {top})",
    "larger_on_smaller": "disk {disk} cannot go onto the smaller disk {top} on peg {dst}",
    "bad_chunk": "a chunk must be an integer array of shape (m, 3), not {detail}",
    "still_moving": "still moving after {count} moves ({optimum}); stopped{astray}",
    "spread": "after {count} moves the disks are spread ({heights})",
    "wrong_peg": "after {count} moves the tower is on peg {peg}, not {targets}",
    "not_at_goal": "after {count} moves the disks are at {config}, not at the goal {goal}",
    "wrong_count": "{count} moves, {optimum}{astray}",
    "crashed": "{detail}{at}",
    "timed_out": "{detail}",
    "other": "{detail}",
}
"""How each rule is said; the fields are those of :meth:`Failure._words`."""


@dataclass(frozen=True, init=False)
class Verdict:
    """What the checker found for one run of n disks.

    ``step`` is 1-based; ``failure`` is None for ``ok``; ``extra`` is not compared nor serialised.  The fields:
    docs/project/core.md.
    """

    status: Status
    n: int
    moves: int
    digest: int = 0
    step: int | None = None
    move: Any = None
    tops: tuple[int | None, ...] | None = None
    final_peg: int | None = None
    failure: Failure | None = None
    optimality: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __init__(
        self,
        status: Status,
        n: int,
        moves: int,
        digest: int = 0,
        step: int | None = None,
        move: Any = None,
        reason: str = "",
        tops: Sequence[int | None] | None = None,
        final_peg: int | None = None,
        extra: dict[str, Any] | None = None,
        failure: Failure | None = None,
        optimality: str = "",
    ) -> None:
        if reason and failure is not None:
            raise TypeError("give a verdict a failure or a reason, not both")
        if reason:
            failure = Failure.from_text(status, reason)
        tops = None if tops is None else tuple(tops)
        values = (status, n, moves, digest, step, move, tops, final_peg, failure, optimality)
        for name, value in zip(_FIELDS, values, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "extra", {} if extra is None else extra)

    @property
    def ok(self) -> bool:
        """True when the run is legal, complete and optimal."""
        return self.status == "ok"

    @property
    def reason(self) -> str:
        """The failure in words, pegs as numbers ("" for ``ok``)."""
        return self.explain()

    def with_reason(self, text: str) -> Verdict:
        """The same verdict, its failure replaced by one known only as *text*.

        >>> Verdict("crashed", 3, 2, step=3, reason="died").with_reason("died twice").describe()
        'crashed at step 3: died twice'
        """
        return replace(self, failure=Failure.from_text(self.status, text))

    def explain(self, labels: Labels = None) -> str:
        """The failure in words, pegs written with *labels* ("" for ``ok``)."""
        return "" if self.failure is None else self.failure.text(labels)

    def describe(self, labels: Labels = None) -> str:
        """One line for a table cell or a log, pegs written with *labels*.

        >>> v = Verdict("incomplete", 1, 1, failure=Failure("wrong_peg", count=1, peg=1, targets=(2,)))
        >>> v.describe()
        'incomplete: after 1 moves the tower is on peg 1, not 2'
        >>> v.describe(("A", "B", "C"))
        'incomplete: after 1 moves the tower is on peg B, not C'
        >>> Verdict("ok", 2, 5, final_peg=1, optimality="optimal (proven)").describe()
        'ok (5 moves, tower on peg 1; optimal (proven))'
        >>> Verdict("crashed", 2, 3, reason="the program exited with status 3").describe()
        'crashed after 3 moves: the program exited with status 3'
        >>> Verdict("illegal", 2, 0, step=1, reason="line 1: cannot read a move from 'x'").describe()
        "illegal at step 1: line 1: cannot read a move from 'x'"
        """
        why = self.explain(labels)
        if self.status == "ok":
            claim = f"; {self.optimality}" if self.optimality else ""
            return f"ok ({self.moves} moves, {self._where(labels)}{claim})"
        if self.status == "illegal" and self.move is None:  # a line that holds no move: no move, no tops
            return f"illegal at step {self.step}: {why}" if self.step is not None else f"illegal: {why}"
        if self.status == "illegal":
            tops = ", ".join("-" if t is None else str(t) for t in self.tops or ())
            return f"illegal at step {self.step}: move {_show(self.move, labels)}: {why} (tops {tops})"
        if self.status == "not_optimal":
            return f"legal but not optimal: {why}"
        if self.status == "crashed":  # a program that ends badly after its moves has no step of its own
            where = f"at step {self.step}" if self.step is not None else f"after {self.moves} moves"
            return f"crashed {where}: {why}"
        return f"{self.status.replace('_', ' ')}: {why}"

    def _where(self, labels: Labels) -> str:
        """Where the disks ended, for ``ok``: a peg, or the goal that is no tower."""
        if self.final_peg is None and self.optimality:
            return "at the goal"
        return f"tower on peg {label(self.final_peg, labels)}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping; ``optimality`` only when set."""
        move = list(self.move) if isinstance(self.move, tuple) else self.move
        data = {
            "status": self.status,
            "n": self.n,
            "moves": self.moves,
            "digest": self.digest,
            "step": self.step,
            "move": move if move is None or isinstance(move, (list, int, str)) else repr(move),
            "reason": self.reason,
            "tops": list(self.tops) if self.tops is not None else None,
            "final_peg": self.final_peg,
            "failure": None if self.failure is None else self.failure.to_dict(),
        }
        if self.optimality:
            data["optimality"] = self.optimality
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Verdict:
        """The verdict :meth:`to_dict` wrote; without ``failure``, from ``reason``.

        >>> v = Verdict("illegal", 2, 0, 0, step=1, move=(2, 0, 2), reason="r", tops=(1, None, None))
        >>> Verdict.from_dict(v.to_dict()) == v
        True
        """
        move, failure = data.get("move"), data.get("failure")
        return cls(
            status=data["status"],
            n=data["n"],
            moves=data["moves"],
            digest=data.get("digest", 0),
            step=data.get("step"),
            move=tuple(move) if isinstance(move, list) else move,
            reason=data.get("reason", "") if failure is None else "",
            tops=data.get("tops"),
            final_peg=data.get("final_peg"),
            failure=None if failure is None else Failure.from_dict(cast(dict[str, Any], failure)),
            optimality=data.get("optimality", ""),
        )


_FIELDS = ("status", "n", "moves", "digest", "step", "move", "tops", "final_peg", "failure", "optimality")
"""The fields :meth:`Verdict.__init__` sets in order, all but ``extra``."""


def _show(move: Any, labels: Labels) -> str:
    """Write a move as ``DISK SRC DST``, pegs with *labels*; else its repr."""
    if isinstance(move, str):  # a repr standing for the move, or a string the algorithm yielded
        return repr(move)
    try:
        disk, src, dst = move
    except (TypeError, ValueError):
        return repr(move)
    return f"{disk} {label(src, labels)} {label(dst, labels)}"
