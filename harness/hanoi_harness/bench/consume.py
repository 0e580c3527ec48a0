"""The one consumer every speed, count and memory figure drains through.

Draining a generator with ``deque(solve(n), maxlen=0)`` times how fast it
hands out *something*.  A per-move port builds a tuple per move.  A chunked
one (``blocks``) hands out references to cached read-only arrays, so nothing
reads the moves, and the figure says nothing about moving disks.  Equal work
means the same consumer reads every move of every algorithm.  So
:func:`consume` folds each move into the project's digest
(:mod:`hanoi_harness.core.digest`): every field of every move is read, in
order, and the result can be checked against any other implementation's.

* A per-move generator is folded by :func:`fold_moves`, one Python loop
  whose bytecode is the same for every record.  The original's peg labels go
  through two look-up tables (``{label: P * peg}`` and ``{label: peg}``, P
  the puzzle's number of pegs).  A descending disk number is handled by the
  sign of the disk's weight.  So a port in letters pays what a port in the
  model's integers pays; through
  :meth:`~hanoi_harness.registry.record.Algorithm.moves` it would pay for a
  relabelling generator on top.
* A chunked generator is folded by :func:`fold_chunks`, the digest's numpy
  form (:func:`hanoi_harness.core.digest.chunk_digest`), over slices of
  :data:`SLICE_ROWS` moves with one reused scratch buffer.  That reads every
  byte of every array, at a few times the cost of reading the bytes alone
  (a sum).

The consumer's own cost is part of every figure.  Per move it is the loop
above (for a per-move port) or the vectorised digest (for a chunked one).
Its memory is a few integers, or the scratch buffer of a chunked fold.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from hanoi_harness.core.digest import MASK, digest_chunks
from hanoi_harness.registry.record import Algorithm

SLICE_ROWS = 4096
"""Rows a chunked fold digests at once.

Fewer rows pay a call for every few moves; more gain little speed.  The
scratch buffer takes 32 bytes a row and counts in the consumer's traced
peak, so it stays far below what a whole 65535-move chunk would take.
"""


@dataclass(frozen=True)
class Folded:
    """What a drain read: how many *moves*, and their *digest*.

    The digest is the project's fingerprint of the moves.
    """

    moves: int
    digest: int


def consume(algorithm: Algorithm, n: int) -> Folded:
    """Fold every move *algorithm* makes at *n* disks into the digest.

    The moves come from the algorithm's own generator and are folded in the
    project's model.  This is the drain every ranked figure is for: the same
    digest whatever the generator yields, single moves in the original's
    labels or (m, 3) arrays.

    What the generator raises comes through; so does the fold's error on a
    move it cannot read (see :func:`fold_moves`): the bench checks every
    algorithm before it drains it.

    >>> from hanoi_harness.registry.sources import build_registry
    >>> registry = build_registry(entry_points=False)
    >>> consume(registry.get("recursive"), 2), consume(registry.get("blocks"), 2)
    (Folded(moves=3, digest=92), Folded(moves=3, digest=92))
    >>> consume(registry.get("frame_stewart"), 3)  # four pegs: weights 16, 4, 1
    Folded(moves=5, digest=525)
    """
    raw = algorithm.solve(n)
    if algorithm.chunks:
        return fold_chunks(raw)
    # A puzzle of k > 3 pegs keeps the model's labels 0 .. k-1 (the record's three labels name only the first three).
    pegs = algorithm.pegs if algorithm.puzzle.pegs == 3 else tuple(range(algorithm.puzzle.pegs))
    return fold_moves(raw, pegs, descending=algorithm.disks == "descending", n=n)


def fold_moves(
    moves: Iterable[Any], pegs: Sequence[Any] = (0, 1, 2), *, descending: bool = False, n: int = 0
) -> Folded:
    """Fold single *moves* labelled with *pegs* into the model's digest.

    *pegs* are the labels of pegs 0, 1, ..., P-1.  A move weighs
    P^2 disk + P src + dst on P pegs (9, 3, 1 on three).  With *descending*,
    disk 1 is the largest of *n*, and its model number is n + 1 - disk.  The
    loop then weighs the disk by -P^2 instead of P^2, and the sum of
    P^2 (n + 1) k over the moves is added at the end, so the loop is the
    same for both.

    >>> fold_moves([(1, 0, 1), (2, 0, 2), (1, 1, 2)])
    Folded(moves=3, digest=92)
    >>> fold_moves([(2, "s", "t"), (1, "s", "d"), (2, "t", "d")], ("s", "t", "d"), descending=True, n=2)
    Folded(moves=3, digest=92)
    >>> fold_moves([(1, 0, 3)], (0, 1, 2, 3))  # 16*1 + 4*0 + 3
    Folded(moves=1, digest=19)

    A label not in *pegs* raises :class:`KeyError`; a move that is not three
    values, :class:`ValueError` or :class:`TypeError`. Disks of another
    integer type (numpy's) are made ints first (:func:`as_ints`).
    """
    moves = as_ints(moves)
    count = len(pegs)
    square = count * count
    times_p = {label: count * peg for peg, label in enumerate(pegs)}
    times1 = {label: peg for peg, label in enumerate(pegs)}
    weight = -square if descending else square
    k = 0
    total = 0
    for disk, src, dst in moves:
        k += 1
        total += k * (weight * disk + times_p[src] + times1[dst])
    if descending:
        total += square * (n + 1) * (k * (k + 1) // 2)
    return Folded(k, total & MASK)


_END: Any = object()
"""What :func:`as_ints` finds in place of a first move when there is none."""


def as_ints(moves: Iterable[Any]) -> Iterator[Any]:
    """Return *moves*, their disks made ints if the first's is not one.

    The disks of a run of ints pass untouched, so that the fold's loop costs
    the same for every such run. Any integer type (numpy's, one with
    ``__index__``) becomes an int through :func:`operator.index`.

    >>> class Two:
    ...     def __index__(self):
    ...         return 2
    >>> [type(disk) for disk, _, _ in as_ints([(Two(), 0, 2)])]
    [<class 'int'>]
    """
    moves = iter(moves)
    first = next(moves, _END)
    if first is _END:
        return moves
    rest = itertools.chain([first], moves)
    try:
        plain = type(first[0]) is int
    except Exception:  # not a sequence: the fold says what is wrong with it
        plain = True
    return rest if plain else ((operator.index(disk), src, dst) for disk, src, dst in rest)


def fold_chunks(chunks: Iterable[Any], rows: int = SLICE_ROWS) -> Folded:
    """Fold (m, 3) integer arrays of moves into the digest, *rows* at a time.

    The moves are in the model's labels.

    >>> import numpy as np
    >>> fold_chunks([np.array([[1, 0, 1], [2, 0, 2]]), np.array([[1, 1, 2]])], rows=1)
    Folded(moves=3, digest=92)
    """
    return Folded(*digest_chunks(chunks, rows=rows))
