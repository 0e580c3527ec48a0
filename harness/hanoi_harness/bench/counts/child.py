"""The process an instruction count runs under valgrind: ``python -m hanoi_harness.bench.counts.child SPEC``.

SPEC is a JSON object ``{"jobs": [[NAME, N1, N2], ...], "plugins": [...], "timeout_s": T}``.  The process
builds the registry once (with the parent's ``--plugin`` specs, so a plugin is
counted like an in-tree algorithm), and for each job:

1. drains the algorithm once at N2 and once at N1 through
   :func:`hanoi_harness.bench.consume.consume`, so that whatever a drain does
   the first time is done here, not in a counted drain: lazy imports and
   caches, the dynamic linker binding a C function at its first call, the
   interpreter's method cache filling.  Warmed up at N1 alone, the drain at N2
   alone paid for them, and bitwise's count between n = 4 and 7 moved by 12
   instructions a move (0.3%) with what ran before it; at N2 alone, a cache
   kept per n (``cyclic_blocks`` builds a block of each n up to 11 disks once)
   was built in both counted drains at N1 and none at N2, which made its
   figure negative;
2. runs a full garbage collection and freezes every object alive (``gc.freeze``):
   each counted drain then starts with the collector's counters at zero, and a
   collection during it walks the drain's own objects only, not the rest of the
   heap (which grows with every module imported, and would tie one algorithm's
   count to unrelated code);
3. forks a child that drains nothing (:data:`WARM_UP`), then three children,
   one after the other, that drain at N1, N2 and N1 again, each printing
   ``{"name", "n", "pid", "moves"}`` and leaving with ``os._exit``.  valgrind
   writes each child's instruction total to its own file (``%p`` in
   ``--cachegrind-out-file``), and each total includes what this process
   executed before that fork: the same for all three, plus a constant *delta*
   for each fork-and-wait in between, which the three counts cancel (see
   :attr:`hanoi_harness.bench.counts.measure.InstructionCount.per_move`).

A drain that raises, or runs past T seconds (``SIGALRM`` raises
:class:`TimeoutError` in it), prints ``{"name", "n", "error"}``; a child killed
by a signal is reported by this process.  A failed job is reported and the
next one goes on.  A bad plugin or spec is one line on stderr and exit status 2.
"""

from __future__ import annotations

import gc
import json
import math
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from hanoi_harness.bench.consume import consume
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import build_registry

WARM_UP = Algorithm(name="warm_up", solve=lambda n: iter(()), summary="no moves")
"""What a child drains before the three counted ones, so that this process has been once through the path
between two forks since the warm-up drain: its first pass filled the interpreter's method cache and cost 360
instructions more than the next ones, which went into one count (3 instructions a move between n = 4 and 7)."""


def main(argv: Sequence[str]) -> int:
    """Run every job of the SPEC in *argv*, printing one JSON line per drain or failure; the exit status."""
    try:
        spec = json.loads(argv[0])
        registry = build_registry(spec["plugins"], guard=False)  # the parent has imported them first
        jobs = [(str(name), int(low), int(high)) for name, low, high in spec["jobs"]]
        timeout_s = float(spec["timeout_s"])
    except (UsageError, ValueError, KeyError, IndexError, TypeError) as exc:
        print(exc if isinstance(exc, UsageError) else f"bad spec {argv[:1]!r}: {exc!r}", file=sys.stderr)
        return 2
    seconds = max(1, math.ceil(timeout_s))

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"no count within {seconds} s")

    signal.signal(signal.SIGALRM, expired)  # the forked children inherit it
    for name, low, high in jobs:
        try:
            algorithm = registry.get(name)
            signal.alarm(seconds)
            consume(algorithm, high)
            consume(algorithm, low)
        except Exception as exc:  # an algorithm's failure is its job's, reported; the others go on
            _say({"name": name, "n": high, "error": f"{type(exc).__name__}: {exc}"})
            continue
        finally:
            signal.alarm(0)
        gc.collect()
        gc.freeze()
        _drain_in_child(WARM_UP, 0, seconds)
        for n in (low, high, low):
            if not _drain_in_child(algorithm, n, seconds):
                break
        gc.unfreeze()
    return 0


def _drain_in_child(algorithm: Algorithm, n: int, seconds: int) -> bool:
    """Fork a child that drains *algorithm* at *n* within *seconds* and reports; whether it ended well.

    This process does the same between any two forks (fork, wait, test the
    status), so the instructions it adds between them are the same each time.
    """
    status = _forked(lambda: _child(algorithm, n, seconds))
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return True
    if os.WIFSIGNALED(status):
        _say({"name": algorithm.name, "n": n, "error": f"killed by signal {os.WTERMSIG(status)}"})
    return False


def _forked(work: Callable[[], int]) -> int:
    """Run *work* in a forked child, which exits with what it returns; the child's wait status."""
    pid = os.fork()
    if pid == 0:
        os._exit(work())
    return os.waitpid(pid, 0)[1]


def _child(algorithm: Algorithm, n: int, seconds: int) -> int:
    """The forked child: drain, print the JSON line, and return the exit status (never raise: no unwinding)."""
    try:
        signal.alarm(seconds)
        moves = consume(algorithm, n).moves
        signal.alarm(0)
    except BaseException as exc:  # the child must reach os._exit whatever happens
        _say({"name": algorithm.name, "n": n, "error": f"{type(exc).__name__}: {exc}"})
        return 1
    if algorithm is not WARM_UP:
        _say({"name": algorithm.name, "n": n, "pid": os.getpid(), "moves": moves})
    return 0


def _say(line: dict[str, Any]) -> None:
    """Print one JSON line now (a fork copies whatever is left in the buffer)."""
    print(json.dumps(line), flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
