"""The verdict of a whole run from its segments' results."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from hanoi_harness.core.checker import check
from hanoi_harness.core.digest import MASK
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.scale.segment import SegmentResult
from hanoi_harness.scale.segments import Pegs, as_lists


def combine(n: int, final_peg: int, results: Iterable[SegmentResult]) -> Verdict:
    """Return the verdict of the whole n-disk run from its segments' *results*.

    >>> from hanoi_harness.scale import verify_segment
    >>> combine(2, 1, [verify_segment("bitwise", (), 2, 1, 2), verify_segment("bitwise", (), 2, 3, 3)]).describe()
    'ok (3 moves, tower on peg 1)'
    """
    total = (1 << n) - 1
    pegs: Pegs = (tuple(range(n, 0, -1)), (), ())
    digest = 0
    done = 0
    for result in sorted(results, key=lambda r: r.first):
        if result.first != done + 1:
            raise ValueError(
                f"the segments do not cover the steps: after step {done} comes {result.first}..{result.last}"
            )
        if result.start is not None and result.start != pegs:
            reason = f"the segments do not join after step {done}: pegs {pegs}, the next starts from {result.start}"
            return Verdict("crashed", n, done, digest & MASK, step=done + 1, reason=reason)
        if not result.verdict.ok:
            return replace(result.verdict, digest=(digest + result.verdict.digest) & MASK)
        if result.end is None or result.verdict.moves != result.size:
            raise ValueError(f"segment {result.first}..{result.last} is ok without its end pegs or its count")
        digest += result.verdict.digest
        pegs = result.end
        done = result.last
    if done != total:
        raise ValueError(f"the segments end at step {done}, not {total}")
    verdict = check([], n, frozenset({final_peg}), start=total, initial=as_lists(pegs))
    return replace(verdict, digest=digest & MASK)
