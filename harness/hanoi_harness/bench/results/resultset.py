"""``results.json``: the versioned record of one bench run, written and read back with every value checked.

Schema (``"schema": 3``)::

    {"generated_by": "...", "schema": 3, "mode": "full" | "quick", "reference": "recursive",
     "consumer": "digest", "created": ISO date,
     "environment": {"python", "implementation", "python_build", "numpy", "libc", "arch", "os", "cpu", "cores",
                     "valgrind", "valgrind_missing", "load", "commit", "branch", "dirty", "version"},
     "settings": {...}, "timer": "...", "durations_s": {PHASE: seconds},
     "noise_floor": {"case", "difference": {"verdict", "ratio", "interval", "p_value"}, "margin"} or null,
     "c_reference": hanoi_harness.bench.cref.measure's dict (a full run) or null,
     "peers": [{"peer": NAME, "ours": NAME, "apart": bool, "optimality": "optimal (proven)" or ...,
                "head_to_head": {"n", "rounds", "difference": {"verdict", "ratio", "interval", "p_value"}} or null}],
     "algorithms": {NAME: {"summary", "source", "family", "origin", "limits", "puzzle", "declared": {"time", "space"},
                           "external": bool, "command": shell command or null,
                           "status": "ok" | "failed", "failure": verdict or null, "stopped",
                           "fit": {"time": fit or null, "space": fit or null},
                           "instructions": {"sizes", "moves", "instructions", "allocator", "per_move",
                                            "allocator_per_move", "total_per_move", "unavailable"} or null,
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
(:mod:`hanoi_harness.bench.results.environment`).  ``peers`` pairs another
package's record with the project's algorithm it is compared with (a set
of ``hanoi bench --peers``, :mod:`hanoi_harness.bench.peers`; ``apart``:
the peer runs in a child process of its own; ``head_to_head``: the two timed
in alternation at one n, the ratio the peer's median over ours); it is empty
in any other set, and a file without it reads as one.  An entry with ``"external": true``
is a ``--command``: its times are whole runs of the program (start-up
included), its declared classes are empty (unknown), it has no tracemalloc
peaks and no instruction counts, and its ``rss`` is the process's own peak,
with its peak at n = 0 as the baseline.  An algorithm's ``rss.numpy`` says whether
numpy was loaded in the fresh child that measured it (null when not known: a
command's, or a file written before it was recorded); the gate compares the
figures of an algorithm that never loads numpy across numpy versions.

Older schemas still load.  Schema 2 (schema 1 plus ``c_reference``,
``external`` and ``command``) timed a drain that read no move
(``deque(solve(n), maxlen=0)``): its set reads with ``"consumer": "generation
only"`` and is never ranked; its runs' moves are 2^n - 1 (every record then
solved the classic puzzle), its timings have no interval and are flagged for
it, it has no counts and no noise floor, and its ``machine`` and ``commit``
records become a partial environment.  A reader refuses any other schema
number rather than guess.  Reading (:func:`load`) trusts nothing: the file is
read within bounds and every value is checked for its type and range
(:mod:`hanoi_harness.bench.results.validate`); anything else is one line naming the
value, never a figure taken as it comes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.memory.measure import Rss
from hanoi_harness.bench.plan import MAX_N
from hanoi_harness.bench.results import schema as _schema
from hanoi_harness.bench.results.environment import Environment
from hanoi_harness.bench.results.fit import Fit
from hanoi_harness.bench.results.validate import Fields, read_json
from hanoi_harness.bench.timing.figures import SPREAD, Timing
from hanoi_harness.bench.timing.noise import NoiseFloor
from hanoi_harness.bench.timing.stats import Difference
from hanoi_harness.errors import UsageError

SCHEMA = 3
READABLE = (1, 2, 3)
"""The schemas :meth:`ResultSet.from_dict` reads: 2 only added keys to 1, and 3 is read as described above."""
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
    """Every figure measured for one algorithm at *n*, whose run made *moves* moves (2^n - 1 when not given)."""

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
        """The median drain of this timed run, in seconds (only for a run that was timed)."""
        assert self.timing is not None, "only a timed run has a median"
        return self.timing.median

    @property
    def ns_per_move(self) -> float | None:
        """The median drain's nanoseconds per move (None when untimed or without moves)."""
        if self.timing is None or not self.moves:
            return None
        return self.timing.median / self.moves * 1e9

    @property
    def moves_per_s(self) -> float | None:
        """Moves read per second at the median drain (None when untimed or without moves)."""
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

    @classmethod
    def from_fields(cls, run: Fields, schema: int) -> Run:
        """Return the run that :meth:`to_dict` wrote in a file of *schema*, each figure checked."""
        timing, rss = run.optional_fields("timing"), run.optional_fields("rss")
        n = run.integer("n", 0, MAX_N)
        return cls(
            n=n,
            moves=run.integer("moves", 0, _schema.MOVES[1]) if schema >= 3 else (1 << n) - 1,
            check_s=run.optional_number("check_s", *SPREAD),
            timing=Timing.from_fields(timing, schema) if timing else None,
            timing_error=run.optional_text("timing_error"),
            tracemalloc_peak_bytes=run.optional_integer("tracemalloc_peak_bytes", 0, 2**48),
            rss=_rss(rss) if rss else None,
            rss_error=run.optional_text("rss_error"),
        )


