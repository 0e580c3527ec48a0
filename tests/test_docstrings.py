"""Docstrings say what a function does or returns, in a short first line.

Their first line never repeats the signature, and is at most :data:`FIRST_LINE` characters long.

The source of every module of the installed package is read (the checkout's folders with the
editable install, the installed files with a wheel), so a private helper or a method counts too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import hanoi_algorithms
import hanoi_harness

Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


# A first line that opens with a call and a colon is a signature, whoever's: ``final_peg(odd, even): ...``.
CALL_THEN_COLON = re.compile(r"[\w.]+\([^()]*\)\s*(->[^:]*)?:")

# The house's limit on a docstring's first line; the details follow after a blank line.
FIRST_LINE = 72


def sources() -> list[Path]:
    """Return every Python file of the package, its subpackages included.

    The algorithms are included too, wherever their folder is.
    """
    found: set[Path] = set()
    for package in (hanoi_harness, hanoi_algorithms):
        for root in package.__path__:
            found.update(Path(root).rglob("*.py"))
    return sorted(found)


def repeated_signatures(source: str) -> list[tuple[int, str]]:
    """Return the docstrings in *source* that open with a signature.

    Each is given by its definition's line and its first line.

    A signature is the definition's own call (``Run.digest(before)``) or any call followed by a colon.
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, Definition):
            doc = (ast.get_docstring(node) or "").lstrip()
            if re.match(rf"(\w+\.)?{re.escape(node.name)}\(", doc) or CALL_THEN_COLON.match(doc):
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

class FinalPeg:
    """final_peg(odd, even) -> int: the peg the tower ends on."""

def cyclic_counts(n):
    """Return Q(n) and R(n): two counts."""

def state_at(n, k):
    """Return the pegs after *k* moves: see move_at(n, k)."""

async def fetch():
    """Fetch what ``fetch(url)`` names."""
'''
    assert sorted(line for line, _ in repeated_signatures(source)) == [2, 5, 8, 11]


def test_no_docstring_of_the_package_starts_by_repeating_its_signature() -> None:
    paths = sources()
    folders = {path.parent.name for path in paths}
    assert len(paths) > 90 and {"bench", "scale", "hanoi_algorithms"} <= folders  # the package and its subpackages
    offenders = [
        f"{path}:{line}: {first}" for path in paths for line, first in repeated_signatures(path.read_text("utf-8"))
    ]
    assert not offenders, "first lines that repeat the signature; say what it does or returns:\n" + "\n".join(offenders)


def long_first_lines(source: str) -> list[tuple[int, str]]:
    """Return the docstrings in *source* whose first line is over the limit.

    Each is given by its definition's line (1 for the module's) and its first line.  The limit is
    :data:`FIRST_LINE` characters, the first line taken after any leading blank lines.
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | Definition):
            doc = (ast.get_docstring(node) or "").strip()
            first = doc.splitlines()[0] if doc else ""
            if len(first) > FIRST_LINE:
                found.append((1 if isinstance(node, ast.Module) else node.lineno, first))
    return found


def test_the_check_finds_a_long_first_line_and_nothing_else() -> None:
    over, limit = "x" * (FIRST_LINE + 1), "y" * FIRST_LINE
    source = f'''"""{over}"""

class Run:
    """{limit}"""

    def digest(self):
        """{over}"""

def move_at(n, k):
    """Short.

    {over} {over}
    """

async def fetch():
    """
    {over}
    """

def state_at(n, k):
    text = "{over}"
    # {over}
    return text

class Tops:
    """{limit}
    {over}"""
'''
    assert sorted(line for line, _ in long_first_lines(source)) == [1, 6, 15]
    assert {first for _, first in long_first_lines(source)} == {over}


def test_every_docstring_of_the_package_has_a_short_first_line() -> None:
    offenders = [
        f"{path}:{line}: {len(first)} characters: {first}"
        for path in sources()
        for line, first in long_first_lines(path.read_text("utf-8"))
    ]
    assert not offenders, (
        f"first lines over {FIRST_LINE} characters; say what it does in one short sentence, details after a "
        "blank line:\n" + "\n".join(offenders)
    )
