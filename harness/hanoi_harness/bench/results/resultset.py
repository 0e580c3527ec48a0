"""``results.json``: the versioned record of one bench run, written.

Schema (``"schema": 5``)::

    {"generated_by": "...", "schema": 5, "mode": "full" | "quick", "reference": "recursive",
     "consumer": "digest", "created": ISO date,
     "environment": {"python", "implementation", "python_build", "numpy", "libc", "arch", "os", "cpu", "cores",
                     "valgrind", "valgrind_missing", "load", "commit", "branch", "dirty", "version"},
     "settings": {...}, "timer": "...", "durations_s": {PHASE: seconds},
     "noise_floor": {"case", "difference": {"verdict", "ratio", "interval", "p_value"}, "margin"} or null,
     "algorithms": {NAME: {"summary", "source", "family", "origin", "limits", "puzzle", "declared": {"time", "space"},
                           "external": bool, "command": shell command or null,
                           "status": "ok" | "failed", "failure": verdict or null, "stopped",
                           "fit": {"time": fit or null, "space": fit or null, "wall_time": fit or null},
                           "instructions": {"sizes", "span", "moves", "instructions", "allocator", "per_move",
                                            "allocator_per_move", "total_per_move", "steps",
                                            "unavailable"} or null,
                           "runs": [{"n", "moves", "check_s", "timing": {"median", "iqr", "q1", "q3",
                                     "minimum", "mean", "stddev", "rounds", "iterations", "interval",
                                     "unstable", "samples"} or null,
                                     "timing_error", "ns_per_move", "moves_per_s",
                                     "tracemalloc_peak_bytes", "rss": {"peak_mib", "baseline_mib", "numpy"} or null,
                                     "rss_error"}]}}}

Times are seconds per drain, a drain being every move of the run read by the
one consumer (:mod:`hanoi_harness.bench.consume`, ``"consumer": "digest"``);
``moves`` is the number of moves the checker replayed at that n (2^n - 1 for
the classic puzzle, more or fewer for another), and ``ns_per_move`` and
``moves_per_s`` divide by it.  They are derived from the median and stored for
readers of the file (this module derives them again instead of reading them),
as are the instruction figures per move (computed again from the counts).  A
timing's ``interval`` is the 95% interval of its median, ``unstable`` the
reasons its rounds are too noisy to rank on (empty: stable), ``samples`` up to
32 of its rounds (:mod:`hanoi_harness.bench.timing.figures`).  ``noise_floor`` is the
reference timed against itself in the run (:mod:`hanoi_harness.bench.timing.noise`).
``environment`` is what the figures depend on
(:mod:`hanoi_harness.bench.results.environment`).  An entry with ``"external": true``
is a ``--command``: its times are whole runs of the program (start-up
included), its declared classes are empty (unknown), it has no tracemalloc
peaks and no instruction counts, and its ``rss`` is the process's own peak,
with its peak at n = 0 as the baseline.  An algorithm's ``rss.numpy`` says whether
numpy was loaded in the fresh child that measured it (null when not known: a
command's, or a file written before it was recorded); the gate compares the
figures of an algorithm that never loads numpy across numpy versions.

The counts are at every size measured up to the classic n = 16
(``sizes``), then at the first again (``instructions`` and ``allocator``
hold one more); ``steps`` are the instructions per move from each size to
the next, and the figures per move are between the two sizes of ``span``.
``fit.time`` is fitted on the counts, ``fit.wall_time`` on the wall clock,
an observation only (:mod:`hanoi_harness.bench.results.fit`).

Older schemas still load.  Schema 4 is schema 5 with counts at two sizes,
no ``span`` or ``steps``, and a ``fit.time`` fitted on the wall clock: it
reads as ``wall_time``, the set's time class unfitted.  Schema 3 is schema 4 without ``startup``: its
set reads with none.  Schema 2 (schema 1 plus ``c_reference``,
``external`` and ``command``) timed a drain that read no move
(``deque(solve(n), maxlen=0)``).  Its set reads with ``"consumer":
"generation only"`` and is never ranked.  Its runs' moves are 2^n - 1 (every
record then solved the classic puzzle), and its timings have no interval and
are flagged for it.  It has no counts and no noise floor, and its ``machine``
and ``commit`` records become a partial environment.  A reader refuses any
other schema number rather than guess.

This module writes the records.  They are read in one place,
:mod:`hanoi_harness.bench.results.schema`
(:func:`~hanoi_harness.bench.results.schema.load`), which trusts nothing.
The file is read within bounds, every value is checked for its type and
range, and figures that contradict each other are refused.  Anything else is
one line naming the value, never a figure taken as it comes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.memory.measure import Rss
from hanoi_harness.bench.results.environment import Environment
from hanoi_harness.bench.results.fit import Fit
from hanoi_harness.bench.timing.figures import Timing
from hanoi_harness.bench.timing.noise import NoiseFloor

SCHEMA = 5
"""The schema a bench writes; :data:`hanoi_harness.bench.results.schema.READABLE` are those read."""
RESULTS_FILE = "results.json"
GENERATED = "Generated by 'hanoi bench'; do not edit by hand. Tables and plots are rendered from this file."

Consumer = Literal["digest", "generation only"]
CONSUMERS: tuple[Consumer, ...] = ("digest", "generation only")
"""What a set's drains did with the moves: folded every one into the digest, or read none (schema 1 and 2)."""