def _rss(rss: Fields) -> Rss:
    """The peak RSS record *rss* of a run; ``numpy`` (whether its process loaded numpy) is null when not known."""
    numpy = rss.flag("numpy") if rss.has("numpy") else None
    return Rss(rss.number("peak_mib", 0.0, 2.0**30), rss.number("baseline_mib", 0.0, 2.0**30), numpy)


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
        """Whether the algorithm's own process loaded numpy (its peak-RSS children say); None when no child said.

        >>> AlgorithmResult("a", runs=[Run(4, rss=Rss(30.0, 29.0, False)), Run(6)]).runs_numpy
        False
        >>> AlgorithmResult("a", runs=[Run(4, rss=Rss(30.0, 29.0, True))]).runs_numpy, AlgorithmResult("a").runs_numpy
        (True, None)
        """
        said = {run.rss.numpy for run in self.runs if run.rss is not None and run.rss.numpy is not None}
        return True if True in said else False if said else None

    @property
    def classic(self) -> bool:
        """True for a record of the classic puzzle (three pegs, every move), whose run of n disks is 2^n - 1 moves."""
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
            },
            "instructions": self.instructions.to_dict() if self.instructions else None,
            "runs": [run.to_dict() for run in self.runs],
        }

    @classmethod
    def from_fields(cls, name: str, entry: Fields, schema: int) -> AlgorithmResult:
        """Return algorithm *name*'s record as :meth:`to_dict` wrote it in *entry* (a file of *schema*), checked."""
        fit = entry.optional_fields("fit")
        declared = entry.optional_fields("declared")
        failure = entry.optional_fields("failure")
        if failure is not None:
            failure.text("describe", "")  # the one field a report shows
        return cls(
            name=name,
            summary=entry.text("summary", ""),
            source=entry.text("source", ""),
            family=entry.text("family", ""),
            origin=entry.text("origin", ""),
            limits=entry.text("limits", ""),
            puzzle=entry.text("puzzle", CLASSIC_PUZZLE),
            declared_time=declared.text("time", "") if declared else "",
            declared_space=declared.text("space", "") if declared else "",
            status=entry.choice("status", STATUSES) if entry.has("status") else "ok",
            failure=dict(failure.data) if failure else None,
            stopped=entry.text("stopped", ""),
            fit_time=_schema.fit(fit.optional_fields("time")) if fit else None,
            fit_space=_schema.fit(fit.optional_fields("space")) if fit else None,
            instructions=_schema.instructions(name, entry.optional_fields("instructions")),
            runs=[Run.from_fields(run, schema) for run in entry.each("runs")],
            command=entry.optional_text("command"),
        )


@dataclass(frozen=True)
class Pair:
    """The peer *peer* (another package's record) and the project's algorithm *ours* it is compared with.

    *apart*: the peer runs in a child process of its own, so that the
    tracemalloc peak and the instruction count of its entry are the reading
    side's alone.  *optimality* is what a passed check says of the moves
    of their puzzle: "optimal (proven)", or the count conjectured optimal.
    *head_to_head* is the two timed in alternation at one n (None: not).
    """

    peer: str
    ours: str
    apart: bool = False
    optimality: str = ""
    head_to_head: HeadToHead | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "peer": self.peer,
            "ours": self.ours,
            "apart": self.apart,
            "optimality": self.optimality,
            "head_to_head": self.head_to_head.to_dict() if self.head_to_head else None,
        }

    @classmethod
    def from_fields(cls, pair: Fields) -> Pair:
        """Return the pair that :meth:`to_dict` wrote in *pair*, its names and figures checked."""
        duel = pair.optional_fields("head_to_head")
        return cls(
            pair.name("peer"),
            pair.name("ours"),
            pair.flag("apart"),
            pair.text("optimality", ""),
            HeadToHead.from_fields(duel) if duel else None,
        )


