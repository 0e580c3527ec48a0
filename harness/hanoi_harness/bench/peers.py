"""The peers against our algorithms: what ``hanoi bench --peers`` does.

It measures them, and renders tables of who is faster.

Other packages' solvers (the extra ``peers``,
:mod:`hanoi_harness.peers`) are measured as plugins, each with the project's
algorithm it is paired with (:data:`hanoi_harness.peers.PEERS`). They go in
a result set of their own, written as ``peers/`` inside the run's output
directory. It is one run with every phase of any other: checked first, timed
by pytest-benchmark with every move read by the one consumer, at the sizes
of the same work, then memory and instruction counts. It is kept apart from
the project's set because the slowest peer stops at n = 10 (Dijkstra over
3^n positions). The summary ranks every algorithm of a set at the most moves
all of them reached.

pytest-benchmark times the cases one after the other, n-major. So two sides
at one n are timed seconds apart, under whatever load came meanwhile. After
the run each pair is therefore also timed head to head (:func:`head_to_head`).
They run in alternation, ABBA, at the largest n both ran whose drains take
at most :data:`DUEL_S`. They are compared by
:func:`hanoi_harness.bench.timing.stats.compare_times` (Mann-Whitney, and a
bootstrap interval of the ratio of medians), as the noise floor is measured.

The tables here are rendered from a set's ``results.json`` alone, from its
``peers`` pairs (:class:`~hanoi_harness.bench.results.resultset.Pair`). For
each pair they give the head-to-head ratio: how many times faster the
project's algorithm is (below 1, slower). At each n both sides were timed
at, they give each side's ns per move and verdict, and their ratio with the
interval that the two medians' 95% intervals allow.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from msgspec.structs import replace

from hanoi_harness.bench.consume import consume
from hanoi_harness.bench.report.formatting import fmt_number, fmt_per_move
from hanoi_harness.bench.report.tables import Table
from hanoi_harness.bench.results.resultset import AlgorithmResult, HeadToHead, Pair, ResultSet, Run
from hanoi_harness.bench.run import REFERENCE
from hanoi_harness.bench.timing.noise import interleave
from hanoi_harness.bench.timing.stats import compare_times
from hanoi_harness.errors import UsageError
from hanoi_harness.registry import DEFAULT_TIMEOUT_S
from hanoi_harness.registry.probe import probe_each
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import Registry, build_registry

DIRECTORY = "peers"
"""Where a bench with ``--peers`` writes the peers' result set, inside its output directory."""


@dataclass(frozen=True)
class Peers:
    """What a bench measures of the peers: algorithms, specs and pairs.

    *algorithms* are ours, then theirs; *specs* load theirs. *missing* holds
    each peer that could not be loaded here, with the one-line reason: its
    package, or one of its own dependencies such as tkinter, is not
    installed. It is left out of the run, and the command says so.
    """

    algorithms: tuple[Algorithm, ...]
    specs: tuple[str, ...]
    pairs: tuple[Pair, ...]
    missing: tuple[tuple[str, str], ...] = ()


def peers(ours: Registry, timeout: float = DEFAULT_TIMEOUT_S) -> Peers:
    """Return every peer of :data:`~hanoi_harness.peers.PEERS` as a plugin.

    Each is loaded as a plugin and comes with its algorithm from *ours*.

    The reference (``recursive``) is measured too, as in every set: times
    relative to it, and the noise floor.

    Each peer is imported first in a child of its own, all at once, within
    *timeout* seconds (:func:`hanoi_harness.registry.probe.probe_each`). A peer
    may not load: its package, or a dependency of it such as tkinter, is
    missing, or its import fails, exits or hangs. It is then left out and
    listed in ``missing`` with the one-line reason. So a machine without one
    peer still measures the others; with none loaded, ``pairs`` is empty.
    """
    from hanoi_harness.peers import PEERS

    refused = probe_each([peer.spec for peer in PEERS], timeout=timeout)
    loaded: list[tuple[Any, Algorithm]] = []
    missing: list[tuple[str, str]] = []
    for peer in PEERS:
        try:
            problem = refused[peer.spec]
            if problem is not None:
                raise problem
            registry = build_registry([peer.spec], entry_points=False, guard=False)  # imported first just now
            (record,) = (a for a in registry if a.origin == f"plugin {peer.spec}")
        except UsageError as exc:
            missing.append((peer.spec, str(exc)))
            continue
        loaded.append((peer, record))
    mine = [ours.get(name) for name in dict.fromkeys([REFERENCE, *(peer.ours for peer, _ in loaded)])]
    pairs = tuple(Pair(record.name, peer.ours, peer.apart, _optimality(ours.get(peer.ours))) for peer, record in loaded)
    theirs = tuple(record for _, record in loaded)
    return Peers((*mine, *theirs), tuple(peer.spec for peer, _ in loaded), pairs, tuple(missing))


