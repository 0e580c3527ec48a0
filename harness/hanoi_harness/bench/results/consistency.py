"""Figures of a result file that contradict each other, refused.

Each refusal names the figure, as for any bad value.

:mod:`hanoi_harness.bench.results.schema` checks each value alone; these
check them against each other, so that no file can pass the gate on figures
that cannot all be true:

* a timing whose median lies outside its own 95% interval or outside the
  rounds it kept, whose quartiles are out of order around it, whose minimum is
  above any of them (or above a kept round), or whose IQR is not q3 - q1;
* instruction counts whose larger size made no more moves than the smaller,
  whose allocators' part is larger than the count it is part of, or that give
  a negative figure per move outside the allocators or in all;
* a figure kept for readers (a run's ns per move and moves per second, the
  counts' figures per move, the noise floor's margin) that is not what the
  figures it is derived from give: the readers compute it again, so it would
  show one number where the tables show another.
"""

from __future__ import annotations

import math
from itertools import pairwise

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.results.validate import Fields
from hanoi_harness.bench.timing.figures import Timing

ROUNDED = 1e-5
"""How far a kept round may lie from the figures it is compared with: it is written to 6 significant digits."""

DERIVED = 1e-9
"""How far a figure kept for readers may lie from the one computed again: a float's last bits."""


def timing(data: Fields, found: Timing) -> None:
    """Refuse the timing *found*, read from *data*, if it contradicts itself."""
    median = found.median
    bounds = [("its 95% interval", found.interval.low, found.interval.high)] if found.interval else []
    if found.samples:
        bounds.append(("the rounds it kept", min(found.samples), max(found.samples)))
    for what, low, high in bounds:
        if not low * (1 - ROUNDED) <= median <= high * (1 + ROUNDED):
            raise data.refuse("median", f"{median:g} s lies outside {what}, {low:g} to {high:g} s")
    order = [
        ("q1", found.q1 <= median, f"{found.q1:g} s is above the median, {median:g} s"),
        ("q3", found.q3 >= median, f"{found.q3:g} s is below the median, {median:g} s"),
        ("minimum", found.minimum <= found.q1, f"{found.minimum:g} s is above q1, {found.q1:g} s"),
        ("mean", found.mean >= found.minimum, f"{found.mean:g} s is below the minimum, {found.minimum:g} s"),
        ("iqr", close(found.iqr, found.q3 - found.q1, 1e-15), f"{found.iqr:g} s is not q3 - q1"),
        ("samples", len(found.samples) <= found.rounds, f"{len(found.samples)} kept of {found.rounds} rounds"),
        (
            "samples",
            not found.samples or min(found.samples) >= found.minimum * (1 - ROUNDED),
            f"a kept round is below the minimum, {found.minimum:g} s",
        ),
    ]
    for key, holds, why in order:
        if not holds:
            raise data.refuse(key, why)


def counts(data: Fields, found: InstructionCount) -> None:
    """Refuse the counts *found*, read from *data*, if they contradict."""
    assert found.moves is not None and found.instructions is not None and found.allocator is not None
    for low, high in pairwise(found.moves):
        if high <= low:
            raise data.refuse("moves", f"{high} moves at a size, not more than the {low} at the size before")
    for index, (total, part) in enumerate(zip(found.instructions, found.allocator, strict=True)):
        if part > total:
            raise data.refuse(f"allocator[{index}]", f"{part} instructions, more than the {total} they are part of")
    for key in ("per_move", "total_per_move"):
        figure = getattr(found, key)
        if figure is not None and figure < 0:
            raise data.refuse(key, f"its counts give {figure:g} instructions per move, fewer than none")
    for key in ("per_move", "allocator_per_move", "total_per_move"):
        derived(data, key, getattr(found, key), "its counts")


def derived(data: Fields, key: str, computed: float | None, source: str) -> None:
    """Refuse the figure at *key* of *data* if it is not *computed*.

    *computed* is what *source* give; a figure not written is fine.
    """
    if not data.has(key):
        return
    written = data.number(key, -math.inf, math.inf)
    if computed is None or not close(written, computed, 1e-12):
        shown = "none" if computed is None else f"{computed:g}"
        raise data.refuse(key, f"{written:g} is not what {source} give ({shown})")


def close(a: float, b: float, absolute: float) -> bool:
    """Whether *a* and *b* are equal but for rounding.

    That is a float's last bits (:data:`DERIVED`), or *absolute*.

    >>> close(1.0, 1.0 + 1e-12, 0.0), close(1.0, 1.001, 0.0)
    (True, False)
    """
    return math.isclose(a, b, rel_tol=DERIVED, abs_tol=absolute)
