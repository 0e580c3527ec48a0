"""Measure the spread of instruction counts the gate's threshold rests on.

    python -m benchmarks.calibrate --repeat 5 --load --out calibration.json

It measures how much instructions per move move between reruns, and how
much a small change adds.  For every registered algorithm (and ``--plugin``
ones) it counts instructions per move
(:mod:`hanoi_harness.bench.counts.measure`) ``--repeat`` times.  With
``--load`` it counts as many times again beside busy loops, one per core,
started here and stopped by their process ids.

It counts two copies of bitwise loaded as plugins: the module as it is, and
the module with one statement planted in its per-move loop
(``fr = fr + 0``).  Then it counts everything again with a padding module
imported first, once for each of ``--paddings``.  That stands for an
unrelated change, after which the heap is laid out differently.

It prints, per algorithm, the smallest and largest count over the reruns
and their spread.  It prints how far the paddings moved the figure and the
total, the planted statement's effect, and how long each full count took.
``--out`` keeps every number as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabulate import tabulate

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.counts.measure import SIZES, Valgrind, count_all, count_sizes, find_valgrind
from hanoi_harness.registry.sources import build_registry

PLANTED = "fr = fr + 0"
"""The statement planted in bitwise's per-move loop.

One addition and two stores: a few dozen instructions.
"""

_AFTER = re.compile(r"^(?P<indent>[ \t]+)fr = \(i \+ i // 3\) & 3\n", re.MULTILINE)
_REGISTER = re.compile(r"^from hanoi_harness\.registry\.sources import register\n", re.MULTILINE)
_NO_REGISTER = "\n\ndef register(**metadata):\n    return lambda solve: solve\n"
_ENTRY = "\n\ndef {name}(n):\n    return solve(n)\n"

PADDINGS = (37, 250, 1500, 7919)
"""Objects of each of three kinds that the padding modules allocate.

