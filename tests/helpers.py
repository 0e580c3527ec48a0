"""Share what the tests need: the registry, the reference, a CLI runner.

Also a printer program for external-command tests, hypothesis strategies, and the state graph of every
puzzle (breadth-first search and a rule-aware replay).

Tests import from here, never from ``conftest.py`` or from one another.
"""

from __future__ import annotations

import itertools
import random
import shlex
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path

import psutil
import pytest
from hypothesis import strategies as st

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.results.environment import Environment
from hanoi_harness.bench.results.resultset import AlgorithmResult, Declared, ResultSet, Run
from hanoi_harness.bench.timing.figures import Timing
from hanoi_harness.bench.timing.noise import NoiseFloor
from hanoi_harness.bench.timing.stats import Difference, Interval, median_interval, stability
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import build_registry

Moves = list[tuple[int, int, int]]

TESTS = Path(__file__).resolve().parent
FIXTURES = TESTS / "fixtures"
"""Hostile plugins and files, loaded as data, never collected."""
ROOT = TESTS.parent
"""The checkout."""

REGISTRY = build_registry()
ALGORITHMS = list(REGISTRY)
CLASSIC = [a for a in ALGORITHMS if a.puzzle.classic]
"""The records of the classic puzzle (three pegs, every move), whose sequence is the reference's."""
VARIANTS = [a for a in ALGORITHMS if not a.puzzle.classic]
"""The records of the other puzzles: cyclic, linear, k pegs."""


def reference(n: int) -> Iterator[tuple[int, int, int]]:
    """Return the reference sequence of n disks from peg 0 to peg 2.

    It is written here without the package's code.
    """

    def go(k: int, a: int, b: int, c: int) -> Iterator[tuple[int, int, int]]:
        if k:
            yield from go(k - 1, a, c, b)
            yield (k, a, c)
            yield from go(k - 1, b, a, c)

    return go(n, 0, 1, 2)


def expected(algorithm: Algorithm, n: int) -> Iterator[tuple[int, int, int]]:
    """The reference sequence as *algorithm* must give it for n disks.

    The optimal solution to a given peg is unique, so only pegs 1 and 2 are
    exchanged when the record says the tower ends on peg 1.
    """
    targets = algorithm.final_peg.pegs(n)
    swap = (0, 2, 1) if targets == {1} else (0, 1, 2)
    return ((d, swap[s], swap[t]) for d, s, t in reference(n))


def sizes(algorithm: Algorithm, top: int) -> list[int]:
    """The n from *algorithm*'s minimum up to *top*, within its limits."""
    high = top if algorithm.max_n is None else min(top, algorithm.max_n)
    return list(range(algorithm.min_n, high + 1))


def equal_work(algorithm: Algorithm, n: int, most: int = 200) -> int:
    """Return the most disks whose run takes at most the classic 2^n - 1 moves.

    The count is up to *most*, within *algorithm*'s limits.  It is n itself for the classic puzzle; fewer
    disks for the cyclic and linear ones (more moves per disk), more for k pegs.  So tests and benchmarks over
    the registry do the same work for every record.
    """
    high = most if algorithm.max_n is None else min(most, algorithm.max_n)
    budget = (1 << n) - 1
    found = algorithm.min_n
    for m in range(algorithm.min_n, high + 1):
        (peg, *_) = sorted(algorithm.final_peg.pegs(m))
        optimum = algorithm.puzzle.optimum(m, peg)
        if optimum is None or optimum.moves > budget:
            break
        found = m
    return found


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the ``hanoi`` command with *argv* in this process.

    Return its exit status, stdout and stderr.
    """
    from hanoi_harness.cli.main import main

    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own exits (errors, --help)
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


at_scale = pytest.mark.no_cover
"""For a test that runs code the others cover, at a scale where coverage's tracer takes 3 to 7 times as long
(2^18 moves of every algorithm, every pair of 5-disk states, hundreds of hypothesis examples): it runs in
'make test', unmeasured.  Together these took 100 of the 120 seconds coverage added to the suite."""


def gone(pid: int, within: float = 10.0) -> bool:
    """Return whether process *pid* has ended within *within* seconds.

    A zombie waiting to be reaped counts as ended.
    """
    end = time.monotonic() + within
    while True:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        if time.monotonic() >= end:
            return False
        time.sleep(0.02)


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    """Assert exit status 2 and one line on stderr holding all *fragments*."""
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def bench_ending(err: str) -> str:
    """Return what follows the plain progress lines of ``hanoi bench``'s *err*.

    Those lines are a phase's start and its counts.

    >>> bench_ending("checking (2 to do)\\nchecking: 2/2 (recursive n=2)\\nhanoi: interrupted\\n")
    'hanoi: interrupted'
    """
    lines = err.strip().splitlines()
    progress = list(itertools.takewhile(lambda line: not line.startswith("hanoi"), lines))
    return "\n".join(lines[len(progress) :])


PRINTER = """\
import sys

