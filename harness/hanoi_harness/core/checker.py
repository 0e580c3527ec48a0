"""The move checker: pure, streaming, and independent of any closed form.

It replays each move on a model of the pegs, in O(n) state, and folds it into the digest.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from hanoi_harness.core.astray import MAX_DISKS, Prefix, followed
from hanoi_harness.core.digest import MASK
from hanoi_harness.core.legality import Pegs, as_ints, broken_rule, pegs_at
from hanoi_harness.core.legality import Tower as Tower  # for the replays outside (hanoi show, hanoi check)
from hanoi_harness.core.legality import illegal_reason as illegal_reason
from hanoi_harness.core.optimal import Optimum
from hanoi_harness.core.puzzle import CLASSIC, Puzzle, tower_peg
from hanoi_harness.core.verdict import Failure, Verdict
from hanoi_harness.errors import UsageError

if TYPE_CHECKING:  # a record is only read here: the core imports nothing outside it
    from hanoi_harness.registry.record import Algorithm

Targets = frozenset[int] | set[int]  #: The pegs a run's tower may end on, when its puzzle names no goal.


def move_cap(n: int, optimal: int | None = None) -> int:
    """The number of moves after which a legal run of *n* disks is stopped.

    >>> move_cap(0), move_cap(3), move_cap(3, optimal=26)
    (20, 48, 124)
    """
    if optimal is None:
        optimal = (1 << n) - 1
    return 4 * (optimal + 1) + 16


def bound(puzzle: Puzzle, n: int, targets: Targets) -> Optimum | None:
    """The optimum of the longest allowed run of *n* disks under *puzzle*.

    >>> from hanoi_harness.core.puzzle import CYCLIC
    >>> bound(CYCLIC, 3, {1, 2}).moves  # two steps round the cycle take longer than one
    21
    """
    if puzzle.goal is not None:
        return puzzle.distance(puzzle.start_config(n), puzzle.goal)
    known = [optimum for peg in targets if (optimum := puzzle.optimum(n, peg)) is not None]
    if not known or len(known) < len(targets):
        return None
    return max(known, key=lambda optimum: optimum.moves)


def cap_for(puzzle: Puzzle, n: int, targets: Targets) -> tuple[int, Optimum | None]:
    """Return the default :func:`move_cap` of a run, and its :func:`bound`.

    >>> cap_for(CLASSIC, 3, {2})[0] == move_cap(3)
    True
    """
    longest = bound(puzzle, n, targets)
    return move_cap(n, puzzle.pegs**n - 1 if longest is None else longest.moves), longest


def check(
    moves: Iterable[Any],
    n: int,
    targets: Targets = frozenset({2}),
    *,
    puzzle: Puzzle = CLASSIC,
    max_moves: int | None = None,
    start: int = 0,
    initial: Pegs | None = None,
    partial: bool = False,
    follow: bool = False,
) -> Verdict:
    """Replay *moves* for *n* disks under *puzzle*'s rules; return the verdict.

    The tower must end on one of *targets* (or at the puzzle's goal).  *start* and *initial* check a segment: the moves
    already made, and the pegs then.  With *partial* it need only be legal.  With *follow* a run that is not optimal
    names its first step astray.  See docs/project/core.md.

    >>> check([(1, 0, 2)], 1).status
    'ok'
    >>> v = check([(1, 0, 1), (1, 1, 0), (1, 0, 2)], 1)
    >>> v.status, v.moves, v.failure.rule
    ('not_optimal', 3, 'wrong_count')
    >>> check([(2, 0, 2)], 2).describe()
    'illegal at step 1: move 2 0 2: disk 2 is not on top of peg 0 (its top is 1) (tops 1, -, -)'
    >>> check([(1, 0, 1), (1, 1, 0), (1, 0, 2)], 1, follow=True).reason
    '3 moves, optimal is 1; step 2 leaves every shortest solution'
    >>> check([], 1).status
    'incomplete'
    >>> from hanoi_harness.core.puzzle import LINEAR
    >>> check([(1, 0, 1), (1, 1, 2)], 1, puzzle=LINEAR).describe()
    'ok (2 moves, tower on peg 2; optimal (proven))'
    >>> check([(1, 0, 2)], 1, puzzle=LINEAR).reason
    'the linear rule allows only moves between adjacent pegs (0-1, 1-2), not 0->2'
    """
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    judged = puzzle
    if initial is None:
        initial = pegs_at(puzzle.start_config(n), puzzle.pegs)
    elif len(initial) != puzzle.pegs:
        raise ValueError(f"initial has {len(initial)} pegs; the puzzle has {puzzle.pegs}")
    elif start == 0:  # a whole run from *initial*: its optimum is counted from there
        origin = Tower(n, initial).config(n)
        if origin != puzzle.start_config(n):
            judged = replace(puzzle, start=origin)
    tower = Tower(n, initial)
    cap, longest = cap_for(judged, n, targets)
    if max_moves is not None:
        cap = max_moves
    prefix = Prefix(n) if follow and start == 0 and not partial and followable(judged, n) else None
    if prefix is not None:
        moves = followed(moves, prefix)
    replay = _replay if puzzle.rule == "any" else _replay_ruled
    end = replay(iter(moves), tower, n, start, cap, longest, puzzle)
    if isinstance(end, Verdict):
        return gone_astray(end, prefix)
    k, digest = end
    digest &= MASK
    if partial:
        return Verdict("ok", n, k - start, digest, extra={"pegs": tower.pegs, "start": start})
    return gone_astray(_judge_end(tower, n, k, digest, targets, judged, claim=puzzle != CLASSIC), prefix)


def followable(puzzle: Puzzle, n: int) -> bool:
    """Whether a run of *n* disks under *puzzle* has its steps astray named."""
    return puzzle.classic and puzzle.start is None and puzzle.goal is None and n <= MAX_DISKS


def gone_astray(verdict: Verdict, prefix: Prefix | None) -> Verdict:
    """*verdict*, naming where its run left every shortest solution."""
    if prefix is None or verdict.status != "not_optimal" or verdict.failure is None or prefix.astray is None:
        return verdict
    return replace(verdict, failure=replace(verdict.failure, astray=prefix.astray))


Ended = tuple[int, int]  #: The last step and the digest, not yet reduced, of a replay without failure.


def _replay(
    moves: Iterator[Any], tower: Tower, n: int, start: int, cap: int, longest: Optimum | None, puzzle: Puzzle
) -> Verdict | Ended:
    """Replay *moves* on *tower*; return the failure, or where it ended."""
    pegs = tower.pegs
    by_peg = dict(enumerate(pegs))
    square, width = puzzle.pegs**2, puzzle.pegs  # the digest's weights: 9 and 3 on three pegs
    k = start
    digest = 0
    # The hot loop: one dict look-up per peg and one comparison per rule.  The slow path (broken_rule)
    # runs only when something is wrong, so the loop costs little more than digesting the moves.
    try:
        for move in moves:
            k += 1
            try:
                disk, src, dst = move
                from_peg = by_peg[src]
                to_peg = by_peg[dst]
            except (TypeError, ValueError, KeyError):
                return _illegal(move, n, k, k - start, tower, digest, puzzle)
            if (
                from_peg is to_peg
                or not from_peg
                or from_peg[-1] != disk
                or (to_peg and to_peg[-1] < disk)
                or type(disk) is not int
                or type(src) is not int
                or type(dst) is not int
            ):
                # Off the fast path: a numpy integer (or other Integral) is a legal spelling of
                # a number, a bool or float is not.
                exact = as_ints(move)
                if exact is None or broken_rule(exact, pegs, puzzle) is not None:
                    return _illegal(move, n, k, k - start, tower, digest, puzzle)
                disk, src, dst = exact
                from_peg, to_peg = pegs[src], pegs[dst]
            to_peg.append(from_peg.pop())
            digest += k * (square * disk + width * src + dst)
            if k - start >= cap:
                return stopped(n, k, k - start, digest, longest)
    except Exception as exc:  # the algorithm's own failure, reported with the step it was producing
        return crashed(n, k, k - start, digest, exc, tower.tops())
    return k, digest


def _replay_ruled(
    moves: Iterator[Any], tower: Tower, n: int, start: int, cap: int, longest: Optimum | None, puzzle: Puzzle
) -> Verdict | Ended:
    """Replay as :func:`_replay` does, for the cyclic and linear rules."""
    pegs = tower.pegs
    lanes = {s: (pegs[s], {t: pegs[t] for t in range(len(pegs)) if puzzle.allows(s, t)}) for s in range(len(pegs))}
    k = start
    digest = 0
    try:
        for move in moves:
            k += 1
            try:
                disk, src, dst = move
                from_peg, reach = lanes[src]
                to_peg = reach[dst]
            except (TypeError, ValueError, KeyError):
                return _illegal(move, n, k, k - start, tower, digest, puzzle)
            if (
                not from_peg
                or from_peg[-1] != disk
                or (to_peg and to_peg[-1] < disk)
                or type(disk) is not int
                or type(src) is not int
                or type(dst) is not int
            ):
                exact = as_ints(move)
                if exact is None or broken_rule(exact, pegs, puzzle) is not None:
                    return _illegal(move, n, k, k - start, tower, digest, puzzle)
                disk, src, dst = exact
                from_peg, to_peg = pegs[src], pegs[dst]
            to_peg.append(from_peg.pop())
            digest += k * (9 * disk + 3 * src + dst)
            if k - start >= cap:
                return stopped(n, k, k - start, digest, longest)
    except Exception as exc:  # the algorithm's own failure, reported with the step it was producing
        return crashed(n, k, k - start, digest, exc, tower.tops())
    return k, digest


def stopped(n: int, k: int, moves: int, digest: int, longest: Optimum | None) -> Verdict:
    """The verdict on a run of *n* disks stopped at the cap after step *k*."""
    failure = Failure("still_moving", count=k, **_count_fields(longest))
    return Verdict("not_optimal", n, moves, digest & MASK, failure=failure)


def _count_fields(optimum: Optimum | None) -> dict[str, Any]:
    """The failure's ``optimal`` and ``conjecture`` fields for *optimum*."""
    if optimum is None:
        return {}
    return {"optimal": optimum.moves, "conjecture": optimum.basis if optimum.status == "conjectured" else None}


def crashed(n: int, k: int, moves: int, digest: int, exc: Exception, tops: tuple[int | None, ...] | None) -> Verdict:
    """The verdict on a run whose producer raised *exc* at step k + 1."""
    failure = Failure("crashed", detail=f"{type(exc).__name__}: {exc}")
    return Verdict("crashed", n, moves, digest & MASK, step=k + 1, tops=tops, failure=failure)


def _judge_end(tower: Tower, n: int, k: int, digest: int, targets: Targets, puzzle: Puzzle, claim: bool) -> Verdict:
    """The verdict on a legal run of *n* disks that ended after *k* moves."""
    if puzzle.goal is not None:
        config = tower.config(n)
        if config != puzzle.goal:
            failure = Failure("not_at_goal", count=k, config=config, goal=puzzle.goal)
            return Verdict("incomplete", n, k, digest, final_peg=tower_peg(config), failure=failure)
        return _judge_count(n, k, digest, tower_peg(config), puzzle.distance(puzzle.start_config(n), config), claim)
    peg = tower.complete_on()
    if n == 0:
        peg = next(iter(sorted(targets)), 2)
    if peg is None:
        heights = tuple(len(p) for p in tower.pegs)
        return Verdict("incomplete", n, k, digest, failure=Failure("spread", count=k, heights=heights))
    if peg not in targets:
        failure = Failure("wrong_peg", count=k, peg=peg, targets=tuple(sorted(targets)))
        return Verdict("incomplete", n, k, digest, final_peg=peg, failure=failure)
    return _judge_count(n, k, digest, peg, puzzle.optimum(n, peg), claim)


NO_OPTIMUM = "legal and at the goal; no optimal count is known for this start and goal"
"""The ``optimality`` of a run whose puzzle knows no optimum for its ends."""


def _judge_count(n: int, k: int, digest: int, peg: int | None, optimum: Optimum | None, claim: bool) -> Verdict:
    """The verdict on a legal run of *n* disks at its goal after *k* moves."""
    if optimum is None:
        return Verdict("ok", n, k, digest, final_peg=peg, optimality=NO_OPTIMUM)
    if k != optimum.moves:
        failure = Failure("wrong_count", count=k, **_count_fields(optimum))
        return Verdict("not_optimal", n, k, digest, final_peg=peg, failure=failure)
    return Verdict("ok", n, k, digest, final_peg=peg, optimality=optimum.describe() if claim else "")


def _illegal(move: Any, n: int, k: int, done: int, tower: Tower, digest: int, puzzle: Puzzle) -> Verdict:
    """The verdict on *move*, illegal at step *k* after *done* - 1 legal moves."""
    failure = broken_rule(move, tower.pegs, puzzle)
    assert failure is not None, "only a move that breaks a rule comes here"
    return Verdict("illegal", n, done - 1, digest & MASK, step=k, move=move, tops=tower.tops(), failure=failure)


def check_algorithm(
    algorithm: Algorithm,
    n: int,
    *,
    max_moves: int | None = None,
    start: Sequence[int] | None = None,
    goal: Sequence[int] | None = None,
) -> Verdict:
    """Check the moves of a registered *algorithm* for *n* disks.

    They are judged by its puzzle's rules, from *start* to *goal* when given.  An n outside the record's limits raises
    :class:`~hanoi_harness.errors.UsageError`; a failure while starting is ``crashed`` at step 1.
    """
    # Imported here: core.arrays builds on this module (check() describes its failures).
    from hanoi_harness.core.arrays import check_chunks

    algorithm.check_n(n)
    targets = algorithm.final_peg.pegs(n)
    puzzle = algorithm.puzzle
    between = start is not None or goal is not None
    try:
        if between:
            puzzle, moves = _between(algorithm, n, start, goal)
        else:
            moves = iter(algorithm.solve(n)) if algorithm.chunks else algorithm.moves(n)
    except UsageError:
        raise
    except Exception as exc:
        return crashed(n, 0, 0, 0, exc, None)
    checker = check_chunks if algorithm.chunks and not between else check
    return checker(moves, n, targets, puzzle=puzzle, max_moves=max_moves)


def _between(
    algorithm: Algorithm, n: int, start: Sequence[int] | None, goal: Sequence[int] | None
) -> tuple[Puzzle, Iterator[Any]]:
    """Return the puzzle of *algorithm* from *start* to *goal*, and its moves."""
    first, last = algorithm.endpoints(n, start, goal)
    return algorithm.puzzle.between(first, last), algorithm.moves_for(n, first, last)