def _optimality(algorithm: Algorithm) -> str:
    """Return what an ok verdict says of *algorithm*'s move counts.

    It is "optimal" (proven), or the conjectured count.
    """
    (peg, *_) = sorted(algorithm.final_peg.pegs(1))
    found = algorithm.puzzle.optimum(1, peg)
    return found.describe() if found else "the fewest moves known"


DUEL_S = 0.25
"""The longest drain (either side's median) of the n a pair is timed head to head at: 2 x 12 drains of at most
0.25 s take at most 6 s a pair, a minute for the ten."""

DUEL_ROUNDS = 12
"""Drains of each side head to head: an ABBA order needs an even number, a 95% interval of a median at least 6."""


def duel_n(peer: AlgorithmResult, ours: AlgorithmResult) -> int | None:
    """Return the n at which to time *peer* and *ours* head to head.

    It is the largest n both ran whose drains fit :data:`DUEL_S`.

    The smallest both ran when none fits; None when they ran at no common n.
    """
    ns = common_ns(peer, ours)
    fits = [n for n in ns if max(peer.timed()[n].median_s, ours.timed()[n].median_s) <= DUEL_S]
    return fits[-1] if fits else ns[0] if ns else None


def head_to_head(results: ResultSet, known: Mapping[str, Algorithm], rounds: int = DUEL_ROUNDS) -> tuple[Pair, ...]:
    """Return the pairs of *results*, each timed head to head.

    Each is timed at its :func:`duel_n`; a pair without one is left as it is.

    *known* gives the records by name; each drain is the one consumer's.
    The difference is the peer's rounds against ours: its ratio is how many
    times faster ours is.
    """
    found = []
    for pair in results.peers:
        n = duel_n(results.algorithms[pair.peer], results.algorithms[pair.ours])
        if n is None:
            found.append(pair)
            continue
        found.append(replace(pair, head_to_head=duel(known[pair.peer], known[pair.ours], n, rounds)))
    return tuple(found)


def duel(peer: Algorithm, ours: Algorithm, n: int, rounds: int) -> HeadToHead:
    """Time *peer* and *ours* at *n* in alternation, *rounds* drains each.

    Return the peer's rounds compared with ours.
    """
    ours_s, peer_s = interleave(lambda: consume(ours, n), lambda: consume(peer, n), rounds)
    return HeadToHead(n, rounds, compare_times(ours_s, peer_s))


HEADERS = ["puzzle", "n", "moves", "peer", "peer's ns/move", "ours", "our ns/move", "ours is ... times faster"]
HEADERS += ["instructions/move, peer / ours", "peer's verdict", "our verdict"]
COLUMNS = ["puzzle", "n", "moves", "peer", "peer_ns_per_move", "ours", "ours_ns_per_move", "ratio"]
COLUMNS += ["ratio_low", "ratio_high", "peer_instructions_per_move", "ours_instructions_per_move"]
COLUMNS += ["peer_status", "ours_status"]


