"""The process an instruction count runs under valgrind.

Run as ``python -m hanoi_harness.bench.counts.child SPEC``, where SPEC is a
JSON object ``{"jobs": [[NAME, [N1, ..., Nk]], ...], "plugins": [...],
"timeout_s": T}``, the sizes increasing.  The process builds the registry once, with the parent's
``--plugin`` specs, so a plugin is counted like an in-tree algorithm.  Then
for each job it:

1. drains the algorithm once at each size, from Nk down to N1, through
   :func:`hanoi_harness.bench.consume.consume`.  So whatever a drain does
   the first time is done here, not in a counted drain: lazy imports and
   caches, the dynamic linker binding a C function at its first call, the
   interpreter's method cache filling.  Warmed up at N1 alone, the drain at
   N2 alone paid for them, and bitwise's count between n = 4 and 7 moved
   with what ran before it.  Warmed up at N2 alone, a cache kept per n
   (``cyclic_blocks`` builds a block of each n up to 11 disks once) was
   built in both counted drains at N1 and none at N2.  That made its figure
   negative.
2. runs a full garbage collection and freezes every object alive
   (``gc.freeze``).  Each counted drain then starts with the collector's
   counters at zero.  A collection during it walks the drain's own objects
   only, not the rest of the heap.  The heap grows with every module
   imported, and would tie one algorithm's count to unrelated code.
3. forks a child that drains nothing (:data:`WARM_UP`), then k + 1
   children, one after the other, that drain at N1, ..., Nk and N1 again.
   Each prints ``{"name", "n", "pid", "moves"}`` and leaves with
   ``os._exit``.  valgrind writes each child's instruction total to its own
   file (``%p`` in ``--cachegrind-out-file``).  Each total includes what
   this process executed before that fork: the same for all, plus a
   constant *delta* for each fork-and-wait in between.  The drain at N1
   again measures it, and it is taken off
   (:meth:`hanoi_harness.bench.counts.figures.InstructionCount.work`).

A drain that raises, or runs past T seconds (``SIGALRM`` raises
:class:`TimeoutError` in it), prints ``{"name", "n", "error"}``.  A child
killed by a signal is reported by this process.  A failed job is reported
and the next one goes on.  A bad plugin or spec is one line on stderr and
exit status 2.
"""

from __future__ import annotations

import gc
import json
import math
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from hanoi_harness.bench.consume import consume
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import build_registry
from hanoi_harness.sandbox.output import own_stdout

WARM_UP = Algorithm(name="warm_up", solve=lambda n: iter(()), summary="no moves")
"""What a child drains before the three counted ones.

So this process has been once through the path between two forks since the
warm-up drain.  Its first pass filled the interpreter's method cache and
cost more instructions than the next ones, which went into one count.
"""


_ANSWER: list[TextIO] = []
"""Where the JSON lines go: the original stdout, once :func:`main` has pointed stdout at stderr."""


def main(argv: Sequence[str]) -> int:
    """Run every job of the SPEC in *argv*; return the exit status.

    It prints one JSON line per drain or failure.
    """
    _ANSWER.append(own_stdout())  # what the algorithms print goes to stderr, never among the JSON lines
    try:
        spec = json.loads(argv[0])
        registry = build_registry(spec["plugins"], guard=False)  # the parent has imported them first
        jobs = [(str(name), [int(n) for n in sizes]) for name, sizes in spec["jobs"]]
        timeout_s = float(spec["timeout_s"])
    except (UsageError, ValueError, KeyError, IndexError, TypeError) as exc:
        print(exc if isinstance(exc, UsageError) else f"bad spec {argv[:1]!r}: {exc!r}", file=sys.stderr)
        return 2
    seconds = max(1, math.ceil(timeout_s))

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"no count within {seconds} s")

    signal.signal(signal.SIGALRM, expired)  # the forked children inherit it
    for name, sizes in jobs:
        n = max(sizes, default=0)  # the size an error is reported at, until a drain fails
        try:
            algorithm = registry.get(name)
            for n in sorted(sizes, reverse=True):
                signal.alarm(seconds)
                consume(algorithm, n)
        except Exception as exc:  # an algorithm's failure is its job's, reported; the others go on
            _say({"name": name, "n": n, "error": f"{type(exc).__name__}: {exc}"})
            continue
        finally:
            signal.alarm(0)
        gc.collect()
        gc.freeze()
        _drain_in_child(WARM_UP, 0, seconds)
        for n in (*sizes, *sizes[:1]):
            if not _drain_in_child(algorithm, n, seconds):
                break
        gc.unfreeze()
    return 0


def _drain_in_child(algorithm: Algorithm, n: int, seconds: int) -> bool:
    """Fork a child that drains *algorithm* at *n*; whether it ended well.

    The child has *seconds* for the drain, and reports it.  This process
    does the same between any two forks (fork, wait, test the status), so
    the instructions it adds between them are the same each time.
    """
    status = _forked(lambda: _child(algorithm, n, seconds))
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return True
    if os.WIFSIGNALED(status):
        _say({"name": algorithm.name, "n": n, "error": f"killed by signal {os.WTERMSIG(status)}"})
    return False


def _forked(work: Callable[[], int]) -> int:
    """Run *work* in a forked child; return the child's wait status.

    The child exits with what *work* returns.
    """
    pid = os.fork()
    if pid == 0:
        os._exit(work())
    return os.waitpid(pid, 0)[1]


def _child(algorithm: Algorithm, n: int, seconds: int) -> int:
    """The forked child: drain, print the JSON line, return the exit status.

    It never raises, so nothing unwinds.
    """
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
    print(json.dumps(line), file=_ANSWER[-1] if _ANSWER else sys.stdout, flush=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
