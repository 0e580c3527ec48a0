"""The ``hanoi`` parser as the command-line reference page renders it.

sphinx-argparse reads every description as reST. A parser whose description is laid out
by hand (``RawDescriptionHelpFormatter``, as ``hanoi check``'s) keeps that layout: each run
of indented lines becomes a literal block. Nothing else is changed, so the page says what
``hanoi --help`` says.
"""

from __future__ import annotations

import argparse

from hanoi_harness.cli.main import build_parser


def parser() -> argparse.ArgumentParser:
    """Return the ``hanoi`` parser, its hand-laid descriptions marked up as literal blocks."""
    top = build_parser()
    for action in top._subparsers._group_actions if top._subparsers else ():
        for sub in getattr(action, "choices", {}).values():
            if issubclass(sub.formatter_class, argparse.RawDescriptionHelpFormatter) and sub.description:
                sub.description = literal_blocks(sub.description)
    return top


def literal_blocks(text: str) -> str:
    """Return *text* with each run of indented lines made a reST literal block.

    >>> print(literal_blocks("Shapes:\\n  A -> C\\n  1 0 2\\nOther lines."))
    Shapes::
    <BLANKLINE>
        A -> C
        1 0 2
    <BLANKLINE>
    Other lines.
    """
    out: list[str] = []
    indented = False
    for line in text.splitlines():
        starts = line.startswith((" ", "\t")) and bool(line.strip())
        if starts and not indented:
            if out and out[-1].rstrip().endswith(":"):
                out[-1] = out[-1].rstrip() + ":"
            else:
                out.append("::")
            out.append("")
        elif indented and not starts:
            out.append("")
        out.append(f"    {line}" if starts else line)
        indented = starts
    return "\n".join(out)
