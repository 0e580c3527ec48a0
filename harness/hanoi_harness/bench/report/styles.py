"""Which lines share a panel, and how each line is told apart."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MAX_LINES = 8  #: The most lines a panel holds, the reference included.

SMALLEST_PANEL = 3  #: A kind with fewer lines than this shares its panel with the next kind, where both fit.

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
"""The kind of each family of the project's records; any other family is "other"."""

GROUP_ORDER = ("recursions and stacks", "rules and iterations", "formulas and blocks", "other")


@dataclass(frozen=True)
class Style:
    """How one line is drawn: its *colour*, *marker* and *linestyle*."""

    colour: str
    marker: str
    linestyle: str


@dataclass(frozen=True)
class Panel:
    """One panel of a figure: its *title* and its lines."""

    title: str
    names: tuple[str, ...]


def group_of(family: str) -> str:
    """Return the kind of algorithm of a record of *family*.

    >>> group_of("stack"), group_of("ad hoc")
    ('recursions and stacks', 'other')
    """
    return GROUPS.get(family, "other")


def panels(ranked: Sequence[str], families: Mapping[str, str], reference: str | None) -> list[Panel]:
    """Return the panels of a figure of the *ranked* algorithms.

    >>> fam = {"r": "recursive", "s": "stack", "b": "blocks"}
    >>> panels(["b", "r", "s"], fam, "r")
    [Panel(title='', names=('b', 'r', 's'))]
    >>> many = {f"x{i}": "stack" for i in range(9)} | {"r": "recursive", "f": "formula"}
    >>> [(p.title, len(p.names)) for p in panels(sorted(many), many, "r")]
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
            grouped.setdefault(group_of(families.get(name, "")), []).append(name)
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


def digest(name: str) -> int:
    """Return a stable number for *name*: the first 8 bytes of its SHA-256.

    >>> digest("recursive") == digest("recursive"), digest("recursive") != digest("bitwise")
    (True, True)
    """
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big")


def style_of(name: str) -> Style:
    """Return the style *name*'s line gets unless another takes it first.

    >>> style_of("bitwise") == style_of("bitwise")
    True
    """
    number = digest(name)
    pairs = len(COLOURS) * len(MARKERS)
    return Style(
        COLOURS[number % len(COLOURS)],
        MARKERS[number // len(COLOURS) % len(MARKERS)],
        LINESTYLES[number // pairs % len(LINESTYLES)],
    )


def styles(figure: Sequence[Panel], reference: str | None) -> dict[str, Style]:
    """Return the style of every line of the panels of *figure*.

    >>> found = styles([Panel("", ("a", "r", "b"))], "r")
    >>> found["r"], found["b"] == style_of("b"), found == styles([Panel("", ("b", "r")), Panel("", ("r", "a"))], "r")
    (Style(colour='#000000', marker='o', linestyle='-'), True, True)
    """
    chosen: dict[str, Style] = {}
    if reference is not None:
        chosen[reference] = Style(REFERENCE_COLOUR, REFERENCE_MARKER, "-")
    names = sorted({name for panel in figure for name in panel.names} - set(chosen), key=lambda n: (digest(n), n))
    share = -(-len(names) // len(COLOURS))  # the most lines one colour is drawn for
    drawn: dict[str, int] = {}
    used: set[tuple[str, str]] = set()
    for name in names:
        own = style_of(name)
        colour, marker = own.colour, own.marker
        for step in range(len(COLOURS) * len(MARKERS)):
            colour = COLOURS[(COLOURS.index(own.colour) + step) % len(COLOURS)]
            marker = MARKERS[(MARKERS.index(own.marker) + step // len(COLOURS)) % len(MARKERS)]
            if (colour, marker) not in used and drawn.get(colour, 0) < share:
                break
        else:
            colour, marker = own.colour, own.marker
        chosen[name] = Style(colour, marker, own.linestyle)
        used.add((colour, marker))
        drawn[colour] = drawn.get(colour, 0) + 1
    return chosen
