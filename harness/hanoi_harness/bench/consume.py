"""The one consumer every speed, count and memory figure drains through.

It folds every move into the project's digest, so every algorithm does the same work.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from hanoi_harness.core.digest import MASK, digest_chunks
from hanoi_harness.registry.record import Algorithm

SLICE_ROWS = 4096  #: Rows a chunked fold digests at once: fewer pay a call every few moves.


@dataclass(frozen=True)
class Folded:
    """What a drain read: how many *moves*, and their *digest*."""

    moves: int
    digest: int


def consume(algorithm: Algorithm, n: int) -> Folded:
    """Fold every move *algorithm* makes at *n* disks into the digest.

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

    >>> fold_moves([(1, 0, 1), (2, 0, 2), (1, 1, 2)])
    Folded(moves=3, digest=92)
    >>> fold_moves([(2, "s", "t"), (1, "s", "d"), (2, "t", "d")], ("s", "t", "d"), descending=True, n=2)
    Folded(moves=3, digest=92)
    >>> fold_moves([(1, 0, 3)], (0, 1, 2, 3))  # 16*1 + 4*0 + 3
    Folded(moves=1, digest=19)
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


_END: Any = object()  #: What :func:`as_ints` finds in place of a first move when there is none.


def as_ints(moves: Iterable[Any]) -> Iterator[Any]:
    """Return *moves*, their disks made ints if the first's is not one.

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

    >>> import numpy as np
    >>> fold_chunks([np.array([[1, 0, 1], [2, 0, 2]]), np.array([[1, 1, 2]])], rows=1)
    Folded(moves=3, digest=92)
    """
    return Folded(*digest_chunks(chunks, rows=rows))
