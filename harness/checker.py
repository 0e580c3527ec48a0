"""The move checker: pure, streaming, and independent of any closed form.

It replays each move on a model of the pegs (one list of disks per peg,
bottom first), so it holds O(n) state and never the 2^n - 1 moves.  It knows
nothing of timing or processes (:mod:`hanoi_harness.runner` adds those), nor
of arrays of moves (:mod:`hanoi_harness.chunkcheck` checks those, and comes
back here to describe a failure).

A move is legal when it is a triple ``(disk, src, dst)`` whose pegs are 0, 1
or 2 and differ, whose source peg is not empty, whose disk is the top of that
peg, and whose destination is empty or topped by a larger disk.  A run is
optimal when the whole tower stands on one of the declared pegs after exactly
2^n - 1 moves.  Each failure is a :class:`~hanoi_harness.verdict.Failure`
naming the rule that was broken.

The checker also folds every move into the project's digest (see
:mod:`hanoi_harness.digest`), so one replay gives both the verdict and the
fingerprint of the sequence.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

from hanoi_harness.digest import MASK
from hanoi_harness.registry import Algorithm
from hanoi_harness.verdict import Failure, Rule, Verdict, value_of

Pegs = tuple[list[int], ...]
"""The disks on each peg, bottom first."""


def move_cap(n: int) -> int:
    """The number of moves after which a run of *n* disks that is still legal is stopped, ``not_optimal``.

    Four times the optimal 2^n - 1, so that a wasteful run is stopped well
    past any count worth reporting, plus 16, so that small n (1 move for
    n = 1) still leave room for a few wrong turns before the stop.

    >>> move_cap(0), move_cap(3)
    (20, 48)
    """
    return 4 * (1 << n) + 16


class Tower:
    """The pegs as lists of disks, bottom first: the whole tower of *n* disks on peg 0, or *pegs*.

    >>> t = Tower(2)
    >>> t.pegs
    ([2, 1], [], [])
    >>> t.tops()
    (1, None, None)
    """

    __slots__ = ("pegs",)

    def __init__(self, n: int, pegs: Pegs | None = None) -> None:
        self.pegs = pegs if pegs is not None else (list(range(n, 0, -1)), [], [])

    def tops(self) -> tuple[int | None, ...]:
        """The top disk of each peg, None for an empty one."""
        return tuple(p[-1] if p else None for p in self.pegs)

    def complete_on(self) -> int | None:
        """The peg holding every disk, or None when they are spread."""
        holding = [i for i, p in enumerate(self.pegs) if p]
        if len(holding) == 1:
            return holding[0]
        return None if holding else 0


def _is_integer(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _as_ints(move: Any) -> tuple[int, int, int] | None:
    """The *move* with plain ints, or None when it is not three integers."""
    try:
        disk, src, dst = move
    except (TypeError, ValueError):
        return None
    if _is_integer(disk) and _is_integer(src) and _is_integer(dst):
        return (int(disk), int(src), int(dst))
    return None


def broken_rule(move: Any, pegs: Pegs) -> Failure | None:
    """The rule *move* breaks on *pegs* (the disks on each, bottom first), or None when it is legal.

    The rules are tried in order: a triple, pegs in range, two different
    pegs, a non-empty source, an integer disk, that disk on top, and a
    destination that is empty or topped by a larger disk.

    >>> broken_rule((1, 0, 2), ([2, 1], [], []))
    >>> failure = broken_rule((2, 0, 2), ([2, 1], [], []))
    >>> failure.rule, failure.disk, failure.src, failure.top
    ('not_on_top', 2, 0, 1)
    """
    try:
        disk, src, dst = move
    except (TypeError, ValueError):
        return Failure("not_a_triple")
    if not _is_peg(src, pegs):
        return _broken("bad_peg", move, side="source", pegs=len(pegs))
    if not _is_peg(dst, pegs):
        return _broken("bad_peg", move, side="destination", pegs=len(pegs))
    if src == dst:
        return _broken("same_peg", move)
    from_peg = pegs[src]
    if not from_peg:
        return _broken("empty_source", move)
    if not _is_integer(disk):
        return _broken("not_integer", move)
    if from_peg[-1] != disk:
        return _broken("not_on_top", move, top=from_peg[-1])
    to_peg = pegs[dst]
    if to_peg and to_peg[-1] < disk:
        return _broken("larger_on_smaller", move, top=to_peg[-1])
    return None


def _is_peg(value: Any, pegs: Pegs) -> bool:
    return _is_integer(value) and 0 <= value < len(pegs)


def _broken(rule: Rule, move: Any, **more: Any) -> Failure:
    """The failure *rule* for the triple *move*, with its disk and pegs as given."""
    disk, src, dst = move
    return Failure(rule, value_of(disk), value_of(src), value_of(dst), **more)


def illegal_reason(move: Any, pegs: Pegs) -> str | None:
    """Why *move* is illegal on *pegs*, in words, or None when it is legal.

    >>> illegal_reason((1, 0, 2), ([2, 1], [], []))
    >>> illegal_reason((2, 0, 2), ([2, 1], [], []))
    'disk 2 is not on top of peg 0 (its top is 1)'
    """
    failure = broken_rule(move, pegs)
    return None if failure is None else failure.text()


def check(
    moves: Iterable[Any],
    n: int,
    targets: frozenset[int] | set[int] = frozenset({2}),
    *,
    max_moves: int | None = None,
    start: int = 0,
    initial: Pegs | None = None,
    partial: bool = False,
) -> Verdict:
    """Replay *moves* for *n* disks and return the :class:`~hanoi_harness.verdict.Verdict`.

    *targets* are the pegs the tower may end on.  *max_moves* stops a run
    that keeps making legal moves (default: :func:`move_cap`, well past optimal).

    To check a segment of a run, give *start* (the moves already made, so
    the first move here is step ``start + 1``, and the digest uses those
    global step numbers) and *initial* (the pegs at that point, bottom
    first; the lists are replayed in place).  With *partial* true the
    segment is only required to be legal: the verdict is ``ok`` and
    ``extra["pegs"]`` holds the pegs at its end, for the caller to join
    segments.

    >>> check([(1, 0, 2)], 1).status
    'ok'
    >>> v = check([(1, 0, 1), (1, 1, 0), (1, 0, 2)], 1)
    >>> v.status, v.moves, v.failure.rule
    ('not_optimal', 3, 'wrong_count')
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
    by_peg = dict(enumerate(pegs))
    cap = max_moves if max_moves is not None else move_cap(n)
    k = start
    digest = 0
    iterator = iter(moves)
    while True:
        # The hot loop: one dict look-up per peg, one comparison per rule, and
        # the slow path (broken_rule) only when something is wrong.  It runs
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
                    or type(disk) is not int
                    or type(src) is not int
                    or type(dst) is not int
                ):
                    # Off the fast path: a numpy integer (or other Integral)
                    # is a legal spelling of a number, a bool or float is not.
                    exact = _as_ints(move)
                    if exact is None or broken_rule(exact, pegs) is not None:
                        return _illegal(move, n, k, k - start, tower, digest)
                    disk, src, dst = exact
                    from_peg, to_peg = pegs[src], pegs[dst]
                to_peg.append(from_peg.pop())
                digest += k * (9 * disk + 3 * src + dst)
                if k - start >= cap:
                    return stopped(n, k, k - start, digest)
            break
        except Exception as exc:  # the algorithm's own failure, reported with the step it was producing
            return crashed(n, k, k - start, digest, exc, tower.tops())
    digest &= MASK
    if partial:
        return Verdict("ok", n, k - start, digest, extra={"pegs": pegs, "start": start})
    return _judge_end(tower, n, k, digest, targets)


