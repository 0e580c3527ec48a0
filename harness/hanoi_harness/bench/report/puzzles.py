"""The puzzles of a result set, each ranked against its own reference.

Each algorithm is ranked by ns per move within its puzzle, at about the same work; ranks allow ties.
``docs/bench/internals.md`` gives the rules.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from hanoi_harness.bench.results.resultset import CLASSIC_PUZZLE, AlgorithmResult, ResultSet, Run


@dataclass(frozen=True)
class Kind:
    """A kind of puzzle, drawn on figures of its own."""

    key: str
    title: str


KINDS = (
    Kind("classic", "The classic puzzle (3 pegs, every move)"),
    Kind("cyclic", "The cyclic puzzle (3 pegs, moves 0->1->2->0 only)"),
    Kind("linear", "The linear puzzle (3 pegs in a row, 0-1-2)"),
    Kind("k_pegs", "k pegs (4 or more, every move)"),
)
"""The kinds the project's records solve, in the order the views show them; any other puzzle is a kind of its own."""


def pegs_of(puzzle: str) -> int:
    """Return the pegs *puzzle* (a puzzle's text) names, 3 for none.

    >>> pegs_of("5 pegs, every move"), pegs_of("something else")
    (5, 3)
    """
    found = re.match(r"(\d+) pegs\b", puzzle)
    return int(found.group(1)) if found else 3


def kind_of(puzzle: str) -> Kind:
    """Return the kind of *puzzle*, a puzzle's text.

    >>> [kind_of(p).key for p in ("3 pegs, every move", "3 pegs, linear: 0-1-2", "6 pegs, every move")]
    ['classic', 'linear', 'k_pegs']
    >>> kind_of("3 pegs, every move, from 0,1 to the tower")
    Kind(key='3_pegs_every_move_from_0_1_to_the_tower', title='3 pegs, every move, from 0,1 to the tower')
    """
    classic, cyclic, linear, k_pegs = KINDS
    if puzzle == CLASSIC_PUZZLE:
        return classic
    if puzzle.startswith("3 pegs, cyclic"):
        return cyclic
    if puzzle.startswith("3 pegs, linear"):
        return linear
    if re.fullmatch(r"\d+ pegs, every move", puzzle) and pegs_of(puzzle) > 3:
        return k_pegs
    return Kind(re.sub(r"[^a-z0-9]+", "_", puzzle.lower()).strip("_") or "other", puzzle)


def title_of(puzzle: str) -> str:
    """Return the heading of *puzzle*'s tables.

    >>> title_of("3 pegs, every move"), title_of("4 pegs, every move")
    ('The classic puzzle (3 pegs, every move)', '4 pegs, every move')
    """
    kind = kind_of(puzzle)
    return kind.title if kind in KINDS[:3] else puzzle


def _order(puzzle: str) -> tuple[int, int, str]:
    """The place of *puzzle* among the views: by kind, then by pegs."""
    kind = kind_of(puzzle)
    place = KINDS.index(kind) if kind in KINDS else len(KINDS)
    return place, pegs_of(puzzle), puzzle


@dataclass(frozen=True)
class Entry:
    """One algorithm in its puzzle's ranking."""

    result: AlgorithmResult
    rank: int | None
    run: Run | None
    speed: float | None
    tied: bool = False

    @property
    def place(self) -> str:
        """Return the rank as shown: ``3``, ``=3`` when tied, ``-`` unranked.

        >>> a = AlgorithmResult("a")
        >>> Entry(a, 3, None, None, tied=True).place, Entry(a, 3, None, None).place, Entry(a, None, None, None).place
        ('=3', '3', '-')
        """
        if self.rank is None:
            return "-"
        return f"={self.rank}" if self.tied else str(self.rank)


def ns_interval(run: Run) -> tuple[float, float] | None:
    """Return the 95% interval of *run*'s ns per move, or None.

    >>> from hanoi_harness.bench.timing.figures import Timing
    >>> from hanoi_harness.bench.timing.stats import Interval
    >>> ns_interval(Run(3, moves=7, timing=Timing(7e-6, 0, 0, 0, 0, 0, 0, 9, 1, Interval(6.3e-6, 7.7e-6))))
    (900.0, 1100.0)
    >>> ns_interval(Run(3, moves=7, timing=Timing(7e-6, 0, 0, 0, 0, 0, 0, 5, 1))), ns_interval(Run(3))
    ((1000.0, 1000.0), None)
    """
    if run.timing is None or not run.moves:
        return None
    low, high = (run.timing.interval.low, run.timing.interval.high) if run.timing.interval else (run.timing.median,) * 2
    return low / run.moves * 1e9, high / run.moves * 1e9


RANK_MARGIN = 0.05
"""How far apart two intervals must lie to rank apart: 5% of the higher end."""
TIED = f"95% intervals overlap or lie within {RANK_MARGIN:.0%}"
"""What algorithms that share a rank have in common, said in every view."""