def comparison(results: ResultSet) -> Table:
    """Return the table of every pair of *results* at each n both timed.

    Its CSV is ``peers.csv``.
    """
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
    """Return one row per pair of *results*, with the head-to-head ratio.

    The row also gives the n both ran and the ratio over them.
    """
    headers = ["peer", "ours", "puzzle", "head to head: n (moves)", "ours is ... times faster (95% interval)"]
    headers += ["n both ran", "ratio of the medians over them", "peer's verdict"]
    shown = []
    for pair in results.peers:
        peer, ours = results.algorithms[pair.peer], results.algorithms[pair.ours]
        ns = common_ns(peer, ours)
        ratios = [ratio(peer.timed()[n], ours.timed()[n]) for n in ns]
        row = [pair.peer, pair.ours, ours.puzzle, *_duel(pair, ours)]
        row += [f"{ns[0]}..{ns[-1]}" if ns else "none", f"{_times(min(ratios))} to {_times(max(ratios))}" if ns else ""]
        shown.append([*row, verdict(peer, pair)])
    return Table("Peers against ours, in one line each", headers, shown, "", [], [])


def _duel(pair: Pair, ours: AlgorithmResult) -> list[str]:
    """Return the head-to-head cells of *pair*: its n and its ratio.

    The n comes with the moves, the ratio with its interval ("" without).
    """
    duel = pair.head_to_head
    if duel is None:
        return ["", ""]
    moves = next((run.moves for run in ours.runs if run.n == duel.n), None)
    found = duel.difference
    bounds = f" ({_times(found.interval.low)} to {_times(found.interval.high)})" if found.interval else ""
    within = ", within noise" if found.verdict == "within noise" else ""
    return [f"{duel.n} ({moves})", f"{_times(found.ratio)}{bounds}{within}"]


def common_ns(peer: AlgorithmResult, ours: AlgorithmResult) -> list[int]:
    """Return the n at which *peer* and *ours* were both timed, in order.

    Both must have been timed on the same number of moves.
    """
    mine, theirs = ours.timed(), peer.timed()
    return sorted(n for n in mine.keys() & theirs.keys() if mine[n].moves == theirs[n].moves and mine[n].moves)


def ratio(peer: Run, ours: Run) -> float:
    """Return how many times faster *ours* was than *peer* on the same run.

    It is the peer's median over ours.
    """
    assert peer.timing is not None and ours.timing is not None
    return peer.timing.median / ours.timing.median


def ratio_interval(peer: Run, ours: Run) -> tuple[float, float] | None:
    """Return the ratio's bounds that the two medians' 95% intervals allow.

    None when either has no interval.

    The slowest the peer could be over the fastest ours could be, and the
    other way round: wider than a test of the ratio would give, never narrower.
    """
    if peer.timing is None or ours.timing is None or peer.timing.interval is None or ours.timing.interval is None:
        return None
    return peer.timing.interval.low / ours.timing.interval.high, peer.timing.interval.high / ours.timing.interval.low


def verdict(result: AlgorithmResult, pair: Pair) -> str:
    """Return *result*'s verdict as the peers' tables show it.

    It is legal and how optimal, or its failure.
    """
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
    """Return the CSV row of *pair* at *n*: a figure a cell, None for none."""
    theirs, mine = peer.timed()[n], ours.timed()[n]
    bounds = ratio_interval(theirs, mine) or (None, None)
    counts = [_per_move(peer) if not pair.apart else None, _per_move(ours)]
    figures = [theirs.ns_per_move, pair.ours, mine.ns_per_move, ratio(theirs, mine), *bounds, *counts]
    return [ours.puzzle, n, mine.moves, pair.peer, *figures, peer.status, ours.status]


def _per_move(result: AlgorithmResult) -> float | None:
    """Return *result*'s instructions per move outside the allocators.

    None when it has none.
    """
    return result.instructions.per_move if result.instructions else None


def _instructions(pair: Pair, peer: AlgorithmResult, ours: AlgorithmResult) -> str:
    """Return the instruction counts' cell: both counts and their ratio.

    The counts are per move; with none, the cell says why.
    """
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
