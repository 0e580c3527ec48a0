"""The peers against the project's own algorithms on the same work: time per move and peak memory.

A :class:`Case` is one puzzle (pegs, rule, start and goal), one n, and the
records that solve it: the project's first (the baseline of the ratios),
then the others.  For each case every record is first checked by the
project's checker (a record whose verdict is not ok is reported and not
timed); then the records are timed in turns, ``repeat`` rounds, each round
in another order, every run draining the record's moves into the project's
digest (:func:`hanoi_harness.digest.digest`: the same consumption for all,
and a fingerprint to compare); then each record's tracemalloc peak is taken
in a run of its own.  Before every run the peers' process-wide caches are
emptied (:func:`hanoi_harness.peers.k_peg.forget`), so each run pays for
its own set-up, as the project's records do.

The result is plain data: one :class:`Measurement` per record and case
(name, puzzle, n, start, goal, moves, digest, verdict, median seconds and
every round's, peak bytes, whether the moves were made in this process,
the ratio to the baseline).  Run it as::

    python -m hanoi_harness.peers.compare            # the default plan, a few minutes
    python -m hanoi_harness.peers.compare --quick --json peers.json

It needs the peers (``pip install 'hanoi-harness[peers]'``).  The
``hanoitoys`` records run their programs in child processes: their times
include starting Python (about 50 ms) and printing and reading each move,
and their peak is only the reading side's.
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import sys
import time
import tracemalloc
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from hanoi_harness.checker import check_algorithm
from hanoi_harness.digest import digest
from hanoi_harness.errors import UsageError
from hanoi_harness.peers import k_peg, python_solver, require, toys
from hanoi_harness.puzzle import CLASSIC, Config, Puzzle, format_config, k_pegs, tower
from hanoi_harness.registry import REGISTRY, Algorithm


def records() -> dict[str, Algorithm]:
    """Every record a case may name, the project's and the peers'; a one-line UsageError when a peer is missing."""
    import hanoi_harness.algorithms  # noqa: F401  (registers the project's records)

    for module, package, hint in [*python_solver.NEEDS, *k_peg.NEEDS, *toys.NEEDS, toys.TK]:
        require(module, package, hint)
    theirs = [*python_solver.RECORDS.values(), *k_peg.RECORDS.values(), *toys.RECORDS.values()]
    return {record.name: record for record in [*REGISTRY, *theirs]}


@dataclass(frozen=True)
class Case:
    """n disks of *puzzle* from *start* to *goal*, solved by the records *names* (the first is the baseline)."""

    puzzle: Puzzle
    n: int
    start: Config
    goal: Config
    names: tuple[str, ...]


@dataclass(frozen=True)
class Measurement:
    """One record on one case: its run (moves, digest, verdict), its times and its peak memory."""

    name: str
    puzzle: str
    n: int
    start: str
    goal: str
    moves: int
    digest: int
    verdict: str
    seconds: float | None
    times: tuple[float, ...]
    cpu_seconds: float | None
    peak_bytes: int | None
    in_process: bool
    baseline: str
    ratio: float | None

    @property
    def ns_per_move(self) -> float | None:
        """The median time per move in nanoseconds (None when not timed or no moves)."""
        return None if self.seconds is None or not self.moves else self.seconds / self.moves * 1e9


def towers(puzzle: Puzzle, n: int, names: Sequence[str]) -> Case:
    """The case of the whole tower of n disks from peg 0 to the last peg of *puzzle*, solved by *names*."""
    return Case(puzzle, n, tower(n, 0), tower(n, puzzle.pegs - 1), tuple(names))


def scattered(n: int, seed: int) -> Case:
    """A case of three pegs between two configurations of n disks drawn at random from *seed*."""
    draw = random.Random(seed)
    start, goal = (tuple(draw.randrange(3) for _ in range(n)) for _ in range(2))
    return Case(CLASSIC, n, start, goal, ("any_state", python_solver.RECORD.name))


CLASSIC_NAMES = (
    "recursive",
    "k_peg_hanoi_3",
    "hanoitoys_classical",
    "hanoitoys_nr",
    "hanoitoys_olive",
    "hanoitoys_idle_peg",
)
"""The classic tower's contenders: the project's reference recursion, then every peer's 3-peg solver."""


SIZES = (10, 30, 60, 120)
"""The n of the 4- and 5-peg cases: 49 to 458,753 moves on four pegs, 31 to 7,423 on five."""