def stopped(n: int, k: int, moves: int, digest: int) -> Verdict:
    """The verdict on a run of *n* disks stopped at the cap after step *k* (*moves* of them checked here)."""
    failure = Failure("still_moving", count=k, optimal=(1 << n) - 1)
    return Verdict("not_optimal", n, moves, digest & MASK, failure=failure)


def crashed(n: int, k: int, moves: int, digest: int, exc: Exception, tops: tuple[int | None, ...] | None) -> Verdict:
    """The verdict on a run of *n* disks whose producer raised *exc* while making step k + 1."""
    failure = Failure("crashed", detail=f"{type(exc).__name__}: {exc}")
    return Verdict("crashed", n, moves, digest & MASK, step=k + 1, tops=tops, failure=failure)


def _judge_end(tower: Tower, n: int, k: int, digest: int, targets: frozenset[int] | set[int]) -> Verdict:
    """The verdict on a legal run of *n* disks that ended after *k* moves with *tower*."""
    peg = tower.complete_on()
    optimal = (1 << n) - 1
    if n == 0:
        peg = next(iter(sorted(targets)), 2)
    if peg is None:
        heights = tuple(len(p) for p in tower.pegs)
        return Verdict("incomplete", n, k, digest, failure=Failure("spread", count=k, heights=heights))
    if peg not in targets:
        failure = Failure("wrong_peg", count=k, peg=peg, targets=tuple(sorted(targets)))
        return Verdict("incomplete", n, k, digest, final_peg=peg, failure=failure)
    if k != optimal:
        failure = Failure("wrong_count", count=k, optimal=optimal)
        return Verdict("not_optimal", n, k, digest, final_peg=peg, failure=failure)
    return Verdict("ok", n, k, digest, final_peg=peg)


def _illegal(move: Any, n: int, k: int, done: int, tower: Tower, digest: int) -> Verdict:
    """The verdict on *move*, illegal at step *k* after *done* - 1 legal moves checked here."""
    failure = broken_rule(move, tower.pegs)
    assert failure is not None, "only a move that breaks a rule comes here"
    return Verdict("illegal", n, done - 1, digest & MASK, step=k, move=move, tops=tower.tops(), failure=failure)


def check_algorithm(algorithm: Algorithm, n: int, *, max_moves: int | None = None) -> Verdict:
    """Check a registered *algorithm*'s moves for *n* disks.

    The record maps the original's labels to the model and names the pegs the
    tower may end on.  An n outside the record's limits raises
    :class:`~hanoi_harness.errors.UsageError`; a failure while starting the
    generator is ``crashed`` at step 1.  An algorithm that yields chunks is
    checked by :func:`~hanoi_harness.chunkcheck.check_chunks`, on its arrays.
    """
    # Imported here: chunkcheck builds on this module (check() describes its failures).
    from hanoi_harness.chunkcheck import check_chunks

    algorithm.check_n(n)
    try:
        moves = iter(algorithm.solve(n)) if algorithm.chunks else algorithm.moves(n)
    except Exception as exc:
        return crashed(n, 0, 0, 0, exc, None)
    checker = check_chunks if algorithm.chunks else check
    return checker(moves, n, algorithm.final_peg.pegs(n), max_moves=max_moves)