CLASSIC_PUZZLE = "3 pegs, every move"
"""How a record of the classic puzzle names it (``str`` of :data:`hanoi_harness.core.puzzle.CLASSIC`)."""

MODES = ("full", "quick")
STATUSES = ("ok", "failed")


@dataclass
class Run:
    """Every figure measured for one algorithm at *n*.

    Its run made *moves* moves (2^n - 1 when not given).
    """

    n: int
    check_s: float | None = None
    timing: Timing | None = None
    timing_error: str | None = None
    tracemalloc_peak_bytes: int | None = None
    rss: Rss | None = None
    rss_error: str | None = None
    moves: int = -1

    def __post_init__(self) -> None:
        if self.moves < 0:
            self.moves = (1 << self.n) - 1

    @property
    def median_s(self) -> float:
        """The median drain of this timed run, in seconds.

        Only for a run that was timed.
        """
        assert self.timing is not None, "only a timed run has a median"
        return self.timing.median

    @property
    def ns_per_move(self) -> float | None:
        """The median drain's nanoseconds per move.

        None when untimed or without moves.
        """
        if self.timing is None or not self.moves:
            return None
        return self.timing.median / self.moves * 1e9

    @property
    def moves_per_s(self) -> float | None:
        """Moves read per second at the median drain.

        None when untimed or without moves.
        """
        if self.timing is None or not self.moves or self.timing.median <= 0:
            return None
        return self.moves / self.timing.median

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "moves": self.moves,
            "check_s": self.check_s,
            "timing": self.timing.to_dict() if self.timing else None,
            "timing_error": self.timing_error,
            "ns_per_move": self.ns_per_move,
            "moves_per_s": self.moves_per_s,
            "tracemalloc_peak_bytes": self.tracemalloc_peak_bytes,
            "rss": self.rss.to_dict() if self.rss else None,
            "rss_error": self.rss_error,
        }