def plan(quick: bool = False) -> list[Case]:
    """The cases measured: any start and goal (n <= 10), the classic tower, and 4 and 5 pegs.

    *quick* takes a few small sizes (seconds in all), for tests and trials.
    """
    any_sizes, classic_sizes, peg_sizes = ((3, 6), (8,), (8,)) if quick else ((2, 4, 6, 8, 10), (10, 15, 20), SIZES)
    cases = []
    for n in any_sizes:
        cases += [towers(CLASSIC, n, ("any_state", python_solver.RECORD.name)), scattered(n, seed=n)]
    cases += [towers(CLASSIC, n, CLASSIC_NAMES) for n in classic_sizes]
    for k, ours in ((4, "frame_stewart"), (5, "frame_stewart_5")):
        names = (ours, f"k_peg_hanoi_{k}", f"hanoitoys_frame_stewart_{k}")
        cases += [towers(k_pegs(k), n, names) for n in peg_sizes]
    return cases


def moves(record: Algorithm, case: Case) -> Iterator[Any]:
    """The moves of *record* for *case*: ``moves(n)`` when the case is the record's own tower, else ``moves_for``."""
    (final,) = record.final_peg.pegs(case.n)
    if case.start == tower(case.n, 0) and case.goal == tower(case.n, final):
        return record.moves(case.n)
    return record.moves_for(case.n, case.start, case.goal)


def drain(record: Algorithm, case: Case) -> tuple[int, int]:
    """Fold every move of *record* for *case* into the digest, the peers' caches emptied first: (count, digest)."""
    k_peg.forget()
    return digest(moves(record, case), pegs=case.puzzle.pegs)


def timed(record: Algorithm, case: Case) -> tuple[float, float]:
    """The wall-clock and CPU seconds of one :func:`drain` of *record* for *case*.

    The CPU time is this process's and that of the child processes it
    waited for meanwhile (a ``hanoitoys`` program, which runs on another
    core while its moves are read, so that its wall-clock time can be less
    than the CPU time the two spend).
    """
    wall, cpu = time.perf_counter(), _cpu()
    drain(record, case)
    return time.perf_counter() - wall, _cpu() - cpu


def _cpu() -> float:
    """The CPU seconds of this process and of every child process it has waited for so far."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def peak(record: Algorithm, case: Case) -> int:
    """The tracemalloc peak, in bytes above the start, of one :func:`drain` (after an untraced one: imports)."""
    drain(record, case)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        drain(record, case)
        return max(0, tracemalloc.get_traced_memory()[1] - base)
    finally:
        tracemalloc.stop()


def verdict(record: Algorithm, case: Case) -> tuple[bool, str, int, int]:
    """The checker's verdict on *record* for *case*: (ok, its description, moves, digest)."""
    (final,) = record.final_peg.pegs(case.n)
    if case.start == tower(case.n, 0) and case.goal == tower(case.n, final):
        judged = check_algorithm(record, case.n)
    else:
        judged = check_algorithm(record, case.n, start=case.start, goal=case.goal)
    return judged.ok, judged.describe(), judged.moves, judged.digest


def measure_case(case: Case, known: dict[str, Algorithm], repeat: int) -> list[Measurement]:
    """Every record of *case* checked, timed in *repeat* rounds of alternating order, and its peak taken."""
    contenders = [known[name] for name in case.names]
    verdicts = {record.name: verdict(record, case) for record in contenders}
    timeable = [record for record in contenders if verdicts[record.name][0]]
    runs: dict[str, list[tuple[float, float]]] = {record.name: [] for record in timeable}
    for round_ in range(repeat):
        turn = round_ % max(1, len(timeable))
        for record in timeable[turn:] + timeable[:turn]:
            runs[record.name].append(timed(record, case))
    peaks = {record.name: peak(record, case) for record in timeable}
    base = _median(runs.get(case.names[0], []), 0)
    return [_measurement(record, case, verdicts[record.name], runs, peaks, base) for record in contenders]


def _median(runs: Sequence[tuple[float, float]], which: int) -> float | None:
    """The median of the wall-clock (*which* 0) or CPU (1) seconds of *runs*, None when there are none."""
    return statistics.median(run[which] for run in runs) if runs else None


