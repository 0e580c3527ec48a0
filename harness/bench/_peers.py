"""The peers against the project's algorithms: what ``hanoi bench --peers`` measures, and the tables of who is faster.

Other packages' solvers (the extra ``peers``, :mod:`hanoi_harness.peers`)
are measured as plugins, each with the project's algorithm it is paired with
(:data:`hanoi_harness.peers.PEERS`), in a result set of their own: one run
with every phase of any other (checked first, timed by pytest-benchmark with
every move read by the one consumer, at the sizes of the same work, memory
and instruction counts), written as ``peers/`` inside the run's output
directory.  Kept apart from the project's set because the slowest peer stops
at n = 10 (Dijkstra over 3^n positions), and the summary ranks every
algorithm of a set at the most moves all of them reached.

The tables here are rendered from a set's ``results.json`` alone, from its
``peers`` pairs (:class:`~hanoi_harness.bench._results.Pair`): for each pair,
at each n both sides were timed at, each side's ns per move, the ratio (how
many times faster the project's algorithm is; below 1, slower) with the
interval that the two medians' 95% intervals allow, and each side's verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hanoi_harness.bench._format import fmt_number, fmt_per_move
from hanoi_harness.bench._results import AlgorithmResult, Pair, ResultSet, Run
from hanoi_harness.bench._run import REFERENCE
from hanoi_harness.bench._tables import Table
from hanoi_harness.registry import Algorithm, Registry, build_registry

DIRECTORY = "peers"
"""Where a bench with ``--peers`` writes the peers' result set, inside its output directory."""


@dataclass(frozen=True)
class Peers:
    """What a bench measures of the peers: the *algorithms* (ours, then theirs), the *specs* loading theirs, *pairs*."""

    algorithms: tuple[Algorithm, ...]
    specs: tuple[str, ...]
    pairs: tuple[Pair, ...]


def peers(ours: Registry) -> Peers:
    """Return every peer of :data:`hanoi_harness.peers.PEERS`, loaded as plugins, with its algorithm from *ours*.

    The reference (``recursive``) is measured too, as in every set: times
    relative to it, and the noise floor.

    A peer that is not installed is a one-line
    :class:`~hanoi_harness.errors.UsageError` naming the package and the
    extra to install, before anything is measured.
    """
    from hanoi_harness.peers import PEERS

    specs = tuple(peer.spec for peer in PEERS)
    loaded = {a.origin.removeprefix("plugin "): a for a in build_registry(specs, entry_points=False)}
    theirs = [loaded[spec] for spec in specs]
    mine = [ours.get(name) for name in dict.fromkeys([REFERENCE, *(peer.ours for peer in PEERS)])]
    pairs = tuple(
        Pair(record.name, peer.ours, peer.apart, _optimality(ours.get(peer.ours)))
        for peer, record in zip(PEERS, theirs, strict=True)
    )
    return Peers((*mine, *theirs), specs, pairs)


def _optimality(algorithm: Algorithm) -> str:
    """Return what an ok verdict says of *algorithm*'s move counts: optimal (proven), or the conjectured count."""
    (peg, *_) = sorted(algorithm.final_peg.pegs(1))
    found = algorithm.puzzle.optimum(1, peg)
    return found.describe() if found else "the fewest moves known"


HEADERS = ["puzzle", "n", "moves", "peer", "ns/move", "ours", "ns/move ", "ours is ... times faster"]
HEADERS += ["instructions/move, peer / ours", "peer's verdict", "our verdict"]
COLUMNS = ["puzzle", "n", "moves", "peer", "peer_ns_per_move", "ours", "ours_ns_per_move", "ratio"]
COLUMNS += ["ratio_low", "ratio_high", "peer_instructions_per_move", "ours_instructions_per_move"]
COLUMNS += ["peer_status", "ours_status"]


def comparison(results: ResultSet) -> Table:
    """Return the table of every pair of *results* at each n both sides were timed at (its CSV: ``peers.csv``)."""
    shown: list[list[str]] = []
    raw: list[list[Any]] = []
    for pair in results.peers:
        peer, ours = results.algorithms[pair.peer], results.algorithms[pair.ours]
        for n in common_ns(peer, ours):
            shown.append(_row(pair, peer, ours, n))
            raw.append(_raw(pair, peer, ours, n))
    title = "Peers against ours, on the same work (every move read by the one consumer), at each n both ran"
    return Table(title, HEADERS, shown, "peers.csv", COLUMNS, raw)


