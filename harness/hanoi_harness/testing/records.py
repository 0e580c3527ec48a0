"""What the conformance checks take: a generator function, record or name."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from hanoi_harness.bench.plan import fixed_sizes, moves_at
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import Registry, _from_object, build_registry, load_entry_points

AlgorithmLike = Algorithm | Callable[[int], Iterable[Any]] | str
"""A record, a generator function ``solve(n)``, or a registered name."""


def record_of(algorithm: AlgorithmLike) -> Algorithm:
    """Return the record the checks run on for *algorithm*.

    >>> def mine(n):
    ...     yield from ()
    >>> record = record_of(mine)
    >>> record.name, record.family, sorted(record.final_peg.pegs(3)), record.space
    ('mine', 'plugin', [1, 2], 'n')
    >>> record_of("recursive").name
    'recursive'
    """
    if isinstance(algorithm, Algorithm):
        return algorithm
    if isinstance(algorithm, str):
        return _registry().get(algorithm)
    if not callable(algorithm):
        raise UsageError(f"{algorithm!r} is not a generator function, an Algorithm record or an algorithm's name")
    name = getattr(algorithm, "__name__", "")
    where = f"{getattr(algorithm, '__module__', '?')}.{getattr(algorithm, '__qualname__', name)}"
    # The same record a '--plugin FILE.py:FUNC' of this function makes.
    return _from_object(algorithm, name, f"function {where}")


@functools.cache
def _registry() -> Registry:
    """The in-tree algorithms and the installed entry points, built once."""
    return build_registry()


def installed() -> list[Algorithm]:
    """Return every algorithm of the entry-point group ``hanoi.algorithms``."""
    registry = Registry()
    load_entry_points(registry)
    return list(registry)


def most_disks(algorithm: Algorithm, size: int) -> int:
    """Return the most disks allowed whose run makes <= 2^size - 1 moves.

    >>> [most_disks(record_of(name), 10) for name in ("recursive", "linear", "frame_stewart")]
    [10, 6, 29]
    >>> most_disks(record_of("tree_array"), 20)  # its limit
    17
    """
    return fixed_sizes(algorithm, [size])[0]


def sizes(algorithm: Algorithm, size: int) -> list[int]:
    """Return every n from *algorithm*'s minimum up to its :func:`most_disks`.

    >>> sizes(record_of("flag_stack"), 4)
    [1, 2, 3, 4]
    """
    return list(range(algorithm.min_n, most_disks(algorithm, size) + 1))


def run_length(algorithm: Algorithm, n: int) -> int:
    """Return the fewest moves of *algorithm*'s n disks to its farthest peg."""
    return moves_at(algorithm, n)