def _measurement(
    record: Algorithm,
    case: Case,
    judged: tuple[bool, str, int, int],
    runs: dict[str, list[tuple[float, float]]],
    peaks: dict[str, int],
    base: float | None,
) -> Measurement:
    """The :class:`Measurement` of *record* on *case* from what :func:`measure_case` gathered."""
    _, description, count, fingerprint = judged
    mine = runs.get(record.name, [])
    seconds = _median(mine, 0)
    return Measurement(
        name=record.name,
        puzzle=str(case.puzzle),
        n=case.n,
        start=format_config(case.start),
        goal=format_config(case.goal),
        moves=count,
        digest=fingerprint,
        verdict=description,
        seconds=seconds,
        times=tuple(wall for wall, _ in mine),
        cpu_seconds=_median(mine, 1),
        peak_bytes=peaks.get(record.name),
        in_process=record.family != toys.FAMILY,
        baseline=case.names[0],
        ratio=None if seconds is None or not base else seconds / base,
    )


def measure(cases: Sequence[Case], repeat: int = 3, progress: bool = False) -> list[Measurement]:
    """Measure every case of *cases* (:func:`measure_case`, *repeat* rounds), with a tqdm bar when *progress*."""
    known = records()
    missing = sorted({name for case in cases for name in case.names} - set(known))
    if missing:
        raise UsageError(f"unknown records: {', '.join(missing)}")
    results: list[Measurement] = []
    bar = _bar(len(cases)) if progress else None
    for case in cases:
        if bar is not None:
            bar.set_description(f"{case.puzzle.pegs} pegs, n = {case.n}")
        results += measure_case(case, known, repeat)
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    return results


def _bar(total: int) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, unit="case", file=sys.stderr, leave=False)


def table(results: Sequence[Measurement]) -> str:
    """*results* as a Markdown table: the case, the record, its moves, median wall-clock and CPU times, its peak.

    ``ms`` and ``ns/move`` are the median wall-clock time of a run and per
    move, ``x baseline`` that time over the baseline's (the case's first
    record), ``CPU ms`` the median CPU time of a run, children included.
    """
    from tabulate import tabulate

    rows = [
        (
            m.puzzle.split(",")[0],
            m.n,
            _route(m),
            m.name,
            m.moves,
            "-" if m.seconds is None else f"{m.seconds * 1e3:,.2f}",
            "-" if m.ns_per_move is None else f"{m.ns_per_move:,.0f}",
            "-" if m.ratio is None else f"{m.ratio:,.2f}",
            "-" if m.cpu_seconds is None else f"{m.cpu_seconds * 1e3:,.2f}",
            "-" if m.peak_bytes is None else f"{m.peak_bytes / 1024:,.1f}" + ("" if m.in_process else " (reader)"),
            "" if m.verdict.startswith("ok") else m.verdict,
        )
        for m in results
    ]
    headers = ["puzzle", "n", "start -> goal", "record", "moves", "ms", "ns/move", "x baseline", "CPU ms", "peak KiB"]
    headers.append("verdict")
    return tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True)


def _route(m: Measurement) -> str:
    """Start and goal in a few characters: ``tower`` for a whole tower, else the configurations."""
    whole = len(set(m.start.split(","))) <= 1 and len(set(m.goal.split(","))) <= 1
    return "tower" if whole else f"{m.start} -> {m.goal}"


def main(argv: Sequence[str] | None = None) -> int:
    """Measure the plan, print the table, and write the records as JSON when asked; the exit status.

    Bad options, a missing peer or a JSON file that cannot be written are
    one line on stderr and status 2; Ctrl-C is status 130; a reader of the
    table that goes away (``| head``) ends it quietly.
    """
    from hanoi_harness._cli_common import Parser
    from hanoi_harness._cli_streams import guarded_stdio

    parser = Parser(prog="python -m hanoi_harness.peers.compare", description=main.__doc__)
    parser.add_argument("--quick", action="store_true", help="a few small sizes (seconds) instead of the full plan")
    parser.add_argument("--repeat", type=int, default=3, help="timed rounds per record and case (default 3)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write the list of records to FILE as JSON")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be at least 1, got {args.repeat}")
    if args.json is not None and not args.json.resolve().parent.is_dir():
        parser.error(f"--json {args.json}: no such directory {str(args.json.resolve().parent)!r}")
    try:
        with guarded_stdio():
            results = measure(plan(args.quick), args.repeat, progress=sys.stderr.isatty())
            if args.json is not None:
                _write_json(args.json, results)
            print(table(results))
    except (UsageError, OSError) as exc:
        print(f"{parser.prog}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    return 0


def _write_json(path: Path, results: Sequence[Measurement]) -> None:
    """*results* as a JSON list of records in *path*, written whole or not at all (a file beside it, renamed)."""
    staging = path.with_name(f".{path.name}.partial")
    staging.write_text(json.dumps([asdict(m) for m in results], indent=1) + "\n", encoding="utf-8")
    os.replace(staging, path)


if __name__ == "__main__":
    sys.exit(main())
