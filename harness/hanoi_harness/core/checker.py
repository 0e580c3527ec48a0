"""The move checker: pure, streaming, and independent of any closed form.

It replays each move on a model of the pegs: one list of disks per peg,
bottom first (:mod:`hanoi_harness.core.legality`, which also names the rule
an illegal move breaks).  So it holds O(n) state and never the whole sequence.
It knows nothing of timing or processes (:mod:`hanoi_harness.sandbox.runner` adds
those), nor of arrays of moves (:mod:`hanoi_harness.core.arrays` checks
those, and comes back here to describe a failure).

A run is judged by its puzzle's rules (:mod:`hanoi_harness.core.puzzle`, the
classic puzzle by default).  A move is legal when it is a triple ``(disk,
src, dst)`` whose pegs are two different pegs of the puzzle (0, 1 or 2 in
the classic one).  Its rule must connect them: every pair; cyclic: only
0->1, 1->2, 2->0; linear: only 0-1 and 1-2.  The source peg must not be
empty, the disk must be its top, and the destination must be empty or
topped by a larger disk.

The disks start where the puzzle's start configuration puts them (the whole
tower on peg 0 by default).  They must end in its goal configuration, or by
default as one tower on one of the declared pegs.  The run is optimal when
it took exactly the puzzle's fewest moves for that start and goal (2^n - 1
for the classic puzzle).  That count is proven or conjectured, as
:meth:`~hanoi_harness.core.puzzle.Puzzle.distance` says.  Each failure is a
:class:`~hanoi_harness.core.verdict.Failure` naming the rule that was broken.

The checker also folds every move into the project's digest (see
:mod:`hanoi_harness.core.digest`), so one replay gives both the verdict and the
fingerprint of the sequence.
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

Targets = frozenset[int] | set[int]
"""The pegs a run's tower may end on.

They count when its puzzle names no goal configuration.
"""


def move_cap(n: int, optimal: int | None = None) -> int:
    """The number of moves after which a legal run of *n* disks is stopped.

    Such a run is ``not_optimal``.  The cap is four times *optimal* + 1, so
    that a wasteful run is stopped well past any count worth reporting.  It
    adds 16, so that small n (1 move for n = 1) still leave room for a few
    wrong turns before the stop.  *optimal* is
    the classic puzzle's 2^n - 1 unless given, which makes the cap
    4 * 2^n + 16.

    >>> move_cap(0), move_cap(3), move_cap(3, optimal=26)
    (20, 48, 124)
    """
    if optimal is None:
        optimal = (1 << n) - 1
    return 4 * (optimal + 1) + 16


def bound(puzzle: Puzzle, n: int, targets: Targets) -> Optimum | None:
    """The optimum of the longest allowed run of *n* disks under *puzzle*.

    That run goes to the puzzle's goal, or to the farthest of *targets*.
    None when the puzzle knows no optimal count for one of them (k pegs
    from or to a configuration that is no tower).

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

    The run is of *n* disks under *puzzle*, ending on one of *targets*.
    With no known optimum the cap is counted from P^n - 1, P the number of
    pegs: no shortest path between two of the P^n configurations is longer.

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

    The result is a :class:`~hanoi_harness.core.verdict.Verdict`.  The disks
    start in the puzzle's start configuration (the whole tower on peg 0 by
    default).  They must end in its goal configuration or, when it names
    none, as one tower on one of *targets*.  *max_moves* stops a run that
    keeps making legal moves (default: :func:`cap_for`, well past optimal).
    A puzzle other than the classic one says in the verdict's
    ``optimality`` what its count was judged against.

    To check a segment of a run, give *start* and *initial*.  *start* is
    the number of moves already made: the first move here is step
    ``start + 1``, and the digest uses those global step numbers.
    *initial* holds the pegs at that point, bottom first; the lists are
    replayed in place.  With *partial* true the segment is only required
    to be legal.  Then the verdict is ``ok``, and ``extra["pegs"]`` holds
    the pegs at its end, for the caller to join segments.

    With *follow*, a whole run of the classic puzzle that is legal but not
    optimal names the first step that leaves every shortest solution
    (:func:`followable`).  Following costs about twice the replay, so it
    is asked for.

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

    Edge cases: n = 0 is solved by no moves (the empty tower stands anywhere).
    An exception raised while producing move k is ``crashed`` at step k.  A
    malformed move is ``illegal`` at its step.
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
    """Whether a run of *n* disks under *puzzle* has its steps astray named.

    That is the classic puzzle from the tower on peg 0, to any tower, for
    up to :data:`~hanoi_harness.core.astray.MAX_DISKS` disks.
    """
    return puzzle.classic and puzzle.start is None and puzzle.goal is None and n <= MAX_DISKS