def headline(results: ResultSet) -> Table:
    """Return one row per pair of *results*: the n both ran, and the ratio at the largest and over all of them."""
    headers = ["peer", "ours", "puzzle", "n both ran", "at the largest: moves", "ours is ... times faster"]
    headers += ["over every n", "peer's verdict"]
    shown = []
    for pair in results.peers:
        peer, ours = results.algorithms[pair.peer], results.algorithms[pair.ours]
        ns = common_ns(peer, ours)
        ratios = [ratio(peer.timed()[n], ours.timed()[n]) for n in ns]
        top = ns[-1] if ns else None
        shown.append(
            [
                pair.peer,
                pair.ours,
                ours.puzzle,
                f"{ns[0]}..{ns[-1]}" if ns else "none",
                str(ours.timed()[top].moves) if top is not None else "",
                _times(ratios[-1]) if ratios else "",
                f"{_times(min(ratios))} to {_times(max(ratios))}" if ratios else "",
                verdict(peer, pair),
            ]
        )
    return Table("Peers against ours, in one line each", headers, shown, "", [], [])


def common_ns(peer: AlgorithmResult, ours: AlgorithmResult) -> list[int]:
    """Return the n at which *peer* and *ours* were both timed on the same number of moves, in order."""
    mine, theirs = ours.timed(), peer.timed()
    return sorted(n for n in mine.keys() & theirs.keys() if mine[n].moves == theirs[n].moves and mine[n].moves)


def ratio(peer: Run, ours: Run) -> float:
    """Return how many times faster *ours* was than *peer* on the same run: the peer's median over ours."""
    assert peer.timing is not None and ours.timing is not None
    return peer.timing.median / ours.timing.median


def ratio_interval(peer: Run, ours: Run) -> tuple[float, float] | None:
    """Return the ratio's bounds that the two medians' 95% intervals allow, or None when either has none.

    The slowest the peer could be over the fastest ours could be, and the
    other way round: wider than a test of the ratio would give, never narrower.
    """
    if peer.timing is None or ours.timing is None or peer.timing.interval is None or ours.timing.interval is None:
        return None
    return peer.timing.interval.low / ours.timing.interval.high, peer.timing.interval.high / ours.timing.interval.low


def verdict(result: AlgorithmResult, pair: Pair) -> str:
    """Return *result*'s verdict as the peers' tables show it: legal and how optimal, or its failure."""
    if result.status != "ok":
        return "FAILED: " + str((result.failure or {}).get("describe", "failed"))
    return f"legal, {pair.optimality}"


def _row(pair: Pair, peer: AlgorithmResult, ours: AlgorithmResult, n: int) -> list[str]:
    """Return the Markdown row of *pair* at *n*."""
    theirs, mine = peer.timed()[n], ours.timed()[n]
    bounds = ratio_interval(theirs, mine)
    shown_ratio = _times(ratio(theirs, mine)) + (f" ({_times(bounds[0])} to {_times(bounds[1])})" if bounds else "")
    return [
        ours.puzzle,
        str(n),
        str(mine.moves),
        pair.peer,
        fmt_per_move(theirs),
        pair.ours,
        fmt_per_move(mine),
        shown_ratio,
        _instructions(pair, peer, ours),
        verdict(peer, pair),
        verdict(ours, pair),
    ]


def _raw(pair: Pair, peer: AlgorithmResult, ours: AlgorithmResult, n: int) -> list[Any]:
    """Return the CSV row of *pair* at *n*: one figure a cell, None where there is none."""
    theirs, mine = peer.timed()[n], ours.timed()[n]
    bounds = ratio_interval(theirs, mine) or (None, None)
    counts = [_per_move(peer) if not pair.apart else None, _per_move(ours)]
    figures = [theirs.ns_per_move, pair.ours, mine.ns_per_move, ratio(theirs, mine), *bounds, *counts]
    return [ours.puzzle, n, mine.moves, pair.peer, *figures, peer.status, ours.status]


def _per_move(result: AlgorithmResult) -> float | None:
    """Return *result*'s instructions per move outside the allocators, None when it has none."""
    return result.instructions.per_move if result.instructions else None


def _instructions(pair: Pair, peer: AlgorithmResult, ours: AlgorithmResult) -> str:
    """Return the instruction counts' cell: both counts per move and their ratio, or why there is none."""
    if pair.apart:
        return "- (the peer runs in a process of its own)"
    theirs, mine = _per_move(peer), _per_move(ours)
    if theirs is None or mine is None:
        return "unavailable"
    return f"{fmt_number(theirs, 4)} / {fmt_number(mine, 4)} = {_times(theirs / mine)}"


def _times(value: float) -> str:
    """Return a ratio as "12.3x".

    >>> _times(12.345), _times(0.5), _times(1534.2)
    ('12.3x', '0.5x', '1,534x')
    """
    return f"{value:.3g}x" if value < 1000 else f"{value:,.0f}x"