@dataclass
class AlgorithmResult:
    """One algorithm's record, verdict, fits, instruction counts and runs.

    ``command`` is set (and ``external`` true) for a ``--command`` entry;
    ``puzzle`` names what it solves (``str`` of its :class:`~hanoi_harness.core.puzzle.Puzzle`);
    ``source`` cites the write-up it comes from ("" for none, or a file written before sources were kept).
    """

    name: str
    summary: str = ""
    source: str = ""
    family: str = ""
    origin: str = ""
    limits: str = ""
    declared_time: str = ""
    declared_space: str = ""
    status: str = "ok"
    failure: dict[str, Any] | None = None
    stopped: str = ""
    fit_time: Fit | None = None
    fit_space: Fit | None = None
    fit_wall: Fit | None = None
    runs: list[Run] = field(default_factory=list)
    command: str | None = None
    puzzle: str = CLASSIC_PUZZLE
    instructions: InstructionCount | None = None

    @property
    def external(self) -> bool:
        """An external program's entry (``--command``), not a registered algorithm."""
        return self.command is not None

    @property
    def runs_numpy(self) -> bool | None:
        """Whether the algorithm's own process loaded numpy.

        Its peak-RSS children say; None when no child said.

        >>> AlgorithmResult("a", runs=[Run(4, rss=Rss(30.0, 29.0, False)), Run(6)]).runs_numpy
        False
        >>> AlgorithmResult("a", runs=[Run(4, rss=Rss(30.0, 29.0, True))]).runs_numpy, AlgorithmResult("a").runs_numpy
        (True, None)
        """
        said = {run.rss.numpy for run in self.runs if run.rss is not None and run.rss.numpy is not None}
        return True if True in said else False if said else None

    @property
    def classic(self) -> bool:
        """True for a record of the classic puzzle (three pegs, every move).

        Its run of n disks is 2^n - 1 moves.
        """
        return self.puzzle == CLASSIC_PUZZLE

    def timed(self) -> dict[int, Run]:
        """Return the runs that have a timing, by n."""
        return {run.n: run for run in self.runs if run.timing is not None}

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": self.summary,
            "source": self.source,
            "family": self.family,
            "origin": self.origin,
            "limits": self.limits,
            "puzzle": self.puzzle,
            "declared": {"time": self.declared_time, "space": self.declared_space},
            "external": self.external,
            "command": self.command,
            "status": self.status,
            "failure": self.failure,
            "stopped": self.stopped,
            "fit": {
                "time": self.fit_time.to_dict() if self.fit_time else None,
                "space": self.fit_space.to_dict() if self.fit_space else None,
                "wall_time": self.fit_wall.to_dict() if self.fit_wall else None,
            },
            "instructions": self.instructions.to_dict() if self.instructions else None,
            "runs": [run.to_dict() for run in self.runs],
        }


@dataclass
class ResultSet:
    """One bench run in *mode*, times relative to *reference*.

    ``algorithms`` in the registry's order.

    ``consumer`` says what each drain did with the moves: "digest" (every
    move read) or, for a file of schema 1 or 2, "generation only" (none read:
    such a set is never ranked).
    """

    mode: str
    reference: str
    created: str = ""
    environment: Environment = field(default_factory=lambda: Environment.from_dict({}))
    settings: dict[str, Any] = field(default_factory=dict)
    timer: str = ""
    durations_s: dict[str, float] = field(default_factory=dict)
    algorithms: dict[str, AlgorithmResult] = field(default_factory=dict)
    noise_floor: NoiseFloor | None = None
    consumer: Consumer = "digest"

    @property
    def reads_moves(self) -> bool:
        """True when every drain read every move.

        So that speeds may be ranked against each other.
        """
        return self.consumer == "digest"

    def to_dict(self) -> dict[str, Any]:
        return {
            "generated_by": GENERATED,
            "schema": SCHEMA,
            "mode": self.mode,
            "reference": self.reference,
            "consumer": self.consumer,
            "created": self.created,
            "environment": self.environment.to_dict(),
            "settings": self.settings,
            "timer": self.timer,
            "durations_s": self.durations_s,
            "noise_floor": self.noise_floor.to_dict() if self.noise_floor else None,
            "algorithms": {name: result.to_dict() for name, result in self.algorithms.items()},
        }

    def dumps(self) -> str:
        """Return the JSON text of the set.

        The ``generated_by`` note on its first line.

        >>> ResultSet("quick", "recursive").dumps().splitlines()[0].startswith('{"generated_by": "Generated by')
        True
        """
        text = json.dumps(self.to_dict(), indent=2)
        return "{" + text[1:].lstrip() + "\n"
