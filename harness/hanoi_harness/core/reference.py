"""The optimal solution as a reference to compare streams of moves with.

Streams of moves are compared with it a piece at a time.  It is built from
the solution's structure, not from any algorithm.  For n <= 16 it is the
n-disk solution.  Above, step numbers fall into units of 2^16.  A unit is a
:class:`Run` of 65535 moves of the 16 smallest disks, then one move of a
larger disk.  That run is the 16-disk solution from one peg to another: one
of six relabellings of one run built by doubling.  The larger disks move as
the (n - 16)-disk solution does
(:func:`~hanoi_harness.core.randomaccess.move_at`).  The tower may end on
peg 2 or on peg 1.  Each run caches what is written from it: text, bytes,
digest sums, and its :mod:`marshal` encoding (see
:mod:`hanoi_harness.sandbox.screen`).
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from hanoi_harness.core.randomaccess import move_at, tower_at

BASE = 16
"""The disks of a reference run: 2^16 - 1 = 65535 moves."""

RUN = (1 << BASE) - 1
UNIT = 1 << BASE
"""Steps per unit above 16 disks: a run, then the move of a larger disk."""


class Run:
    """A reference run of the *size* smallest disks, and what is written of it.

    The run goes from peg *src* to peg *dst*; what is written of it is
    cached.
    """

    def __init__(self, size: int, src: int, dst: int) -> None:
        import numpy as np

        labels = np.array([src, 3 - src - dst, dst], dtype=np.uint8)
        rows = _canonical(size).copy()
        rows[:, 1:] = labels[rows[:, 1:]]
        rows.setflags(write=False)
        self.rows = rows
        self.count = len(rows)
        values = rows.astype(np.int64) @ np.array([9, 3, 1], dtype=np.int64)
        self.sum = int(values.sum())  # sum of v_i, and of i * v_i: the digest after `before` moves is their blend
        self.weighted = int(values @ np.arange(1, self.count + 1, dtype=np.int64))

    @cached_property
    def marshalled(self) -> bytes:
        """What ``marshal.dumps`` gives for the run as a list of tuples.

        The encoding is marshal's version 2.
        """
        return _marshalled(self.rows)

    @cached_property
    def binary(self) -> bytes:
        data: bytes = self.rows.tobytes()
        return data

    @cached_property
    def text(self) -> str:
        return ("%d %d %d\n" * self.count) % tuple(self.rows.ravel().tolist())  # one C-level format beats f-strings

    def digest(self, before: int) -> int:
        """Return the run's digest when its first move is step *before* + 1.

        The digest is not reduced mod 2^64.
        """
        return before * self.sum + self.weighted


@cache
def _canonical(size: int) -> Any:
    """Build the optimal moves of *size* disks from peg 0 to peg 2.

    They form a (2^size - 1, 3) uint8 array.  S(d) = S(d-1) with pegs 1 and
    2 exchanged, the move (d, 0, 2), then S(d-1) with pegs 0 and 1 exchanged.

    >>> _canonical(2).tolist()
    [[1, 0, 1], [2, 0, 2], [1, 1, 2]]
    """
    import numpy as np

    seq = np.zeros((0, 3), dtype=np.uint8)
    swap12 = np.array([0, 2, 1], dtype=np.uint8)
    swap01 = np.array([1, 0, 2], dtype=np.uint8)
    for disk in range(1, size + 1):
        before, after = seq.copy(), seq.copy()
        before[:, 1:] = swap12[seq[:, 1:]]
        after[:, 1:] = swap01[seq[:, 1:]]
        seq = np.concatenate([before, np.array([[disk, 0, 2]], dtype=np.uint8), after])
    return seq


def _marshalled(rows: Any) -> bytes:
    """Return what ``marshal.dumps`` makes of *rows* as a list of int tuples.

    *rows* is an (m, 3) array, and the encoding is marshal's version 2.  It
    is laid out with numpy, faster than building the tuples and marshalling
    them.  That is done once the layout is checked to be marshal's own,
    which it has been since Python 2.5.

    >>> import numpy as np
    >>> rows = np.array([[1, 0, 2], [2, 0, 1]], dtype=np.uint8)
    >>> _marshalled(rows) == marshal.dumps([(1, 0, 2), (2, 0, 1)], 2)
    True
    """
    return _laid_out(rows) if _layout_holds() else _by_marshal(rows)


def _by_marshal(rows: Any) -> bytes:
    return marshal.dumps([tuple(row) for row in rows.tolist()], 2)


def _laid_out(rows: Any) -> bytes:
    """Lay out *rows* as marshal's version 2 would, with numpy.

    A list is '[' and a 4-byte count, a tuple '(' and a 4-byte size, an int
    'i' and 4 bytes.
    """
    import numpy as np

    names = ("disk", "src", "dst")
    fields = [("open", "u1"), ("size", "<i4")]
    for name in names:
        fields += [(f"{name}_tag", "u1"), (name, "<i4")]
    encoded = np.zeros(len(rows), dtype=np.dtype(fields))
    encoded["open"], encoded["size"] = ord("("), 3
    for column, name in enumerate(names):
        encoded[f"{name}_tag"] = ord("i")
        encoded[name] = rows[:, column]
    return b"[" + len(rows).to_bytes(4, "little") + encoded.tobytes()


@cache
def _layout_holds() -> bool:
    sample = _canonical(4)
    return _laid_out(sample) == _by_marshal(sample)


@cache
def run(size: int, src: int, dst: int) -> Run:
    """Return the cached :class:`Run` of *size* disks from *src* to *dst*.

    There are six per size, one per pair of pegs.
    """
    return Run(size, src, dst)


@dataclass(frozen=True)
class Expected:
    """What the reference has next: the rest of a run, or one large move.

    The rest of a run starts at *offset*; a large move is one of a larger disk.
    """

    run: Run | None = None
    offset: int = 0
    move: tuple[int, int, int] | None = None

    @property
    def count(self) -> int:
        return self.run.count - self.offset if self.run is not None else 1


class Reference:
    """The optimal solution of *n* disks from peg 0 to *target*, by the piece.

    The pieces are runs and single moves of the large disks.
    """

    def __init__(self, n: int, target: int) -> None:
        self.n = n
        self.labels = (0, 1, 2) if target == 2 else (0, 2, 1)  # the randomaccess sequence ends on peg 2
        self.length = (1 << n) - 1
        self._last: tuple[int, Expected, Expected | None] | None = None  # the unit last asked for

    def next(self, k: int) -> Expected | None:
        """Return what is expected after step *k*, or None past the end.

        >>> Reference(2, 1).next(1).run.rows.tolist()
        [[1, 0, 2], [2, 0, 1], [1, 2, 1]]
        >>> Reference(17, 2).next(RUN).move
        (17, 0, 2)
        """
        if k >= self.length:
            return None
        if self.n <= BASE:
            return Expected(run(self.n, 0, self.labels[2]), k)
        unit, offset = divmod(k, UNIT)
        whole, large = self._unit(unit)
        if offset == RUN:
            return large
        return whole if not offset else Expected(whole.run, offset)

    def _unit(self, unit: int) -> tuple[Expected, Expected | None]:
        """Return unit *unit* (0-based): its run of the small tower, and a move.

        The move is the large one after the run, None after the last unit.
        The large disks move as the (n - 16)-disk solution does, one move per
        unit.  Between two of their moves the small tower goes to the peg the
        next one leaves free.
        """
        if self._last is None or self._last[0] != unit:
            if unit == 0:
                src = 0
            else:  # the large move before this unit: the previous unit's last, or worked out afresh
                last = self._last
                before = last[2].move if last is not None and last[0] == unit - 1 and last[2] else self._large(unit)
                src = free(before) if before is not None else 0
            large = self._large(unit + 1)
            dst = self.labels[2] if large is None else free(large)
            self._last = (unit, Expected(run(BASE, src, dst)), None if large is None else Expected(move=large))
        return self._last[1], self._last[2]

    def _large(self, i: int) -> tuple[int, int, int] | None:
        """Move *i* of the large disks, in the model's numbering, or None.

        Move *i* is at step i * 2^16; None comes past their last move.
        """
        if i >= 1 << (self.n - BASE):
            return None
        disk, src, dst = move_at(self.n - BASE, i)
        return disk + BASE, self.labels[src], self.labels[dst]

    def pegs(self, k: int) -> tuple[list[int], list[int], list[int]] | None:
        """Return the three pegs after *k* moves, or None past the end.

        Each peg lists its disks, bottom first.
        """
        if k > self.length:
            return None
        pegs = tower_at(self.n, k)
        return pegs if self.labels[2] == 2 else (pegs[0], pegs[2], pegs[1])


def free(move: tuple[int, int, int]) -> int:
    """The peg a move leaves free."""
    return 3 - move[1] - move[2]
