"""The optimal solution as a reference to compare streams of moves with.

It comes in units of a 65535-move :class:`Run` of the small disks and one move of a larger disk.
"""

from __future__ import annotations

import marshal
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from hanoi_harness.core.randomaccess import move_at, tower_at

BASE = 16  #: The disks of a reference run: 2^16 - 1 = 65535 moves.

RUN = (1 << BASE) - 1
UNIT = 1 << BASE  #: Steps per unit above 16 disks: a run, then the move of a larger disk.


class Run:
    """A reference run of the *size* smallest disks, *src* to *dst*."""

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
        """What ``marshal.dumps`` (version 2) gives for the run's tuples."""
        return _marshalled(self.rows)

    @cached_property
    def binary(self) -> bytes:
        data: bytes = self.rows.tobytes()
        return data

    @cached_property
    def text(self) -> str:
        return ("%d %d %d\n" * self.count) % tuple(self.rows.ravel().tolist())  # one C-level format beats f-strings

    def digest(self, before: int) -> int:
        """Return the run's digest, not reduced, from step *before* + 1."""
        return before * self.sum + self.weighted


@cache
def _canonical(size: int) -> Any:
    """Build the optimal moves of *size* disks, peg 0 to 2, as a uint8 array.

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
    """Return what ``marshal.dumps(..., 2)`` makes of *rows* as int tuples.

    >>> import numpy as np
    >>> rows = np.array([[1, 0, 2], [2, 0, 1]], dtype=np.uint8)
    >>> _marshalled(rows) == marshal.dumps([(1, 0, 2), (2, 0, 1)], 2)
    True
    """
    return _laid_out(rows) if _layout_holds() else _by_marshal(rows)


def _by_marshal(rows: Any) -> bytes:
    return marshal.dumps([tuple(row) for row in rows.tolist()], 2)


def _laid_out(rows: Any) -> bytes:
    """Lay out *rows* as marshal's version 2 would, with numpy."""
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
    """Return the cached :class:`Run` of *size* disks from *src* to *dst*."""
    return Run(size, src, dst)


@dataclass(frozen=True)
class Expected:
    """What the reference has next: the rest of a run, or one large move."""

    run: Run | None = None
    offset: int = 0
    move: tuple[int, int, int] | None = None

    @property
    def count(self) -> int:
        return self.run.count - self.offset if self.run is not None else 1


class Reference:
    """The optimal solution of *n* disks from peg 0 to *target*, by the piece."""

    def __init__(self, n: int, target: int) -> None:
        self.n = n
        self.labels = (0, 1, 2) if target == 2 else (0, 2, 1)  # the randomaccess sequence ends on peg 2
        self.length = (1 << n) - 1
        self._last: tuple[int, Expected, Expected | None] | None = None  # the unit last asked for

    def next(self, k: int) -> Expected | None:
        """Return what is expected after step *k*, or None past the end.

        >>> Reference(2, 1).next(1).run.rows.tolist(), Reference(17, 2).next(RUN).move
        ([[1, 0, 2], [2, 0, 1], [1, 2, 1]], (17, 0, 2))
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
        """Return unit *unit* (0-based): its run, and the large move after it."""
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
        """Move *i* of the large disks, at step i * 2^16, or None past the last."""
        if i >= 1 << (self.n - BASE):
            return None
        disk, src, dst = move_at(self.n - BASE, i)
        return disk + BASE, self.labels[src], self.labels[dst]

    def pegs(self, k: int) -> tuple[list[int], list[int], list[int]] | None:
        """Return the three pegs after *k* moves, or None past the end."""
        if k > self.length:
            return None
        pegs = tower_at(self.n, k)
        return pegs if self.labels[2] == 2 else (pegs[0], pegs[2], pegs[1])


def free(move: tuple[int, int, int]) -> int:
    """The peg a move leaves free."""
    return 3 - move[1] - move[2]
