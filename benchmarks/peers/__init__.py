"""Other packages' Tower of Hanoi solvers, as records of the registry.

Their moves come in the project's model.  Three packages on PyPI solve
corners of the problem and check none of it.

* ``hanoi-python-solver`` (:mod:`benchmarks.peers.python_solver`): three
  pegs, from any position to any other, for n <= 10.  It runs Dijkstra's
  algorithm over the whole graph of 3^n positions.
* ``k-peg-hanoi`` (:mod:`benchmarks.peers.k_peg`): Frame-Stewart for k
  pegs, a generator of (source, destination) pairs.
* ``hanoitoys`` (:mod:`benchmarks.peers.toys`): four printing programs
  for three pegs and an interactive Frame-Stewart program for k pegs.  The
  four are the recursion, the non-recursive solution, Olive's and the
  idle-peg algorithms.

Each module here is an adapter.  It calls the package's public API (for
``hanoitoys``, runs its program and reads what it prints).  It turns each
move into ``(disk, src, dst)`` in the model (disk 1 the smallest, pegs
0 .. k-1).  It wraps them in an
:class:`~hanoi_harness.registry.record.Algorithm` record.  The record names
the puzzle, the final peg, the limits found by testing and the package as
its source.  None of their code is copied: the moves are theirs.  So::

    hanoi verify --plugin benchmarks.peers.k_peg:K_PEG_4
    hanoi moves hanoi_python_solver 5 --plugin benchmarks.peers.python_solver:DIJKSTRA

check them with the project's checker.  ``python -m benchmarks.peers`` (what
``make bench`` runs, :mod:`benchmarks.peers.compare`) measures each against
the project's algorithm for the same puzzle (:data:`PEERS`), on the same
work.  The results go into the result set ``peers/`` of ``--out``.

The packages are pinned in ``benchmarks/requirements.txt``, imported only
when a record is run.  Without them, running one is a one-line
:class:`~hanoi_harness.errors.UsageError` saying what to install.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from hanoi_harness.core.legality import pegs_at
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm

Move = tuple[Any, Any, Any]
"""A move as an adapter yields it: ``(disk, src, dst)``.

A peg is whatever the peer gave, even one it should not have.
"""

INSTALL = "pip install -r benchmarks/requirements.txt"
"""What installs every peer at the versions the adapters were tested with."""


@dataclass(frozen=True)
class Peer:
    """A peer's record, loaded as the plugin *spec*, and the algorithm *ours*.

    The peer is measured against the project's algorithm *ours*.  *ours*
    solves the same puzzle the same way where the project has such an
    algorithm, else it is the project's reference for that puzzle.  *apart*
    is true for a program that runs in a child process of its own (its
    memory and instructions are not this process's).
    """

    spec: str
    ours: str
    apart: bool = False


PEERS = (
    Peer("benchmarks.peers.python_solver:DIJKSTRA", "any_state"),
    Peer("benchmarks.peers.k_peg:K_PEG_3", "recursive"),
    Peer("benchmarks.peers.k_peg:K_PEG_4", "frame_stewart"),
    Peer("benchmarks.peers.k_peg:K_PEG_5", "frame_stewart_5"),
    Peer("benchmarks.peers.toys:CLASSICAL", "recursive", apart=True),
    Peer("benchmarks.peers.toys:NON_RECURSIVE", "clockwise_pillars", apart=True),
    Peer("benchmarks.peers.toys:OLIVE", "clockwise_pillars", apart=True),
    Peer("benchmarks.peers.toys:IDLE_PEG", "clockwise_pillars", apart=True),
    Peer("benchmarks.peers.toys:FRAME_STEWART_4", "frame_stewart", apart=True),
    Peer("benchmarks.peers.toys:FRAME_STEWART_5", "frame_stewart_5", apart=True),
)
"""Every peer record and the project's algorithm it is compared with.

* The any-state solver goes with ``any_state``.
* Frame-Stewart goes with ``frame_stewart``; on three pegs, where it is the
  recursion, with ``recursive``.
* The recursion goes with ``recursive``.
* The three iterative 3-peg programs go with ``clockwise_pillars``.  It moves
  disk 1 round the circle every other move, then the one other legal move.
  That is Olive's rule, which the non-recursive and idle-peg rules also make.
"""


def require(module: str, package: str, hint: str = INSTALL) -> ModuleType:
    """Return the peer's module *module*, imported now.

    A missing module is a one-line :class:`UsageError` naming *package* and
    *hint*.

    >>> require("json", "json").__name__
    'json'
    >>> require("no_such_peer_module", "no-such-peer")
    Traceback (most recent call last):
    ...
    hanoi_harness.errors.UsageError: no-such-peer is not installed (No module named 'no_such_peer_module'): \
pip install -r benchmarks/requirements.txt
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:  # the package itself, or one of its own dependencies (fire, tkinter)
        raise UsageError(f"{package} is not installed ({exc}): {hint}") from None


def offer(records: dict[str, Algorithm], module: str, name: str, *, needs: Sequence[tuple[str, str, str]]) -> Algorithm:
    """Return the record *name* of *records*, once its *needs* are imported.

    *module* offers the records as plugins; this is its ``__getattr__``.
    ``--plugin benchmarks.peers.k_peg:K_PEG_4`` asks for the record by
    name.  A peer that is not installed is then a one-line
    :class:`UsageError` (exit status 2) before anything runs.  Each of
    *needs* is ``(module, package, hint)`` for :func:`require`.  Any other
    name is an :class:`AttributeError`, as for a module without
    ``__getattr__``.
    """
    if name not in records:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    for needed, package, hint in needs:
        require(needed, package, hint)
    return records[name]


def with_disks(pairs: Iterable[tuple[Any, Any]], start: Sequence[int], pegs: int) -> Iterator[Move]:
    """Yield the moves *pairs* (source, destination), each with its disk.

    The pairs start from configuration *start* on *pegs* pegs.  A peer that
    names only the pegs moves the top disk of the source: this replays the
    pairs on the pegs to name it.  A pair that cannot be replayed (an empty
    source, a peg that is not one) comes out with disk 0 and its pegs as
    given.  The checker then names the rule it breaks and stops there, so
    what follows it does not matter.

    >>> list(with_disks([(0, 1), (0, 2), (1, 2)], (0, 0), 3))
    [(1, 0, 1), (2, 0, 2), (1, 1, 2)]
    >>> list(with_disks([(1, 2), ("Z", 0)], (0,), 3))
    [(0, 1, 2), (0, 'Z', 0)]
    """
    stacks = dict(enumerate(pegs_at(start, pegs)))
    for src, dst in pairs:
        source, target = stacks.get(src), stacks.get(dst)
        if source and target is not None:
            disk = source.pop()
            target.append(disk)
            yield (disk, src, dst)
        else:
            yield (0, src, dst)
