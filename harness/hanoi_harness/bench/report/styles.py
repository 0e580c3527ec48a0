"""Which lines share a panel, and how each line is told apart.

A reader separates about eight lines in one panel, so a figure whose puzzle
has more algorithms splits them (:func:`panels`) by kind of algorithm
(:data:`GROUPS`: the recursions and their stacks, the rule-based and iterative
ports, the formulas and blocks, other packages' peers), each kind whole where
it fits, small kinds together.  The puzzle's reference is drawn in every panel,
in black, as the yardstick to compare across them.

Every line of a figure gets a style of its own (:func:`styles`): within a
panel no two lines share a colour, and in the whole figure no two share
both colour and marker, so a line can be followed in print, in grey, or by
a reader who does not tell colours apart.  The colours are Okabe and Ito's
colour-blind-safe set (less its black, kept for the reference, and its yellow,
too pale on white) and two more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MAX_LINES = 8
"""The most lines a panel holds, the reference included."""

SMALLEST_PANEL = 3
"""A kind with fewer lines than this shares its panel with the next kind, where both fit."""

REFERENCE_COLOUR = "#000000"
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#8C564B", "#882255")
"""Blue, vermilion, bluish green, reddish purple, orange, sky blue (Okabe-Ito), brown, wine."""
MARKERS = ("s", "D", "^", "v", "P", "X", "*", "h", "p", "<", ">", "d", "H", "8", "o")
LINESTYLES = ("-", "--", "-.", ":")
REFERENCE_MARKER = "o"

GROUPS = {
    "recursive": "recursions and stacks",
    "stack": "recursions and stacks",
    "tree": "recursions and stacks",
    "rule-based": "rules and iterations",
    "iterative": "rules and iterations",
    "shortest path": "rules and iterations",
    "formula": "formulas and blocks",
    "blocks": "formulas and blocks",
}
"""The kind of each family of the project's records; a peer is of the kind "other packages", any other "other"."""

GROUP_ORDER = ("recursions and stacks", "rules and iterations", "formulas and blocks", "other packages", "other")


@dataclass(frozen=True)
class Style:
    """How one line is drawn: its *colour*, *marker* and *linestyle*.

    Each in matplotlib's names.
    """

    colour: str
    marker: str
    linestyle: str


@dataclass(frozen=True)
class Panel:
    """One panel of a figure: its *title* and its lines.

    The title names a kind of algorithm, "" for a figure of one panel.
    """

    title: str
    names: tuple[str, ...]


def group_of(family: str, peer: bool) -> str:
    """Return the kind of algorithm of a record of *family*.

    *peer*: the record is another package's.

    >>> group_of("stack", False), group_of("peer: recursive", True), group_of("ad hoc", False)
    ('recursions and stacks', 'other packages', 'other')
    """
    if peer:
        return "other packages"
    return GROUPS.get(family, "other")


def panels(ranked: Sequence[str], families: Mapping[str, str], peers: set[str], reference: str | None) -> list[Panel]:
    """Return the panels of a figure of the *ranked* algorithms.

    *ranked* is in rank order, and so is each panel.

    *families* gives each algorithm's family, *peers* the other packages'
    records; *reference*, when one of *ranked*, is drawn in every panel.

    >>> fam = {"r": "recursive", "s": "stack", "b": "blocks"}
    >>> panels(["b", "r", "s"], fam, set(), "r")
    [Panel(title='', names=('b', 'r', 's'))]
    >>> many = {f"x{i}": "stack" for i in range(9)} | {"r": "recursive", "f": "formula"}
    >>> [(p.title, len(p.names)) for p in panels(sorted(many), many, set(), "r")]
    [('recursions and stacks (1 of 2)', 6), ('recursions and stacks (2 of 2) + formulas and blocks', 6)]
    """
    if len(ranked) <= MAX_LINES:
        return [Panel("", tuple(ranked))]
    has_reference = reference is not None and reference in ranked
    shared = [reference] if reference is not None and has_reference else []
    room = MAX_LINES - 1 if has_reference else MAX_LINES
    grouped: dict[str, list[str]] = {}
    for name in ranked:
        if name != reference:
            grouped.setdefault(group_of(families.get(name, ""), name in peers), []).append(name)
    chunks: list[tuple[str, list[str]]] = []
    for group in sorted(grouped, key=GROUP_ORDER.index):
        members = grouped[group]
        count = -(-len(members) // room)  # as even as they come: 9 in 2 panels are 5 and 4, not 7 and 2
        size = -(-len(members) // count)
        for index in range(count):
            title = group if count == 1 else f"{group} ({index + 1} of {count})"
            chunks.append((title, members[index * size : (index + 1) * size]))
    merged: list[tuple[str, list[str]]] = []
    for title, members in chunks:
        if merged and (len(merged[-1][1]) < SMALLEST_PANEL or len(members) < SMALLEST_PANEL):
            last_title, last = merged[-1]
            if len(last) + len(members) <= room:
                merged[-1] = (f"{last_title} + {title}", last + members)
                continue
        merged.append((title, members))
    order = {name: place for place, name in enumerate(ranked)}
    return [Panel(title, tuple(sorted([*members, *shared], key=order.__getitem__))) for title, members in merged]


def styles(figure: Sequence[Panel], reference: str | None) -> dict[str, Style]:
    """Return the style of every line of the panels of *figure*.

    The reference is black, solid, with circles.

    Within a panel the colours differ, and the markers too (up to
    ``len(MARKERS)`` lines); across the figure no two lines share colour and
    marker while pairs remain (``len(COLOURS) * len(MARKERS)``).

    >>> found = styles([Panel("", ("a", "r", "b"))], "r")
    >>> found["r"], found["a"].colour != found["b"].colour, found["a"].marker != found["b"].marker
    (Style(colour='#000000', marker='o', linestyle='-'), True, True)
    """
    chosen: dict[str, Style] = {}
    if reference is not None:
        chosen[reference] = Style(REFERENCE_COLOUR, REFERENCE_MARKER, "-")
    used = {(REFERENCE_COLOUR, REFERENCE_MARKER)}
    count = 0
    for panel in figure:
        taken = {chosen[name].colour for name in panel.names if name in chosen}
        for place, name in enumerate(panel.names):
            if name in chosen:
                continue
            free = [colour for colour in COLOURS if colour not in taken]
            colour = free[0] if free else COLOURS[place % len(COLOURS)]
            marker = _marker(colour, count, used)
            chosen[name] = Style(colour, marker, LINESTYLES[place % len(LINESTYLES)])
            used.add((colour, marker))
            taken.add(colour)
            count += 1
    return chosen


def _marker(colour: str, count: int, used: set[tuple[str, str]]) -> str:
    """Return the first marker from the *count*-th on free with *colour*.

    Free: not *used* with it; the *count*-th when none is.
    """
    cycle = [MARKERS[(count + step) % len(MARKERS)] for step in range(len(MARKERS))]
    return next((marker for marker in cycle if (colour, marker) not in used), cycle[0])
