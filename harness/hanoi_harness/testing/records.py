"""What the conformance checks take: a generator function, record or name.

Every form becomes one :class:`~hanoi_harness.registry.record.Algorithm`, as
the ``hanoi`` command would make it. A bare generator function is an ad-hoc
record, exactly what ``--plugin FILE.py:FUNC`` loads: named after the
function, ending on any peg but 0, no limits, the space class "n". A name is
looked up among the in-tree algorithms and the installed entry points.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from hanoi_harness.bench.plan import fixed_sizes, moves_at
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import Registry, _from_object, build_registry, load_entry_points

AlgorithmLike = Algorithm | Callable[[int], Iterable[Any]] | str
"""What :func:`record_of` takes: a record, a generator function ``solve(n)``, or a registered name."""


def record_of(algorithm: AlgorithmLike) -> Algorithm:
    """Return the record the checks run on for *algorithm*.

    *algorithm* is a record, a generator function or a registered name.

    >>> def mine(n):
    ...     yield from ()
    >>> record = record_of(mine)
    >>> record.name, record.family, sorted(record.final_peg.pegs(3)), record.space
    ('mine', 'plugin', [1, 2], 'n')
    >>> record_of("recursive").name
    'recursive'

    Anything else is a :class:`~hanoi_harness.errors.UsageError` in one line.
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
    """Return every algorithm of the entry-point group ``hanoi.algorithms``.

    They are keyed by name.
    """
    registry = Registry()
    load_entry_points(registry)
    return list(registry)


def most_disks(algorithm: Algorithm, size: int) -> int:
    """Return the most disks whose run makes at most 2^size - 1 moves.

    The n must be within *algorithm*'s limits. For the classic puzzle it is
    *size* itself; it is fewer disks for the cyclic and linear puzzles, more
    on k pegs (:func:`hanoi_harness.bench.plan.fixed_sizes`).
    A record whose limits leave no such n gets its smallest n.

    >>> [most_disks(record_of(name), 10) for name in ("recursive", "linear", "frame_stewart")]
    [10, 6, 29]
    >>> most_disks(record_of("tree_array"), 20)  # its limit
    17
    """
    return fixed_sizes(algorithm, [size])[0]


def sizes(algorithm: Algorithm, size: int) -> list[int]:
    """Return every n from *algorithm*'s minimum up to its :func:`most_disks`.

    The most disks are those for *size*.

    >>> sizes(record_of("flag_stack"), 4)
    [1, 2, 3, 4]
    """
    return list(range(algorithm.min_n, most_disks(algorithm, size) + 1))


def run_length(algorithm: Algorithm, n: int) -> int:
    """Return the number of moves of *algorithm*'s run of n disks.

    It is its puzzle's fewest, to the farthest peg the run may end on.
    """
    return moves_at(algorithm, n)
