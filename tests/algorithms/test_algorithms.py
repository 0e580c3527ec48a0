"""Every registered algorithm gets every check here.

The checks are parametrized over the registry.  The conformance checks are the ones any variant's own
project runs (:mod:`hanoi_harness.testing`), one test per algorithm and check, with the id
``NAME-CHECK``.  They check that a run is legal, optimal, on its declared peg, within its limits,
deterministic and streaming.  Where declared, it is also checked resumed and between configurations.
Runs are drawn by hypothesis, and written and read back as ``hanoi moves`` writes them.

The rest are the project's house rules for its own ports: a complete record citing its source, and the
reference sequence itself.  The checker judges each record by its own puzzle.  The one check marked
``classic_only`` compares the moves with the reference sequence, the classic puzzle's; the other puzzles'
algorithms are compared move for move with breadth-first search in ``test_variants.py``.
"""

from __future__ import annotations

import inspect
import sys

import pytest

from hanoi_harness.core.checker import check_algorithm
from hanoi_harness.core.digest import digest
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.testing import NAMES, Check, parametrize_with_checks
from tests.helpers import ALGORITHMS, at_scale, equal_work, expected

FULL = [check for check in NAMES if check not in ("streaming", "drawn")]
"""The checks measured by coverage; the two that replay tens of thousands of moves per algorithm run unmeasured."""


@parametrize_with_checks(ALGORITHMS, checks=FULL)
def test_conformance(algorithm: Algorithm, check: Check) -> None:
    check(algorithm)


@at_scale
@parametrize_with_checks(ALGORITHMS, checks=["streaming", "drawn"])
def test_conformance_at_scale(algorithm: Algorithm, check: Check) -> None:
    check(algorithm)


@pytest.mark.classic_only
def test_same_sequence_as_the_reference(algorithm: Algorithm, n: int) -> None:
    moves = list(algorithm.moves(n))
    assert moves == list(expected(algorithm, n))


def test_record_is_complete(algorithm: Algorithm) -> None:
    # What Algorithm.__post_init__ enforces (name, classes, labels) is not asked again here.
    assert algorithm.summary and "\n" not in algorithm.summary
    assert algorithm.source is not None, "in-tree algorithms cite their source"
    assert algorithm.source.author and algorithm.source.title and algorithm.source.site and algorithm.source.year
    if algorithm.max_n is not None:
        assert algorithm.max_n_reason, "a maximum n must say why"
    if algorithm.min_n > 0:
        assert algorithm.min_n_reason, "a minimum n must say why"
    module = sys.modules[algorithm.solve.__module__]
    doc = inspect.getdoc(module) or ""
    assert algorithm.source.author.split()[0] in doc, "the module docstring cites the source"
    if algorithm.reconstruction:
        assert "reconstruction" in doc.lower() and "reconstruction" in algorithm.summary.lower()


@at_scale
def test_verified_up_to_its_limit_or_2_to_the_16_moves(algorithm: Algorithm) -> None:
    # 2^16 - 1 moves: n = 16 on the classic puzzle, fewer on the others.
    verified_at_work(algorithm, 16)


@pytest.mark.slow
def test_verified_up_to_its_limit_or_2_to_the_20_moves(algorithm: Algorithm) -> None:
    # Where tree_array stops at its 132000-node array (n = 17); fewer disks on cyclic and linear.
    verified_at_work(algorithm, 20)


def verified_at_work(algorithm: Algorithm, work: int) -> None:
    """Check *algorithm* at about 2^*work* moves, its digest the reference's."""
    n = equal_work(algorithm, work, most=30)
    verdict = check_algorithm(algorithm, n)
    assert verdict.status == "ok", verdict.describe()
    if algorithm.puzzle.classic:
        assert verdict.digest == digest(expected(algorithm, n))[1]
    else:  # the documented formula, on P pegs
        k = algorithm.puzzle.pegs
        moves = algorithm.moves(n)
        assert verdict.digest == sum(i * (k * k * d + k * s + t) for i, (d, s, t) in enumerate(moves, 1)) % 2**64
