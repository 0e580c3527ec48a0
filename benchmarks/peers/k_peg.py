"""k-peg-hanoi: Frame-Stewart for k pegs, yielding (source, destination).

The package
    ``k_peg_hanoi.hanoi(md, pos)`` yields the moves ``(from, to)`` taking
    md disks from peg ``pos[0]`` to peg ``pos[-1]``, the pegs between them
    spare.  Pegs are whatever labels *pos* holds.  It parks the mn smallest
    disks on ``pos[1]`` with every peg, moves the rest with one peg fewer,
    and brings the mn back.  The split mn minimises
    2 nmove(mn, k) + nmove(md - mn, k - 1), the smallest on ties.
    ``nmove(m, n)``, memoised with ``functools.cache``, is the Frame-Stewart
    count.  It says nothing about which disk moves, and checks nothing.
    (It also installs a console script named ``hanoi``, an animation in
    text: see the documentation's page on the peers.)

The adapter
    ``pos`` is ``[src, the other pegs in order, dst]`` with the model's peg
    numbers, so the pairs are already in the model.  The disk of each move
    is named by replaying them (:func:`benchmarks.peers.with_disks`).
    :func:`for_pegs` makes the record for k pegs: whole tower from peg 0 to
    peg k - 1, and ``solve_for`` between any two pegs.

What the tests found (``tests/peers/test_peers.py``)
    Every run is legal and takes exactly the Frame-Stewart count
    (:func:`hanoi_harness.core.optimal.frame_stewart`).  That is optimal
    (proven) for k = 3 and 4, and matches the conjectured optimum for
    k >= 5.  Its limits:

    * n = 0 raises ``ValueError`` (``min()`` of an empty sequence: the
      split is chosen among 1 .. md - 1 before md = 0 is ruled out).
    * Two pegs raise ``ValueError("Too few len(pos)")``.
    * With three pegs the generators nest n deep, so n > 995 is a
      ``RecursionError`` under the interpreter's 1000-frame limit.  With
      four pegs or more the nesting stays shallow: n = 1500 starts, after a
      pause computing its counts.

    The cache is the process's: a second run of the same sizes skips
    computing the counts.  So its timed runs in ``hanoi bench`` (every one
    after the first) do not pay for them.  The project's ``frame_stewart``
    computes its splits in every run.

Source
    Saito Tsutomu, "k-peg-hanoi 0.2.5: Tower of Hanoi (using k peg)",
    https://pypi.org/project/k-peg-hanoi/ (2025).
"""

from __future__ import annotations

from collections.abc import Iterator

from benchmarks.peers import INSTALL, Move, offer, require, with_disks
from hanoi_harness.core.puzzle import k_pegs, tower
from hanoi_harness.registry.record import Algorithm, Citation, FinalPeg, between_towers

SOURCE = Citation(
    author="Saito Tsutomu",
    title="k-peg-hanoi 0.2.5: Tower of Hanoi (using k peg)",
    site="https://pypi.org/project/k-peg-hanoi/",
    year="2025",
)

THREE_PEGS_MAX_N = 900
"""The most disks on three pegs, where the generators nest n deep.

n = 995 is the last that starts under the 1000-frame limit; 900 leaves the
caller's frames (the checker, the CLI) room.
"""


def transfer(n: int, k: int, src: int, dst: int) -> Iterator[Move]:
    """Return the peer's moves of n disks from *src* to *dst*, in the model.

    The puzzle has *k* pegs.

    Raises :class:`UsageError` at once when the package is not installed;
    the peer's own errors come from the first move, for the checker.
    """
    module = require("k_peg_hanoi", "k-peg-hanoi")
    pos = [src, *(peg for peg in range(k) if peg not in (src, dst)), dst]
    return with_disks(module.hanoi(n, pos), tower(n, src), k)


def for_pegs(k: int, name: str | None = None) -> Algorithm:
    """Return the record of k-peg-hanoi for *k* pegs (k >= 3).

    It is named ``k_peg_hanoi_K`` unless *name* is given.

    >>> record = for_pegs(6)
    >>> record.name, record.puzzle.pegs, record.final_peg.pegs(5), record.max_n
    ('k_peg_hanoi_6', 6, frozenset({5}), None)
    """
    puzzle = k_pegs(k)  # a UsageError for fewer than three pegs

    def solve(n: int) -> Iterator[Move]:
        return transfer(n, k, 0, k - 1)

    solve.__doc__ = f"k-peg-hanoi's moves of n disks from peg 0 to peg {k - 1} of {k} pegs."
    return Algorithm(
        name=name or f"k_peg_hanoi_{k}",
        solve=solve,
        summary=f"k-peg-hanoi: Frame-Stewart on {k} pegs, (from, to) pairs (peer, unverified upstream)",
        source=SOURCE,
        family="peer: recursive",
        min_n=1,
        min_n_reason="hanoi(0, pos) raises ValueError: min() of an empty sequence",
        max_n=THREE_PEGS_MAX_N if k == 3 else None,
        max_n_reason="three pegs nest n generators: RecursionError past n = 995" if k == 3 else "",
        space="n",
        time="n 2^n",
        final_peg=FinalPeg.fixed(k - 1),
        puzzle=puzzle,
        solve_for=between_towers("k_peg_hanoi", lambda n, src, dst: transfer(n, k, src, dst)),
        origin=f"peer {__name__}",
    )


RECORDS = {f"K_PEG_{k}": for_pegs(k) for k in (3, 4, 5)}
"""The plugins this module offers, by name.

``--plugin benchmarks.peers.k_peg:K_PEG_4``, and ``K_PEG_3`` and
``K_PEG_5``.  For other k, call :func:`for_pegs` in a file of your own, as
for the project's Frame-Stewart.
"""

NEEDS = [("k_peg_hanoi", "k-peg-hanoi", INSTALL)]


def __getattr__(name: str) -> Algorithm:
    """Return the record *name* of :data:`RECORDS`, asked for as a plugin.

    A missing peer is a one-line UsageError.
    """
    return offer(RECORDS, __name__, name, needs=NEEDS)