These sizes moved bitwise's total by different amounts, one of them not at
all, while its figure outside the allocators did not move.
"""


def bitwise_copies(directory: Path) -> dict[str, str]:
    """Write two copies of bitwise's module into *directory*: plain, planted.

    Returns ``{name: plugin spec}``.  The copies do not register themselves
    (the in-tree module already holds the name ``bitwise``).  Each ends with
    a function named after the copy, which returns bitwise's own generator,
    so a plugin drains exactly the in-tree code.  The planted copy has
    :data:`PLANTED` after the line computing ``fr`` in the per-move loop; a
    :class:`ValueError` says so when that line is no longer there.
    """
    from hanoi_algorithms import bitwise

    source = Path(bitwise.__file__).read_text()
    if not _REGISTER.search(source) or not _AFTER.search(source):
        raise ValueError(f"{bitwise.__file__} no longer has the lines a planted copy patches")
    base = _REGISTER.sub(_NO_REGISTER, source, count=1)
    planted = _AFTER.sub(lambda m: f"{m.group(0)}{m.group('indent')}{PLANTED}\n", base, count=1)
    specs = {}
    for name, text in (("bitwise_copy", base), ("bitwise_planted", planted)):
        path = directory / f"{name}.py"
        path.write_text(text + _ENTRY.format(name=name))
        specs[name] = f"{path}:{name}"
    return specs


def padding_module(directory: Path, objects: int) -> str:
    """Write a padding plugin module into *directory*; return its spec.

    The module allocates *objects* each of bytes, pairs and floats.
    Imported by the registry before any drain, it stands for an unrelated
    change: the heap is laid out differently, and nothing else differs.
    """
    path = directory / "padding.py"
    path.write_text(
        f"_PAD = [bytes(33 + (i * 7919) % 470) for i in range({objects})] + [(i, i + 1) for i in range({objects})]\n"
        f"_PAD += [1000.0 + i for i in range({objects})]\n"
        "\n\ndef padding(n):\n    return iter(())\n"
    )
    return f"{path}:padding"


@contextmanager
def busy_loops(count: int) -> Iterator[list[int]]:
    """Run *count* busy loops while the block runs; yield their process ids.

    The loops are CPU-bound children.  Each is stopped by its own process
    id when the block ends, however it ends.
    """
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield [loop.pid for loop in loops]
    finally:
        for loop in loops:
            loop.terminate()
        for loop in loops:
            loop.wait()


@dataclass
class Round:
    """One full count: its figures per move, its time and the load around it.

    The figures are by name; the load averages are taken before and after.
    """

    label: str
    per_move: dict[str, float | None]
    total_per_move: dict[str, float | None]
    seconds: float
    load_before: tuple[float, ...]
    load_after: tuple[float, ...]
    unavailable: dict[str, str]


def count_round(label: str, valgrind: Valgrind, names: Sequence[str], plugins: Sequence[str]) -> Round:
    """Count every algorithm in *names* once; return a :class:`Round`.

    The registry is built with *plugins*.
    """
    registry = build_registry(plugins)
    sizes = {name: count_sizes(registry.get(name)) for name in names}
    before = os.getloadavg()
    started = time.monotonic()
    found: dict[str, InstructionCount] = count_all(valgrind, sizes, plugins)
    seconds = time.monotonic() - started
    print(f"{label}: {seconds:.1f} s", file=sys.stderr)
    return Round(
        label,
        {name: count.per_move for name, count in found.items()},
        {name: count.total_per_move for name, count in found.items()},
        round(seconds, 1),
        tuple(round(v, 2) for v in before),
        tuple(round(v, 2) for v in os.getloadavg()),
        {name: count.unavailable for name, count in found.items() if count.unavailable},
    )


def spreads(rounds: Sequence[Round], total: bool = False) -> list[list[Any]]:
    """Return the spread of each algorithm's instructions per move.

    Each row holds the name, the runs, the smallest and largest figure, and
    their spread in percent.  The figure is the count outside the
    allocators, or with *total* the whole count.

    >>> r = [Round(label, {"x": value}, {"x": 1.0}, 1.0, (), (), {}) for label, value in (("a", 100.0), ("b", 101.0))]
    >>> spreads(r)
    [['x', 2, 100.0, 101.0, 1.0]]
    """
    rows = []
    for name in rounds[0].per_move:
        values = [(r.total_per_move if total else r.per_move)[name] for r in rounds]
        values = [value for value in values if value is not None]
        if values:
            low, high = min(values), max(values)  # type: ignore[type-var]
            rows.append([name, len(values), low, high, round((high - low) / low * 100, 4)])  # type: ignore[operator]
        else:
            rows.append([name, 0, None, None, None])
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line *argv* (default: this process's); the exit status.

    What it does is in the module's docstring.
    """
    parser = argparse.ArgumentParser(prog="python -m benchmarks.calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="full counts without load, and as many with (default 3)")
    parser.add_argument("--load", action="store_true", help="also count under one busy loop per core")
    parser.add_argument(
        "--paddings",
        type=lambda text: [int(part) for part in text.split(",") if part],
        default=list(PADDINGS),
        metavar="N,N,...",
        help=f"full counts with a module of N padding objects imported first (default {','.join(map(str, PADDINGS))})",
    )
    parser.add_argument("--plugin", action="append", default=[], metavar="SPEC", help="also count this plugin")
    parser.add_argument("--out", type=Path, help="write every number here as JSON")
    args = parser.parse_args(argv)
    valgrind = find_valgrind()
    if isinstance(valgrind, str):
        print(f"calibrate: {valgrind}", file=sys.stderr)
        return 2
    names = build_registry(args.plugin).names()
    rounds = [count_round(f"idle {i + 1}", valgrind, names, args.plugin) for i in range(args.repeat)]
    if args.load:
        with busy_loops(os.cpu_count() or 1):
            rounds += [count_round(f"loaded {i + 1}", valgrind, names, args.plugin) for i in range(args.repeat)]
    with tempfile.TemporaryDirectory(prefix="hanoi-calibrate-") as work:
        copies = bitwise_copies(Path(work))
        plain = count_round("bitwise copies", valgrind, ["bitwise", *copies], list(copies.values()))
        padded = [
            count_round(f"padding {k}", valgrind, names, [padding_module(Path(work), k), *args.plugin])
            for k in args.paddings
        ]
    report = _report(valgrind, rounds, plain, padded)
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return 0


def _report(valgrind: Valgrind, rounds: list[Round], plain: Round, padded: list[Round]) -> dict[str, Any]:
    """Print the tables of the counts; return every number, JSON-ready.

    The tables show the reruns in *rounds*, the planted copy in *plain* and
    the heap layouts of *padded*.
    """
    rows = spreads(rounds)
    totals = spreads(rounds, total=True)
    print(f"{valgrind.version}; instructions per move between n = {SIZES[0]} and {SIZES[1]}\n")
    headers = ["algorithm", "runs", "min", "max", "spread %"]
    print("Reruns, outside the memory allocators (the gate's figure):")
    print(tabulate(rows, headers=headers, floatfmt=".3f"))
    print("\nReruns, all instructions:")
    print(tabulate(totals, headers=headers, floatfmt=".3f"))
    layouts = [
        [name, _widest(rounds[0], padded, name, False), _widest(rounds[0], padded, name, True)]
        for name in rows_names(rows)
    ]
    print(f"\nOther heap layouts (padding modules of {', '.join(r.label.split()[-1] for r in padded)} objects):")
    print(tabulate(layouts, headers=["algorithm", "figure moved, % at most", "total moved, % at most"]))
    print()
    times = [[r.label, r.seconds, r.load_before, r.load_after] for r in [*rounds, plain, *padded]]
    print(tabulate(times, headers=["full count", "seconds", "load before", "load after"]))
    base, planted = plain.per_move["bitwise_copy"], plain.per_move["bitwise_planted"]
    effect = _moved(base, planted)
    print(f"\n'{PLANTED}' in bitwise's loop: {base} -> {planted} instructions per move ({effect}%)")
    return {
        "valgrind": valgrind.version,
        "sizes": list(SIZES),
        "rounds": [vars(r) for r in rounds],
        "spreads": rows,
        "spreads_total": totals,
        "copies": vars(plain),
        "planted_effect_pct": effect,
        "paddings": [vars(r) for r in padded],
        "layouts_pct": layouts,
    }


def rows_names(rows: list[list[Any]]) -> list[str]:
    """The algorithm names of the table *rows* (their first column)."""
    return [str(row[0]) for row in rows]


def _widest(base: Round, others: list[Round], name: str, total: bool) -> float | None:
    """Return the largest change of *name*'s figure in *others*, in percent.

    The change is from *base*; with *total* it is of the whole count.
    """
    before = (base.total_per_move if total else base.per_move)[name]
    changes = [_moved(before, (r.total_per_move if total else r.per_move).get(name)) for r in others]
    found = [abs(change) for change in changes if change is not None]
    return max(found) if found else None


def _moved(before: float | None, after: float | None) -> float | None:
    """The change from *before* to *after* in percent, or None.

    >>> _moved(200.0, 201.0), _moved(None, 1.0)
    (0.5, None)
    """
    return None if before is None or after is None else round((after / before - 1) * 100, 4)


if __name__ == "__main__":
    sys.exit(main())
