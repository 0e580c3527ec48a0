"""The vectorised checker: the checker's verdicts, for moves in arrays.

Each chunk is tested whole with numpy; one that fails is replayed by the scalar checker.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import cache
from typing import Any

from hanoi_harness.core.astray import Prefix
from hanoi_harness.core.checker import Targets, cap_for, check, crashed, followable, gone_astray, stopped
from hanoi_harness.core.digest import MASK, chunk_digest, rows_digest
from hanoi_harness.core.legality import Pegs, Tower, pegs_at
from hanoi_harness.core.puzzle import CLASSIC, Puzzle
from hanoi_harness.core.verdict import Failure, Verdict


def check_chunks(
    chunks: Iterable[Any],
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
    """Check the moves of *n* disks given as *chunks* of (m, 3) integers.

    >>> import numpy as np
    >>> check_chunks([np.array([[1, 0, 1], [2, 0, 2]]), np.array([[1, 1, 2]])], 2).describe()
    'ok (3 moves, tower on peg 2)'
    >>> check_chunks([np.array([[1, 0, 1]]), np.array([[2, 0, 1], [1, 1, 2]])], 2).describe()
    'illegal at step 2: move 2 0 1: disk 2 cannot go onto the smaller disk 1 on peg 1 (tops 2, 1, -)'
    """
    import numpy as np

    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    from_start = initial is None or Tower(n, initial).config(n) == puzzle.start_config(n)
    prefix = Prefix(n) if follow and start == 0 and followable(puzzle, n) and from_start else None
    # where[d]: the peg of disk d (index 0 unused); one byte a disk, unless a peg's number needs more
    where = np.zeros(n + 1, dtype=np.int8 if puzzle.pegs <= 127 else np.int64)
    for peg, disks in enumerate(initial if initial is not None else pegs_at(puzzle.start_config(n), puzzle.pegs)):
        where[disks] = peg
    cap, longest = cap_for(puzzle, n, targets)
    if max_moves is not None:
        cap = max_moves
    pegs_count = puzzle.pegs
    k = start
    total = 0
    iterator = iter(chunks)
    scratch = _Scratch()
    while True:
        try:
            chunk = next(iterator)
        except StopIteration:
            break
        except Exception as exc:  # the algorithm's own failure, reported with the step it was producing
            return crashed(n, k, k - start, total, exc, Tower(n, _pegs_of(where, pegs_count)).tops())
        try:
            arr = np.asarray(chunk)
        except (TypeError, ValueError):  # ragged rows, say
            arr = np.asarray(None)
        if arr.ndim != 2 or arr.shape[1:] != (3,) or arr.dtype.kind not in "iu":
            return _not_a_chunk(chunk, arr, n, k, k - start, total, _pegs_of(where, pegs_count))
        room = cap - (k - start)
        if len(arr) > room:
            arr = arr[:room]  # the moves past the cap are never looked at, as in check()
        if prefix is not None:
            prefix.rows(arr)
        if _chunk_is_legal(arr, where, n, scratch, puzzle):
            m = len(arr)
            if m >= 1 << 24:  # past the int64-exact range of rows_digest
                total += chunk_digest(arr, k)
            elif m:
                total += rows_digest(*scratch.rows_of(m), k, scratch.spare(0, m))
            k += m
            if k - start >= cap:
                return gone_astray(stopped(n, k, k - start, total, longest), prefix)
            continue
        rows = [tuple(row) for row in arr.tolist()]
        pegs = _pegs_of(where, pegs_count)
        part = check(rows, n, targets, puzzle=puzzle, max_moves=room, start=k, initial=pegs, partial=True)
        if not part.ok:
            return gone_astray(replace(part, moves=k - start + part.moves, digest=(total + part.digest) & MASK), prefix)
        for peg, disks in enumerate(pegs):
            where[disks] = peg
        total += part.digest
        k += part.moves
    # The end of the run is judged by check() itself, from the final pegs.
    pegs = _pegs_of(where, pegs_count)
    if initial is not None:
        for mine, theirs in zip(pegs, initial, strict=True):
            theirs[:] = mine
        pegs = initial
    end = check((), n, targets, puzzle=puzzle, start=k, initial=pegs, partial=partial)
    moves = k - start if partial else end.moves
    astray = {"astray": prefix.astray} if prefix is not None and prefix.astray else {}
    extra = {**end.extra, "start": start, **astray} if partial else {}
    return gone_astray(replace(end, moves=moves, digest=total & MASK, extra=extra), prefix)


def _not_a_chunk(chunk: Any, arr: Any, n: int, k: int, moves: int, digest: int, pegs: Pegs) -> Verdict:
    """The verdict on *chunk*, read as *arr*, which is no (m, 3) integer array."""
    shape = "x".join(map(str, arr.shape)) or "scalar"
    failure = Failure("bad_chunk", detail=f"{arr.dtype} of shape {shape}")
    tops = Tower(n, pegs).tops()
    return Verdict("illegal", n, moves, digest & MASK, step=k + 1, move=repr(chunk)[:80], tops=tops, failure=failure)


def _pegs_of(where: Any, count: int) -> Pegs:
    """The *count* pegs, bottom first, from the peg of each disk in *where*."""
    return pegs_at(where[1:].tolist(), count)


DIGITS = 39  #: The largest disk for the base-3 test: 3^39 < 2^63 <= 3^40.


def _chunk_is_legal(arr: Any, where: Any, n: int, scratch: _Scratch | None = None, puzzle: Puzzle = CLASSIC) -> bool:
    """True, with *where* updated, when every move of *arr* is legal.

    False, *where* untouched, otherwise, or for more than three pegs: the caller then replays the chunk.
    """
    import numpy as np

    if arr.ndim != 2 or arr.shape[1] != 3 or arr.dtype.kind not in "iu" or puzzle.pegs != 3:
        return False
    m = len(arr)
    if m == 0:
        return True
    if scratch is None:
        scratch = _Scratch()
    d, s, t = scratch.rows(arr)
    if d.min() < 1 or d.max() > n or s.min() < 0 or s.max() > 2 or t.min() < 0 or t.max() > 2:
        return False
    if np.equal(s, t, out=scratch.flags(m)).any() or _forbidden(s, t, puzzle.rule, scratch):
        return False
    top = int(d.max())
    if top <= DIGITS:
        return _legal_by_digits(d, s, t, where, top, scratch)
    return _legal_by_disks(d, s, t, where, n)


def _forbidden(s: Any, t: Any, rule: str, scratch: _Scratch) -> bool:
    """True when *rule* forbids one of the moves from pegs *s* to pegs *t*."""
    import numpy as np

    if rule == "any":
        return False
    m = len(s)
    work = scratch.spare(0, m)
    if rule == "cyclic":
        np.subtract(t, s, out=work)
        np.remainder(work, 3, out=work)
    else:
        np.add(s, t, out=work)
    return bool(np.equal(work, 2, out=scratch.flags(m)).any())


class _Scratch:
    """Work arrays reused from chunk to chunk: fresh ones are slow to fault in."""

    def __init__(self) -> None:
        self.size = 0
        self.ints: Any = None
        self.bools: Any = None

    def _grow(self, m: int) -> None:
        import numpy as np

        if m > self.size:
            self.size = max(m, 1 << 16)
            self.ints = np.empty((8, self.size), dtype=np.int64)
            self.bools = np.empty(self.size, dtype=bool)

    def rows(self, arr: Any) -> tuple[Any, Any, Any]:
        """Return the disk, source and destination of *arr* as int64 rows."""
        import numpy as np

        m = len(arr)
        self._grow(m)
        rows = self.ints[:3, :m]
        np.copyto(rows, arr.T, casting="unsafe")  # an out-of-range uint64 turns negative: refused
        return rows[0], rows[1], rows[2]

    def rows_of(self, m: int) -> tuple[Any, Any, Any]:
        """The first *m* columns of the rows last filled by :meth:`rows`."""
        return self.ints[0, :m], self.ints[1, :m], self.ints[2, :m]

    def spare(self, i: int, m: int) -> Any:
        """Work row *i* (0..4), *m* long."""
        return self.ints[3 + i, :m]

    def flags(self, m: int) -> Any:
        return self.bools[:m]


@cache
def _powers() -> tuple[Any, Any]:
    """Return 3^j and (3^j - 1) / 2 for j = 0..DIGITS, as int64 arrays."""
    import numpy as np

    pow3 = 3 ** np.arange(DIGITS + 1, dtype=np.int64)
    return pow3, (pow3 - 1) // 2


def _legal_by_digits(d: Any, s: Any, t: Any, where: Any, top: int, scratch: _Scratch) -> bool:
    """The chunk's test when no disk above 39 moves, on base-3 numbers."""
    import numpy as np

    m = len(d)
    pow3, ones = _powers()
    start = int(np.dot(where[1 : top + 1].astype(np.int64), pow3[:top]))
    index, below, delta, state, want = (scratch.spare(i, m) for i in range(5))
    np.subtract(d, 1, out=index)
    np.take(pow3, index, out=below)  # 3^(d-1)
    np.subtract(t, s, out=delta)
    np.multiply(delta, below, out=delta)
    state[0] = start
    np.cumsum(delta[:-1], out=state[1:])
    state[1:] += start
    # want = s * 3^(d-1) + r * (3^(d-1) - 1) / 2, with r = 3 - s - t
    np.take(ones, index, out=want)
    np.add(s, t, out=index)
    np.subtract(3, index, out=index)
    np.multiply(want, index, out=want)
    np.multiply(s, below, out=index)
    np.add(want, index, out=want)
    np.take(pow3, d, out=index)
    np.remainder(state, index, out=index)
    if not np.equal(index, want, out=scratch.flags(m)).all():
        return False
    end = start + int(delta.sum())
    where[1 : top + 1] = (end // pow3[:top]) % 3
    return True


def _legal_by_disks(d: Any, s: Any, t: Any, where: Any, n: int) -> bool:
    """The chunk's test in general: one pass per disk that moves."""
    import numpy as np

    m = len(d)
    r = 3 - s - t
    moving = np.zeros(n + 1, dtype=bool)
    moving[d] = True
    still = ~moving
    still[0] = False
    for p in range(3):
        off = np.flatnonzero(still & (where != p))
        if off.size and (d[r == p] > off[0]).any():
            return False
    new_where = where.copy()
    idx = np.arange(m)
    positions = np.arange(m)
    for e in np.flatnonzero(moving).tolist():
        de = d[idx]
        mine = de == e
        # last[j]: position in idx of the latest move of e strictly before idx[j], or -1
        last = np.where(mine, positions[: len(idx)], -1)
        np.maximum.accumulate(last, out=last)
        last[1:] = last[:-1].copy()
        last[0] = -1
        te = t[idx]
        peg_before = np.where(last >= 0, te[np.maximum(last, 0)], where[e])
        need = np.where(mine, s[idx], r[idx])
        if (peg_before != need).any():
            return False
        new_where[e] = te[np.flatnonzero(mine)[-1]]
        idx = idx[~mine]
    where[:] = new_where
    return True