def ranks(intervals: Sequence[tuple[float, float]], margin: float = RANK_MARGIN) -> list[tuple[int, bool]]:
    """Return the rank of each of *intervals* (low, high), and if it is tied.

    An interval's rank is one more than the number below it by more than
    *margin* (surely faster); intervals that overlap or lie within the
    margin share a rank.  The margin keeps a near tie from ranking in
    opposite orders in two runs.

    >>> ranks([(1.0, 2.0), (1.5, 3.0), (4.0, 5.0)])
    [(1, True), (1, True), (3, False)]
    >>> ranks([(1.0, 2.0), (1.5, 3.0), (2.5, 3.5)])
    [(1, True), (1, True), (2, False)]
    >>> ranks([(1.0, 1.02), (1.04, 1.06)])  # apart, but within 5%
    [(1, True), (1, True)]
    """
    found = [1 + sum(other[1] * (1 + margin) < own[0] for other in intervals) for own in intervals]
    return [(rank, found.count(rank) > 1) for rank in found]


@dataclass(frozen=True)
class Standing:
    """A puzzle's algorithms, ranked."""

    puzzle: str
    reference: str
    target: int | None
    entries: tuple[Entry, ...]

    @property
    def kind(self) -> Kind:
        return kind_of(self.puzzle)

    @property
    def title(self) -> str:
        return title_of(self.puzzle)


def common_moves(members: Sequence[AlgorithmResult]) -> int | None:
    """Return W, the most moves every timed one of *members* reached.

    >>> from hanoi_harness.bench.timing.figures import Timing
    >>> t = Timing(1e-3, 0, 1e-3, 1e-3, 1e-3, 1e-3, 0, 8, 1)
    >>> common_moves([AlgorithmResult("a", runs=[Run(6, timing=t), Run(14, timing=t)]),
    ...               AlgorithmResult("b", runs=[Run(8, timing=t, moves=6560)])])
    6560
    """
    tops = [max(run.moves for run in result.timed().values()) for result in members if result.timed()]
    return min(tops) if tops else None


def ranked_run(result: AlgorithmResult, target: int | None) -> Run | None:
    """Return *result*'s timed run closest to *target* moves, in ratio."""
    timed = [run for run in result.timed().values() if run.moves > 0]
    if not timed:
        return None
    if target is None:
        return max(timed, key=lambda run: run.n)
    return min(timed, key=lambda run: (abs(math.log(run.moves / target)), -run.moves))


def reference_for(results: ResultSet, members: Sequence[AlgorithmResult]) -> str:
    """Return the reference of a puzzle whose records are *members*."""
    names = [result.name for result in members]
    if results.reference in names:
        return results.reference
    ours = [result for result in members if not result.external and not result.origin.startswith("plugin ")]
    recursive = [result.name for result in ours if result.family == "recursive"]
    return (recursive or [result.name for result in ours] or names)[0]


def standings(results: ResultSet) -> list[Standing]:
    """Return every puzzle of *results*, ranked within, the classic first."""
    by_puzzle: dict[str, list[AlgorithmResult]] = {}
    for result in results.algorithms.values():
        by_puzzle.setdefault(result.puzzle, []).append(result)
    return [_standing(results, puzzle, by_puzzle[puzzle]) for puzzle in sorted(by_puzzle, key=_order)]


def _standing(results: ResultSet, puzzle: str, members: list[AlgorithmResult]) -> Standing:
    target = common_moves(members)
    reference = reference_for(results, members)
    ref_run = ranked_run(results.algorithms[reference], target)
    found = []
    for result in members:
        run = ranked_run(result, target)
        found.append(((run.ns_per_move or math.inf) if run else math.inf, result.name, result, run))
    timed = [(name, ends) for _, name, _, run in found if run and (ends := ns_interval(run)) is not None]
    ranked = dict(zip((name for name, _ in timed), ranks([ends for _, ends in timed]), strict=True))
    found.sort(key=lambda e: (ranked.get(e[1], (math.inf, False))[0], e[0], e[1]))
    entries = []
    for _, _, result, run in found:
        speed = None
        if run is not None and ref_run is not None and run.ns_per_move and ref_run.ns_per_move:
            speed = ref_run.ns_per_move / run.ns_per_move
        rank, tied = ranked.get(result.name, (None, False)) if results.reads_moves else (None, False)
        entries.append(Entry(result, rank, run, speed, tied))
    return Standing(puzzle, reference, target, tuple(entries))


def rank_note(results: ResultSet, standing: Standing) -> str:
    """Return how *standing* is ranked, in words (or why it is not)."""
    if not results.reads_moves:
        return (
            "Not ranked: this set comes from a version whose drains read no move (generation only), so its "
            "speeds are how fast each generator hands out objects, not how fast moves can be read"
        )
    if standing.target is None:
        return "Not ranked: nothing was timed"
    return (
        f"Ranked by ns per move at about the same work, each at its timed run closest to {standing.target} moves "
        f"(the most every timed algorithm of this puzzle reached); =3 marks a shared rank, where the {TIED}; "
        f"speeds against {standing.reference}"
    )