def hanoi(n, a, b, c):
    if n:
        yield from hanoi(n - 1, a, c, b)
        yield n, a, c
        yield from hanoi(n - 1, b, a, c)

n = int(sys.argv[1]) if len(sys.argv) > 1 else int(input())
mode = sys.argv[2] if len(sys.argv) > 2 else "ok"
print(f"Tower of Hanoi: {n} disks")
for k, (d, a, c) in enumerate(hanoi(n, "A", "B", "C"), 1):
    if mode == "illegal" and k == 3:
        print(f"Move disk {d} from {c} to {a}")
        while True:  # keeps printing: the checker must stop it
            print("Move disk 1 from A to B", flush=True)
    if mode == "garbled" and k == 2:
        print("Move disk 2 from A to")
    print(f"Move disk {d} from {a} to {c}")
if mode == "wrong" and n >= 3:  # one move too many from n = 3 on
    print("Move disk 1 from C to A")
if mode == "crash":
    sys.exit(3)
if mode == "hang":
    import time
    time.sleep(60)
"""
"""A Python program printing the moves for n (its first argument, or read from standard input), with
a *mode* second argument that makes it misbehave: illegal, garbled, wrong, crash or hang."""


def printer_command(directory: Path) -> str:
    """Write :data:`PRINTER` into *directory*; return the command that runs it.

    ``-S -E`` make the interpreter start faster.
    """
    path = directory / "printer.py"
    path.write_text(PRINTER)
    return f"{shlex.quote(sys.executable)} -S -E {shlex.quote(str(path))}"


@st.composite
def legal_prefixes(
    draw: st.DrawFn, max_n: int = 5, max_len: int = 60, pegs: int = 3, rule: str = "any", min_n: int = 1
) -> tuple[int, Moves]:
    """Draw random legal sequences, then a random tail of up to 3 moves.

    The sequences have up to *max_len* moves of *min_n* to *max_n* disks.

    Legal by the rules of *pegs* pegs and *rule* (see :func:`allowed_moves`),
    starting with the whole tower on peg 0; the tail's pegs are any of them.
    """
    n = draw(st.integers(min_n, max_n))
    where = [0] * (n + 1)
    moves: Moves = []
    pairs = allowed_moves(pegs, rule)
    for _ in range(draw(st.integers(0, max_len))):
        tops = {}
        for d in range(n, 0, -1):
            tops[where[d]] = d
        options = [(tops[s], s, t) for s, t in pairs if s in tops and (t not in tops or tops[t] > tops[s])]
        if not options:  # no disks
            break
        d, s, t = draw(st.sampled_from(sorted(options)))
        where[d] = t
        moves.append((d, s, t))
    tail = st.tuples(st.integers(1, max(n, 1)), st.integers(0, pegs - 1), st.integers(0, pegs - 1))
    moves += draw(st.lists(tail, max_size=3))
    return n, moves


Config = tuple[int, ...]
Move = tuple[int, int, int]


def towers(n: int, pegs: int) -> list[tuple[Config, Config]]:
    """Every ordered pair of whole towers of n disks on *pegs* pegs.

    Each tower paired with itself is included.
    """
    return [((a,) * n, (b,) * n) for a in range(pegs) for b in range(pegs)]


@cache
def allowed_moves(pegs: int, rule: str) -> tuple[tuple[int, int], ...]:
    """Return the (source, destination) pairs *rule* allows on *pegs* pegs.

    They are written here without the package's code.
    """
    pairs = tuple((s, t) for s in range(pegs) for t in range(pegs) if s != t)
    if rule == "cyclic":  # forward round the cycle 0 -> 1 -> 2 -> 0 only
        return tuple((s, t) for s, t in pairs if t == (s + 1) % pegs)
    if rule == "linear":  # neighbours in the row 0 - 1 - 2 only
        return tuple((s, t) for s, t in pairs if abs(s - t) == 1)
    assert rule == "any", rule
    return pairs


@cache
def allowed_pairs(pegs: int, rule: str) -> frozenset[tuple[int, int]]:
    """:func:`allowed_moves` as a set."""
    return frozenset(allowed_moves(pegs, rule))


def successors(config: Config, pairs: Iterable[tuple[int, int]]) -> Iterator[Config]:
    """Return the configurations one allowed move away from *config*.

    A configuration is the peg of each disk, disk 1 first.
    """
    tops: dict[int, int] = {}
    for disk, peg in enumerate(config, 1):
        tops.setdefault(peg, disk)  # the first (smallest) disk seen on a peg is its top
    for s, t in pairs:
        top = tops.get(s)
        if top is not None and tops.get(t, top + 1) > top:
            yield (*config[: top - 1], t, *config[top:])


@cache
def state_graph(n: int, pegs: int = 3, rule: str = "any") -> tuple[dict[Config, int], list[list[int]]]:
    """Number every configuration of n disks, and list each one's neighbours.

    A configuration's neighbours are the numbers one allowed move away.
    """
    index = {config: i for i, config in enumerate(itertools.product(range(pegs), repeat=n))}
    pairs = allowed_moves(pegs, rule)
    return index, [[index[after] for after in successors(config, pairs)] for config in index]


@cache
def bfs(n: int, source: Config, pegs: int = 3, rule: str = "any") -> tuple[int, ...]:
    """Return the fewest allowed moves from *source* to every configuration.

    By breadth-first search, over the configurations' numbers.
    """
    index, adjacency = state_graph(n, pegs, rule)
    dist = [-1] * len(index)
    dist[index[source]] = 0
    frontier = [index[source]]
    while frontier:
        later = []
        for i in frontier:
            for j in adjacency[i]:
                if dist[j] < 0:
                    dist[j] = dist[i] + 1
                    later.append(j)
        frontier = later
    return tuple(dist)


def shortest(start: Config, goal: Config, pegs: int = 3, rule: str = "any") -> int:
    """Return the fewest allowed moves from *start* to *goal*.

    They are found by breadth-first search.
    """
    index, _ = state_graph(len(start), pegs, rule)
    return bfs(len(start), start, pegs, rule)[index[goal]]


def replay(moves: Iterable[Move], start: Config, pegs: int = 3, rule: str = "any") -> tuple[Config, int]:
    """Play *moves* from *start*, asserting each is legal under *rule*.

    Return the final configuration and the move count.
    """
    allowed = allowed_pairs(pegs, rule)
    stacks: list[list[int]] = [[] for _ in range(pegs)]
    for disk in range(len(start), 0, -1):
        stacks[start[disk - 1]].append(disk)
    count = 0
    for count, (disk, s, t) in enumerate(moves, 1):
        assert (s, t) in allowed, f"move {count}: {s}->{t} is not allowed by the {rule} rule on {pegs} pegs"
        assert stacks[s] and stacks[s][-1] == disk, f"move {count}: disk {disk} is not on top of peg {s}"
        assert not stacks[t] or stacks[t][-1] > disk, f"move {count}: disk {disk} onto the smaller {stacks[t][-1]}"
        stacks[t].append(stacks[s].pop())
    where = [0] * len(start)
    for peg, stack in enumerate(stacks):
        for disk in stack:
            where[disk - 1] = peg
    return tuple(where), count


# --- result sets for the bench's reports and gate ---------------------------------------------------------------

BENCH_ENVIRONMENT = {
    "python": "3.11.7",
    "implementation": "CPython",
    "python_build": "3.11.7 (main, May  9 2026, 07:35:25) [GCC 12.2.0]",
    "numpy": "2.4.6",
    "libc": "glibc 2.36",
    "arch": "x86_64",
    "os": "Linux 6.18",
    "cpu": "Test CPU",
    "cores": 2,
    "valgrind": "valgrind-3.19.0",
    "load": [1.0, 0.8, 0.5],
    "commit": "0" * 40,
    "version": "0.1.0",
}
"""The environment of the synthetic result sets: valgrind present, so their counts compare."""

COUNTED_MOVES = (1023, 16383)


def timed(seconds: float, rounds: int = 12, spread: float = 0.01, seed: int = 0) -> Timing:
    """Return a timing of a drain of *seconds*, with *rounds* kept rounds.

    The rounds are within +- *spread* of it, drawn with *seed*.
    """
    rng = random.Random(seed)
    samples = tuple(seconds * (1 + rng.uniform(-spread, spread)) for _ in range(rounds))
    q1, median, q3 = statistics.quantiles(samples, n=4)
    return Timing(
        median=median,
        iqr=q3 - q1,
        q1=q1,
        q3=q3,
        minimum=min(samples),
        mean=statistics.fmean(samples),
        stddev=statistics.stdev(samples),
        rounds=rounds,
        iterations=1,
        interval=median_interval(samples),
        unstable=stability(samples).reasons,
        samples=samples,
    )


def counted(name: str, per_move: float, sizes: tuple[int, int] = (10, 14)) -> InstructionCount:
    """Return an instruction count of algorithm *name*, at *per_move* a move.

    *per_move* is the figure outside the allocators; 100 more are inside.
    """
    span = COUNTED_MOVES[1] - COUNTED_MOVES[0]
    extra, allocator = round(per_move * span), 100 * span
    return InstructionCount(
        sizes=sizes,
        moves=COUNTED_MOVES,
        instructions=(300_000_000, 300_000_000 + extra + allocator, 300_000_000),
        allocator=(20_000_000, 20_000_000 + allocator, 20_000_000),
    )


def bench_set(
    factors: dict[str, float],
    machine: float = 1.0,
    ns: tuple[int, ...] = (6, 10, 14),
    seed: int = 0,
    spread: float = 0.01,
) -> ResultSet:
    """Return a quick result set of schema 3, every figure present.

    It holds 'recursive' and each of *factors*.

    An algorithm's time is its factor times the reference's on a machine *machine* times slower (rounds within
    +- *spread*, drawn with *seed*); its instructions per move 4000 times its factor; its tracemalloc peak
    1500 + n bytes.
    """
    results = ResultSet(mode="quick", reference="recursive", environment=Environment.from_dict(BENCH_ENVIRONMENT))
    results.settings = {"sizes": list(ns), "min_rounds": 9, "max_time_s": 0.05, "count_sizes": [10, 14]}
    results.noise_floor = NoiseFloor("recursive n=14", Difference("within noise", 1.0, Interval(0.99, 1.01), 0.8))
    for index, (name, factor) in enumerate({"recursive": 1.0, **factors}.items()):
        runs = []
        for n in ns:
            seconds = machine * factor * 300e-9 * (2**n - 1)
            timing = timed(seconds, spread=spread, seed=seed * 1000 + index * 10 + n)
            runs.append(Run(n=n, check_s=0.01, timing=timing, tracemalloc_peak_bytes=1500 + n))
        results.algorithms[name] = AlgorithmResult(
            name=name, declared=Declared("2^n", "n"), runs=runs, instructions=counted(name, 4000 * factor)
        )
    return results


def traced_peak(run: Callable[[], object], *, warm: bool = True) -> int:
    """Return the peak of traced memory while *run* runs, above the base.

    The base is what was traced before it.

    With *warm*, *run* runs once untraced first, so that caches and lazy imports are not counted.
    Under pytest-xdist the workers' channel thread allocates into the peak: such tests are ``serial``.
    """
    if warm:
        run()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        run()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