def gone_astray(verdict: Verdict, prefix: Prefix | None) -> Verdict:
    """*verdict*, naming where its run left every shortest solution.

    Only a legal run that is not optimal names it.
    """
    if prefix is None or verdict.status != "not_optimal" or verdict.failure is None or prefix.astray is None:
        return verdict
    return replace(verdict, failure=replace(verdict.failure, astray=prefix.astray))


Ended = tuple[int, int]
"""The last step and the digest of a replay that met no failure.

The digest is not yet reduced.
"""


def _replay(
    moves: Iterator[Any], tower: Tower, n: int, start: int, cap: int, longest: Optimum | None, puzzle: Puzzle
) -> Verdict | Ended:
    """Replay *moves* on *tower*; return the failure, or where it ended.

    The puzzle's rule allows every move.
    """
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
    """Replay as :func:`_replay` does, for a rule that allows only some moves.

    Such rules are cyclic and linear.  The result is the failure, or where
    the run ended.  This is a second loop rather than a test in the first,
    so that the classic puzzle does not pay for the rule.  Each peg maps to
    its disks and to the pegs it may send a disk to.  So a forbidden pair
    (or the same peg twice) is a missing key, found by the same two look-ups.
    """
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
    """The verdict on a run of *n* disks stopped at the cap after step *k*.

    *moves* of those steps were checked here.
    *longest* is the optimum the cap was counted from (:func:`bound`), None
    when no optimum is known.
    """
    failure = Failure("still_moving", count=k, **_count_fields(longest))
    return Verdict("not_optimal", n, moves, digest & MASK, failure=failure)


def _count_fields(optimum: Optimum | None) -> dict[str, Any]:
    """The failure's ``optimal`` and ``conjecture`` fields for *optimum*.

    *optimum* is None when no optimal count is known.
    """
    if optimum is None:
        return {}
    return {"optimal": optimum.moves, "conjecture": optimum.basis if optimum.status == "conjectured" else None}


def crashed(n: int, k: int, moves: int, digest: int, exc: Exception, tops: tuple[int | None, ...] | None) -> Verdict:
    """The verdict on a run of *n* disks whose producer raised *exc*.

    It raised while making step k + 1.
    """
    failure = Failure("crashed", detail=f"{type(exc).__name__}: {exc}")
    return Verdict("crashed", n, moves, digest & MASK, step=k + 1, tops=tops, failure=failure)


def _judge_end(tower: Tower, n: int, k: int, digest: int, targets: Targets, puzzle: Puzzle, claim: bool) -> Verdict:
    """The verdict on a legal run of *n* disks that ended after *k* moves.

    *tower* holds the pegs at the end.  With *claim* the verdict says the
    run's optimality.
    """
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
"""The ``optimality`` of a run whose puzzle knows no optimum for its ends.

That is the case with k pegs, from or to a configuration that is no tower.
"""


def _judge_count(n: int, k: int, digest: int, peg: int | None, optimum: Optimum | None, claim: bool) -> Verdict:
    """The verdict on a legal run of *n* disks at its goal after *k* moves.

    Its count is judged against *optimum*.
    """
    if optimum is None:
        return Verdict("ok", n, k, digest, final_peg=peg, optimality=NO_OPTIMUM)
    if k != optimum.moves:
        failure = Failure("wrong_count", count=k, **_count_fields(optimum))
        return Verdict("not_optimal", n, k, digest, final_peg=peg, failure=failure)
    return Verdict("ok", n, k, digest, final_peg=peg, optimality=optimum.describe() if claim else "")


def _illegal(move: Any, n: int, k: int, done: int, tower: Tower, digest: int, puzzle: Puzzle) -> Verdict:
    """The verdict on *move*, illegal at step *k*.

    *done* - 1 legal moves came before it here.
    """
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

    They are judged by the rules of its puzzle.  The record maps the
    original's labels to the model, and names its puzzle and the pegs the
    tower may end on.  *start* and *goal* give the peg of each disk, disk 1
    first.  With either, the run goes between those configurations through
    :meth:`~hanoi_harness.registry.record.Algorithm.moves_for`.  The one not
    given is the puzzle's default: the whole tower on peg 0 for *start*, on
    the declared peg for *goal*.  An n outside the record's limits, or
    configurations it cannot take, raise
    :class:`~hanoi_harness.errors.UsageError`.  A failure while starting the
    generator is ``crashed`` at step 1.  An algorithm that yields chunks is
    checked on its arrays by :func:`~hanoi_harness.core.arrays.check_chunks`.
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
    """Return the puzzle of *algorithm* from *start* to *goal*, and its moves.

    The configurations not given are filled in with the defaults.
    """
    first, last = algorithm.endpoints(n, start, goal)
    return algorithm.puzzle.between(first, last), algorithm.moves_for(n, first, last)
