"""Hypothesis strategies for one's own tests, within an algorithm's record.

>>> from hypothesis import given
>>> from hanoi_harness.testing import record_of
>>> record = record_of("recursive")
>>> @given(disks(record, size=6))
... def test_every_run_is_optimal(n):
...     assert sum(1 for _ in record.moves(n)) == 2**n - 1
>>> test_every_run_is_optimal()
"""

from __future__ import annotations

from hypothesis import strategies as st

from hanoi_harness.core.puzzle import Config, tower
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.testing.records import most_disks

__all__ = ["configurations", "disks", "endpoints", "steps", "towers"]


def disks(algorithm: Algorithm, size: int = 14) -> st.SearchStrategy[int]:
    """Draw the n *algorithm* accepts, up to a run of 2^size - 1 moves."""
    return st.integers(algorithm.min_n, most_disks(algorithm, size))


def steps(n: int) -> st.SearchStrategy[int]:
    """Draw a step k = 1 .. 2^n - 1 of a classic run of n disks (n >= 1)."""
    return st.integers(1, (1 << n) - 1)


def towers(n: int, pegs: int = 3) -> st.SearchStrategy[Config]:
    """Draw a whole tower of n disks on one of *pegs* pegs, as a configuration."""
    return st.integers(0, pegs - 1).map(lambda peg: tower(n, peg))


def configurations(n: int, pegs: int = 3) -> st.SearchStrategy[Config]:
    """Draw any configuration of n disks on *pegs* pegs, disk 1 first."""
    return st.tuples(*[st.integers(0, pegs - 1)] * n)


def endpoints(algorithm: Algorithm, n: int) -> st.SearchStrategy[tuple[Config, Config]]:
    """Draw a start and a goal that *algorithm*'s ``solve_for`` takes."""
    pegs = algorithm.puzzle.pegs
    each = configurations(n, pegs) if algorithm.configurations == "any" else towers(n, pegs)
    return st.tuples(each, each)
