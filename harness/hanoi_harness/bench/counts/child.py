"""The process an instruction count runs under valgrind.

Run as ``python -m hanoi_harness.bench.counts.child SPEC``, where SPEC is a JSON object ``{"jobs": [[NAME,
[N1, ..., Nk]], ...], "plugins": [...], "timeout_s": T}``, the sizes increasing.
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
"""What a child drains before the three counted ones, to warm the path between forks."""


_ANSWER: list[TextIO] = []  #: Where the JSON lines go: the original stdout (:func:`main` points it at stderr).


def main(argv: Sequence[str]) -> int:
    """Run every job of the SPEC in *argv*; return the exit status."""
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
    """Fork a child that drains *algorithm* at *n*; whether it ended well."""
    status = _forked(lambda: _child(algorithm, n, seconds))
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return True
    if os.WIFSIGNALED(status):
        _say({"name": algorithm.name, "n": n, "error": f"killed by signal {os.WTERMSIG(status)}"})
    return False


def _forked(work: Callable[[], int]) -> int:
    """Run *work* in a forked child; return the child's wait status."""
    pid = os.fork()
    if pid == 0:
        os._exit(work())
    return os.waitpid(pid, 0)[1]


def _child(algorithm: Algorithm, n: int, seconds: int) -> int:
    """The forked child: drain, print the JSON line, return the exit status."""
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
