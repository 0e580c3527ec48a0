"""Time ``hanoi moves blocks N --binary`` against a per-move C program.

``benchmarks/c/hanoi_ref.c`` writes the same bytes as
``hanoi moves NAME N --binary`` (three unsigned bytes per move), one move at
a time by the bit formula.  It is compiled twice with ``-O2``.  As written,
it makes one 3-byte ``fwrite`` per move into stdio's buffer.  With
``-DGATHER_WRITES``, the stronger baseline, it gathers the moves in an array
and makes one ``fwrite`` per 16384 moves.

:func:`measure` compiles both when a C compiler is present, and checks that
all three programs write identical bytes.  It times each writing to
``/dev/null``, best of ``repeat`` runs, the Python one including its
interpreter's start-up.  It returns the figures and the ratios as a dict.

Every program runs as the harness's other children do
(:mod:`hanoi_harness.process`): in a session of its own that dies
with this process, the Python one isolated from the current directory.

    python -m benchmarks.cref 28 --out results

prints a table (``make bench-c``, without ``--out``).  With ``--out``, as
``make bench`` runs it, it also writes ``cref.md``, linked from its README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import publish
from hanoi_harness import process
from hanoi_harness.bench.report.formatting import markdown

SOURCE = Path(__file__).resolve().parent / "c" / "hanoi_ref.c"
"""The C reference, beside this module."""

VARIANTS = {"c_fwrite_per_move": [], "c_gathered_writes": ["-DGATHER_WRITES"]}
"""Each C build: its name in the results and its extra compiler flags."""

CHECK_N = 16
"""The outputs are compared byte for byte at min(n, CHECK_N): 65535 moves."""


def compiler() -> str | None:
    """Return the C compiler to use, or None when there is none.

    It is $CC, else gcc, else cc.
    """
    cc = os.environ.get("CC")
    if cc and shutil.which(cc):
        return shutil.which(cc)
    return shutil.which("gcc") or shutil.which("cc")


def python_command(n: int) -> list[str]:
    """Return the timed command for *n* disks, run by this interpreter.

    It is ``hanoi moves blocks N --binary``, started with ``-P``
    (:func:`hanoi_harness.process.python_command`): a ``json.py`` in
    the current directory is never imported.
    """
    return process.python_command("hanoi_harness", "moves", "blocks", str(n), "--binary")


def _c_command(exe: str) -> Callable[[int], list[str]]:
    """Return the argv builder of the compiled C reference *exe*."""

    def argv(n: int) -> list[str]:
        return [exe, str(n)]

    return argv


def _run(command: list[str], **popen: Any) -> subprocess.CompletedProcess[Any]:
    """Run *command* as every child of the harness runs; raise if it fails.

    See :func:`hanoi_harness.process.run`.
    """
    done = process.run(command, env=process.python_environment(), **popen)
    done.check_returncode()
    return done


def _best(command: list[str], repeat: int) -> float:
    """Return the shortest wall-clock time of *repeat* runs of *command*.

    Each run writes to /dev/null.
    """
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        _run(command, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def _output(command: list[str]) -> bytes:
    output: bytes = _run(command, stdout=subprocess.PIPE).stdout
    return output


def measure(n: int = 28, repeat: int = 3) -> dict[str, Any]:
    """Time the two C builds and ``hanoi moves blocks n --binary``; a dict.

    Each time is the best of *repeat* runs; the dict is JSON-ready.  Its
    keys are ``n``, ``moves``, ``bytes``, ``compiler`` and ``identical``
    (the three outputs are equal at min(n, 16)).  Then come the best time in
    seconds of each program (``c_fwrite_per_move``, ``c_gathered_writes``,
    ``python_blocks``), and ``speedup_vs_fwrite_per_move`` and
    ``speedup_vs_gathered_writes`` (C time / Python time).  Without a C
    compiler or the C source the dict has ``skipped`` (the reason) and no
    times.  0 <= n <= 63.
    """
    if not 0 <= n <= 63:
        raise ValueError(f"n must be 0..63 for the C reference, got {n}")
    result: dict[str, Any] = {"n": n, "moves": (1 << n) - 1, "bytes": 3 * ((1 << n) - 1), "repeat": repeat}
    cc = compiler()
    if cc is None:
        return {**result, "skipped": "no C compiler (set CC, or install gcc)"}
    if not SOURCE.is_file():
        return {
            **result,
            "skipped": f"the C reference {SOURCE} is missing",
        }
    result["compiler"] = f"{Path(cc).name} -O2"
    with tempfile.TemporaryDirectory(prefix="hanoi-cref-") as tmp:
        programs: dict[str, Callable[[int], list[str]]] = {}
        for name, flags in VARIANTS.items():
            exe = str(Path(tmp) / name)
            _run([cc, "-O2", *flags, "-o", exe, str(SOURCE)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            programs[name] = _c_command(exe)
        programs["python_blocks"] = python_command
        outputs = {_output(argv(min(n, CHECK_N))) for argv in programs.values()}
        result["identical"] = len(outputs) == 1
        for name, argv in programs.items():
            result[name] = _best(argv(n), repeat)
    python = result["python_blocks"]
    for name in VARIANTS:
        result[f"speedup_vs_{name.removeprefix('c_')}"] = result[name] / python
    return result


def page(c: dict[str, Any]) -> str:
    """Return the text of ``cref.md`` for :func:`measure`'s dict *c*.

    >>> page({"n": 3, "skipped": "no C compiler"}).splitlines()[-1]
    'Not measured: no C compiler.'
    """
    head = "# blocks vs a C per-move loop\n\n"
    if "skipped" in c:
        return f"{head}Not measured: {c['skipped']}.\n"
    rows = [
        ["C, one 3-byte `fwrite` per move", f"{c['c_fwrite_per_move']:.3f}", f"{c['speedup_vs_fwrite_per_move']:.2f}x"],
        ["C, one `fwrite` per 16384 moves", f"{c['c_gathered_writes']:.3f}", f"{c['speedup_vs_gathered_writes']:.2f}x"],
        [f"`hanoi moves blocks {c['n']} --binary`", f"{c['python_blocks']:.3f}", "1.00x"],
    ]
    differ = "**NO**: the outputs differ, so the times do not compare like with like"
    identical = "yes" if c.get("identical") else differ
    return (
        f"{head}`hanoi moves blocks {c['n']} --binary` (numpy, a block of moves at a time) against the per-move C "
        f"reference `benchmarks/c/hanoi_ref.c` (the bit formula, one move at a time), compiled with "
        f"`{c.get('compiler', '')}` in both ways it offers: n = {c['n']}, {c['moves']} moves, {c['bytes']} bytes "
        f"each to /dev/null, best of {c.get('repeat', '')} runs of each (the Python one includes its interpreter's "
        f"start-up). Written by `python -m benchmarks.cref`.\n\n"
        f"{markdown(['program', 'seconds', 'its time / blocks time'], rows)}\n\n"
        "The last column is each program's time over blocks' (above 1: blocks is faster). Bytes identical "
        f"(the three outputs compared at min(n, 16)): {identical}.\n"
    )


def main(argv: list[str] | None = None) -> int:
    """Run ``python -m benchmarks.cref``; the exit status.

    It measures, then prints a table, or the dict as JSON.  With ``--out``
    it writes ``cref.md`` there; a compiler or program that fails is then
    the reason on the page.
    """
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.cref",
        description="Time 'hanoi moves blocks N --binary' against the per-move C reference (hanoi_ref.c).",
    )
    parser.add_argument("n", nargs="?", type=int, default=28, help="the number of disks, 0..63 (default 28)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each program; the best counts (default 3)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--out", type=Path, help="also write cref.md into this result set's folder")
    args = parser.parse_args(argv)
    if not 0 <= args.n <= 63 or args.repeat < 1:
        parser.error("N must be 0..63 and --repeat at least 1")
    try:
        result = measure(args.n, args.repeat)
    except (subprocess.CalledProcessError, OSError) as exc:
        if args.out is None:
            raise
        said = (getattr(exc, "stderr", None) or b"").decode(errors="replace").strip().splitlines()
        result = {"n": args.n, "skipped": f"the C reference failed: {exc}" + (f": {said[-1]}" if said else "")}
    if args.out is not None:
        publish(args.out, "cref.md", "blocks vs a C per-move loop", page(result))
    if args.json or "skipped" in result:
        print(json.dumps(result, indent=2))
        return 0
    from tabulate import tabulate

    rows = [
        ["C -O2, one fwrite per move", result["c_fwrite_per_move"], result["speedup_vs_fwrite_per_move"]],
        ["C -O2, one fwrite per 16384 moves", result["c_gathered_writes"], result["speedup_vs_gathered_writes"]],
        ["hanoi moves blocks N --binary", result["python_blocks"], 1.0],
    ]
    print(
        f"n = {args.n}: {result['moves']} moves, {result['bytes']} bytes to /dev/null, best of {args.repeat}; "
        f"outputs identical: {result['identical']}"
    )
    print(tabulate(rows, headers=["program", "seconds", "blocks is x faster"], floatfmt=".3f"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
