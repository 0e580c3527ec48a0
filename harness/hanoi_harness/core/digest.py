"""The project's fingerprint of a move sequence.

DIGEST = sum over k = 1..COUNT of k * (P^2*disk + P*src + dst) (mod 2^64), P the number of pegs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

MASK = (1 << 64) - 1  #: Digests are reduced mod 2^64: an unsigned 64-bit wrap in C.


def digest(moves: Iterable[tuple[int, int, int]], start: int = 1, pegs: int = 3) -> tuple[int, int]:
    """Count and fingerprint *moves*; return ``(count, digest)``.

    >>> digest([(1, 0, 2)]), digest([(1, 0, 1), (2, 0, 2), (1, 1, 2)])
    ((1, 11), (3, 92))
    >>> digest([(1, 0, 3)], pegs=4)  # 16*1 + 4*0 + 3
    (1, 19)
    >>> digest([])
    (0, 0)
    """
    k = start - 1
    total = 0
    square = pegs * pegs
    for disk, src, dst in moves:
        k += 1
        total += k * (square * disk + pegs * src + dst)
    return k - start + 1, total & MASK


def chunk_digest(chunk: Any, before: int, work: Any = None) -> int:
    """The digest of *chunk*, (m, 3) integers, from step *before* + 1.

    >>> import numpy as np
    >>> chunk_digest(np.array([[1, 0, 1], [2, 0, 2], [1, 1, 2]]), 0)
    92
    >>> chunk_digest(np.array([[1, 1, 2]]), 2) == 3 * (9 + 3 + 2)
    True
    """
    import numpy as np

    arr = np.asarray(chunk)
    m = len(arr)
    if m == 0:
        return 0
    if m < 1 << 24 and arr.dtype.kind in "iu" and arr.dtype.itemsize <= 2:
        # int64 is exact while m^2 / 2 * max(v) < 2^63: m < 2^24 for values below 2^16.
        if work is not None and work.shape[1] >= m:
            rows, values = work[:3, :m], work[3, :m]
        else:
            rows, values = np.empty((3, m), dtype=np.int64), None
        np.copyto(rows, arr.T, casting="unsafe")
        return rows_digest(rows[0], rows[1], rows[2], before, values)
    # Otherwise uint64, which wraps mod 2^64 exactly as the digest does.
    wide = np.array(arr.T, dtype=np.uint64)
    values = wide[0] * np.uint64(9) + wide[1] * np.uint64(3) + wide[2]
    weights = np.arange(1, m + 1, dtype=np.uint64)
    return (before * int(values.sum(dtype=np.uint64)) + int(np.dot(weights, values))) & MASK


def rows_digest(disk: Any, src: Any, dst: Any, before: int, values: Any = None) -> int:
    """The digest of m moves given as three int64 rows, from step *before* + 1.

    >>> import numpy as np
    >>> rows_digest(np.array([1, 2, 1]), np.array([0, 0, 1]), np.array([1, 2, 2]), 0)
    92
    """
    import numpy as np

    m = len(disk)
    v = np.empty(m, dtype=np.int64) if values is None else values
    np.multiply(disk, 3, out=v)  # 9*disk + 3*src + dst = 3*(3*disk + src) + dst, in place
    v += src
    v *= 3
    v += dst
    return (before * int(v.sum()) + int(np.dot(_weights(m), v))) & MASK


def _weights(m: int) -> Any:
    """Return 1..m as int64, sliced from a cached array."""
    import numpy as np

    global _WEIGHTS
    if len(_WEIGHTS) < m:
        _WEIGHTS = np.arange(1, max(m, 1 << 16) + 1, dtype=np.int64)
    return _WEIGHTS[:m]


_WEIGHTS: Any = ()


def digest_chunks(chunks: Iterable[Any], start: int = 1, rows: int = 1 << 16) -> tuple[int, int]:
    """Count and fingerprint moves given as *chunks* of (m, 3) integers.

    >>> import numpy as np
    >>> digest_chunks([np.array([[1, 0, 1], [2, 0, 2]]), np.array([[1, 1, 2]])])
    (3, 92)
    >>> digest_chunks([np.array([[1, 0, 1], [2, 0, 2]]), np.array([[1, 1, 2]])], rows=1)
    (3, 92)
    """
    import numpy as np

    work = np.empty((4, rows), dtype=np.int64)
    before = start - 1
    total = 0
    for chunk in chunks:
        for first in range(0, len(chunk), rows):
            part = chunk[first : first + rows]
            total += chunk_digest(part, before, work)
            before += len(part)
    return before - start + 1, total & MASK
