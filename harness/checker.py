"""The move checker: pure, streaming, and independent of any closed form.

It replays each move on a model of the three pegs (three lists of disks,
bottom first), so it holds O(n) state and never the 2^n - 1 moves.  It knows
nothing of timing or processes: :mod:`harness.runner` adds those.

A move is legal when it is a triple ``(disk, src, dst)`` whose pegs are 0, 1
or 2 and differ, whose source peg is not empty, whose disk is the top of that
peg, and whose destination is empty or topped by a larger disk.  A run is
optimal when the whole tower stands on one of the declared pegs after exactly
2^n - 1 moves.

The checker also folds every move into the project's digest (see
:mod:`harness.digest`), so one replay gives both the verdict and the
fingerprint of the sequence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from harness.digest import MASK
from harness.registry import Algorithm

Status = Literal["ok", "illegal", "incomplete", "not_optimal", "crashed", "timed_out", "refused"]

STATUSES: tuple[Status, ...] = ("ok", "illegal", "incomplete", "not_optimal", "crashed", "timed_out", "refused")


@dataclass(frozen=True)
class Verdict:
    """What the checker found for one run of n disks.

    ``step`` is 1-based: the failing move for ``illegal``, the move being
    produced for ``crashed``.  ``moves`` counts the moves replayed (legal ones,
    for ``illegal``).  ``tops`` is the top disk of pegs 0, 1, 2 (``None`` when
    empty) at the failure, for ``illegal``.
    """

    status: Status
    n: int
    moves: int
    digest: int = 0
    step: int | None = None
    move: Any = None
    reason: str = ""
    tops: tuple[int | None, int | None, int | None] | None = None
    final_peg: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def describe(self) -> str:
        """describe(): one line for a table cell or a log."""
        if self.status == "ok":
            return f"ok ({self.moves} moves, tower on peg {self.final_peg})"
        if self.status == "illegal":
            tops = ", ".join("-" if t is None else str(t) for t in self.tops or ())
            return f"illegal at step {self.step}: move {_show(self.move)}: {self.reason} (tops {tops})"
        if self.status == "not_optimal":
            return f"legal but not optimal: {self.reason}"
        if self.status == "crashed":
            return f"crashed at step {self.step}: {self.reason}"
        return f"{self.status.replace('_', ' ')}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        """to_dict(): a JSON-ready mapping (moves shown as lists)."""
        move = list(self.move) if isinstance(self.move, tuple) else self.move
        return {
            "status": self.status,
            "n": self.n,
            "moves": self.moves,
            "digest": self.digest,
            "step": self.step,
            "move": move if move is None or isinstance(move, (list, int, str)) else repr(move),
            "reason": self.reason,
            "tops": list(self.tops) if self.tops is not None else None,
            "final_peg": self.final_peg,
        }


def _show(move: Any) -> str:
    try:
        disk, src, dst = move
        return f"{disk} {src} {dst}"
    except (TypeError, ValueError):
        return repr(move)


class Tower:
    """Tower(n, pegs): the three pegs as lists of disks, bottom first.

    >>> t = Tower(2)
    >>> t.pegs
    ([2, 1], [], [])
    >>> t.tops()
    (1, None, None)
    """

    __slots__ = ("pegs",)

    def __init__(self, n: int, pegs: tuple[list[int], list[int], list[int]] | None = None) -> None:
        self.pegs = pegs if pegs is not None else (list(range(n, 0, -1)), [], [])

    def tops(self) -> tuple[int | None, int | None, int | None]:
        a, b, c = (p[-1] if p else None for p in self.pegs)
        return (a, b, c)

    def complete_on(self) -> int | None:
        """complete_on(): the peg holding every disk, or None when they are spread."""
        holding = [i for i, p in enumerate(self.pegs) if p]
        if len(holding) == 1:
            return holding[0]
        return None if holding else 0


def illegal_reason(move: Any, pegs: tuple[list[int], list[int], list[int]]) -> str | None:
    """illegal_reason(move, pegs): why ``move`` is illegal on ``pegs``, or None when it is legal.

    >>> illegal_reason((1, 0, 2), ([2, 1], [], []))
    >>> illegal_reason((2, 0, 2), ([2, 1], [], []))
    'disk 2 is not on top of peg 0 (its top is 1)'
    """
    try:
        disk, src, dst = move
    except (TypeError, ValueError):
        return "a move must be a (disk, src, dst) triple"
    for name, peg in (("source", src), ("destination", dst)):
        if type(peg) is bool or peg not in (0, 1, 2):
            return f"{name} peg {peg!r} is not 0, 1 or 2"
    if src == dst:
        return f"source and destination are both peg {src}"
    from_peg = pegs[src]
    if not from_peg:
        return f"peg {src} is empty"
    if from_peg[-1] != disk:
        return f"disk {disk!r} is not on top of peg {src} (its top is {from_peg[-1]})"
    to_peg = pegs[dst]
    if to_peg and to_peg[-1] < disk:
        return f"disk {disk} cannot go onto the smaller disk {to_peg[-1]} on peg {dst}"
    return None


def check(
    moves: Iterable[Any],
    n: int,
    targets: frozenset[int] | set[int] = frozenset({2}),
    *,
    max_moves: int | None = None,
    start: int = 0,
    initial: tuple[list[int], list[int], list[int]] | None = None,
    partial: bool = False,
) -> Verdict:
    """check(moves, n, targets): replay ``moves`` for n disks and return the :class:`Verdict`.

    ``targets`` are the pegs the tower may end on.  ``max_moves`` stops a run
    that keeps making legal moves (default: 4 * 2^n + 16, well past optimal).

    To check a segment of a run, give ``start`` (the moves already made, so
    the first move here is step ``start + 1``, and the digest uses those
    global step numbers) and ``initial`` (the pegs at that point, bottom
    first; the lists are replayed in place).  With ``partial=True`` the
    segment is only required to be legal: the verdict is ``ok`` and
    ``extra["pegs"]`` holds the pegs at its end, for the caller to join
    segments.

    >>> check([(1, 0, 2)], 1).status
    'ok'
    >>> v = check([(1, 0, 1), (1, 1, 0), (1, 0, 2)], 1)
    >>> v.status, v.moves
    ('not_optimal', 3)
    >>> check([(2, 0, 2)], 2).describe()
    'illegal at step 1: move 2 0 2: disk 2 is not on top of peg 0 (its top is 1) (tops 1, -, -)'
    >>> check([], 1).status
    'incomplete'

    Edge cases: n = 0 is solved by no moves (the empty tower stands anywhere);
    an exception raised while producing move k is ``crashed`` at step k; a
    malformed move is ``illegal`` at its step.
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    tower = Tower(n, initial)
    pegs = tower.pegs
    by_peg = {0: pegs[0], 1: pegs[1], 2: pegs[2]}
    cap = max_moves if max_moves is not None else 4 * (1 << n) + 16
    k = start
    digest = 0
    iterator = iter(moves)
    while True:
        # The hot loop: one dict look-up per peg, one comparison per rule, and
        # the slow path (illegal_reason) only when something is wrong.  It runs
        # within a few tens of percent of merely digesting the moves.
        try:
            for move in iterator:
                k += 1
                try:
                    disk, src, dst = move
                    from_peg = by_peg[src]
                    to_peg = by_peg[dst]
                except (TypeError, ValueError, KeyError):
                    return _illegal(move, n, k, k - start, tower, digest)
                if (
                    from_peg is to_peg
                    or not from_peg
                    or from_peg[-1] != disk
                    or (to_peg and to_peg[-1] < disk)
                    or type(src) is bool
                    or type(dst) is bool
                ):
                    return _illegal(move, n, k, k - start, tower, digest)
                to_peg.append(from_peg.pop())
                digest += k * (9 * disk + 3 * src + dst)
                if k - start >= cap:
                    return Verdict(
                        "not_optimal",
                        n,
                        k - start,
                        digest & MASK,
                        reason=f"still moving after {k} moves (optimal is {(1 << n) - 1}); stopped",
                    )
            break
        except Exception as exc:  # the algorithm's own failure, reported with the step it was producing
            return Verdict(
                "crashed",
                n,
                k - start,
                digest & MASK,
                step=k + 1,
                reason=f"{type(exc).__name__}: {exc}",
                tops=tower.tops(),
            )
    digest &= MASK
    if partial:
        return Verdict("ok", n, k - start, digest, extra={"pegs": pegs, "start": start})
    peg = tower.complete_on()
    optimal = (1 << n) - 1
    if n == 0:
        peg = next(iter(sorted(targets)), 2)
    if peg is None:
        spread = "; ".join(f"peg {i}: {len(p)}" for i, p in enumerate(pegs))
        return Verdict("incomplete", n, k, digest, reason=f"after {k} moves the disks are spread ({spread})")
    if peg not in targets:
        want = " or ".join(str(t) for t in sorted(targets))
        return Verdict(
            "incomplete", n, k, digest, final_peg=peg, reason=f"after {k} moves the tower is on peg {peg}, not {want}"
        )
    if k != optimal:
        return Verdict("not_optimal", n, k, digest, final_peg=peg, reason=f"{k} moves, optimal is {optimal}")
    return Verdict("ok", n, k, digest, final_peg=peg)


def _illegal(move: Any, n: int, k: int, done: int, tower: Tower, digest: int) -> Verdict:
    reason = illegal_reason(move, tower.pegs) or "illegal move"
    return Verdict(
        "illegal",
        n,
        done - 1,
        digest & MASK,
        step=k,
        move=move,
        reason=reason,
        tops=tower.tops(),
    )


def check_algorithm(algorithm: Algorithm, n: int, *, max_moves: int | None = None) -> Verdict:
    """check_algorithm(algorithm, n): check a registered algorithm's moves for n disks.

    The record maps the original's labels to the model and names the pegs the
    tower may end on.  An n outside the record's limits raises
    :class:`~harness.errors.UsageError`; a failure while starting the
    generator is ``crashed`` at step 1.
    """
    algorithm.check_n(n)
    try:
        moves = algorithm.moves(n)
    except Exception as exc:
        return Verdict("crashed", n, 0, step=1, reason=f"{type(exc).__name__}: {exc}")
    return check(moves, n, algorithm.final_peg.pegs(n), max_moves=max_moves)