@dataclass(frozen=True)
class HeadToHead:
    """A peer and ours timed in alternation (ABBA) at *n*, *rounds* drains each: *difference* is the peer's over ours.

    Its ratio is the peer's median over ours, how many times faster ours
    is; a verdict "slower" says the peer is the slower, beyond noise.
    """

    n: int
    rounds: int
    difference: Difference

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "rounds": self.rounds, "difference": self.difference.to_dict()}

    @classmethod
    def from_fields(cls, duel: Fields) -> HeadToHead:
        """Return what :meth:`to_dict` wrote in *duel*, every figure checked."""
        return cls(
            duel.integer("n", 0, MAX_N), duel.integer("rounds", 1, 10**6), _schema.difference(duel.fields("difference"))
        )


@dataclass
class ResultSet:
    """One bench run in *mode*, times relative to *reference*; ``algorithms`` in the registry's order.

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
    c_reference: dict[str, Any] | None = None
    noise_floor: NoiseFloor | None = None
    consumer: Consumer = "digest"
    peers: tuple[Pair, ...] = ()

    @property
    def reads_moves(self) -> bool:
        """True when every drain read every move, so that speeds may be ranked against each other."""
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
            "c_reference": self.c_reference,
            "peers": [pair.to_dict() for pair in self.peers],
            "algorithms": {name: result.to_dict() for name, result in self.algorithms.items()},
        }

    @classmethod
    def from_dict(cls, data: Any) -> ResultSet:
        """Return the result set in *data* (parsed JSON), every value checked.

        A schema this version does not read, a missing key, or a value of the
        wrong type or out of range is a one-line :class:`UsageError` naming it.

        >>> ResultSet.from_dict({"schema": True, "mode": "quick", "reference": "recursive", "algorithms": {}})
        Traceback (most recent call last):
        hanoi_harness.errors.UsageError: not a results.json of schema 1, 2 or 3 (found schema true)
        """
        top = Fields(data, "")
        schema = top.data.get("schema")
        if type(schema) is not int or schema not in READABLE:  # true == 1 and 2.0 == 2 in Python, not here
            readable = ", ".join(str(number) for number in READABLE[:-1]) + f" or {READABLE[-1]}"
            raise UsageError(f"not a results.json of schema {readable} (found schema {json.dumps(schema)[:40]})")
        algorithms = top.by_name("algorithms")
        peers = tuple(Pair.from_fields(pair) for pair in top.each("peers"))
        for index, pair in enumerate(peers):
            if not {pair.peer, pair.ours} <= set(algorithms):
                raise top.refuse(f"peers[{index}]", f"names an algorithm not in this set: {pair.peer} or {pair.ours}")
        return cls(
            mode=top.choice("mode", MODES),
            reference=top.name("reference"),
            created=top.text("created", ""),
            environment=_environment(top, schema),
            settings=_schema.settings(top.optional_fields("settings")),
            timer=top.text("timer", ""),
            durations_s=top.seconds_by_name("durations_s", 1e7),
            algorithms={name: AlgorithmResult.from_fields(name, e, schema) for name, e in algorithms.items()},
            c_reference=_schema.c_reference(top.optional_fields("c_reference")),
            noise_floor=_schema.noise_floor(top.optional_fields("noise_floor")),
            consumer=_consumer(top) if schema >= 3 else "generation only",
            peers=peers,
        )

    def dumps(self) -> str:
        """Return the JSON text of the set, the ``generated_by`` note on its first line.

        >>> ResultSet("quick", "recursive").dumps().splitlines()[0].startswith('{"generated_by": "Generated by')
        True
        """
        text = json.dumps(self.to_dict(), indent=2)
        return "{" + text[1:].lstrip() + "\n"


def _environment(top: Fields, schema: int) -> Environment:
    """Return the set's environment: its record (schema 3), or one made from ``machine`` and ``commit``."""
    if schema >= 3:
        found = top.optional_fields("environment")
        return Environment.from_fields(found) if found else Environment.from_dict({})
    return Environment.from_schema_2(top.scalars("machine"), _schema.commit(top.optional_fields("commit")))


def _consumer(top: Fields) -> Consumer:
    """Return the set's consumer, one of :data:`CONSUMERS`."""
    chosen = top.choice("consumer", CONSUMERS)
    return "digest" if chosen == "digest" else "generation only"


def results_path(path: Path) -> Path:
    """Return the ``results.json`` of the results directory *path*, or *path* itself when it is not a directory."""
    return path / RESULTS_FILE if path.is_dir() else path


def load(path: Path) -> ResultSet:
    """Return the result set in the results directory or ``results.json`` at *path*, every value checked.

    Anything else (no file, not a regular file, over the size or depth
    bounds, not JSON, a value of the wrong type or out of range) is a
    one-line :class:`UsageError` naming the file and the value.
    """
    file = results_path(path)
    if not file.exists() and not file.is_symlink():
        raise UsageError(f"no results at {str(path)!r} (expected a results directory or a results.json)")
    data = read_json(file)
    try:
        return ResultSet.from_dict(data)
    except UsageError as exc:
        raise UsageError(f"{file}: {exc}") from None
