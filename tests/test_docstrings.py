"""Docstrings say what a function does or returns: their first line never repeats the signature.

The source of every module of the installed package is read (the checkout's folders with the
editable install, the installed files with a wheel), so a private helper or a method counts too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import hanoi_harness
import hanoi_harness.algorithms

# harness/bench/ and harness/peers/ are being rewritten: they are added here once that lands.
NOT_YET = ("bench", "peers")

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def sources() -> list[Path]:
    """Every Python file of the package (the algorithms too, in a folder of their own or not), but :data:`NOT_YET`."""
    found: set[Path] = set()
    for package in (hanoi_harness, hanoi_harness.algorithms):
        for root in package.__path__:
            found.update(p for p in Path(root).rglob("*.py") if p.relative_to(root).parts[0] not in NOT_YET)
    return sorted(found)


def repeated_signatures(source: str) -> list[tuple[int, str]]:
    """The line and first docstring line of each definition in *source* whose docstring opens with its own call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, Definition):
            doc = ast.get_docstring(node)
            if doc and re.match(rf"(\w+\.)?{re.escape(node.name)}\(", doc.lstrip()):
                found.append((node.lineno, doc.splitlines()[0]))
    return found


def test_the_check_finds_a_signature_repeated_and_nothing_else() -> None:
    source = '''
class Run:
    """Run(size): a run of moves."""

    def digest(self, before):
        """Run.digest(before): its digest."""

def move_at(n, k):
    """move_at(n, k): move k."""

def state_at(n, k):
    """Return the pegs after *k* moves: see move_at(n, k)."""

async def fetch():
    """Fetch what ``fetch(url)`` names."""
'''
    assert [line for line, _ in repeated_signatures(source)] == [2, 8, 5]


def test_no_docstring_of_the_package_starts_by_repeating_its_signature() -> None:
    paths = sources()
    assert len(paths) > 50 and any(path.name == "checker.py" for path in paths)  # the package was found
    offenders = [
        f"{path}:{line}: {first}" for path in paths for line, first in repeated_signatures(path.read_text("utf-8"))
    ]
    assert not offenders, "first lines that repeat the signature; say what it does or returns:\n" + "\n".join(offenders)
