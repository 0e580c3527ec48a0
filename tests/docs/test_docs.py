"""Test the documentation against the code.

What the pages and the README name must exist and do what they say.

Every ``hanoi`` command line and option they mention must parse with the real parser, every
``make`` target must be in the Makefile, every module, object and path must exist, and every
``console`` example must print what the page shows. The ``>>>`` examples run as doctests.
"""

from __future__ import annotations

import argparse
import doctest
import importlib
import io
import re
import shlex
from contextlib import redirect_stdout
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from hanoi_harness.cli.main import build_parser
from hanoi_harness.errors import UsageError
from tests.helpers import ROOT, run_cli

DOCS = ROOT / "docs"
README = ROOT / "README.md"
PAGES = sorted(
    [README, ROOT / "CHANGELOG.md", *(p for p in DOCS.rglob("*.md") if "generated" not in p.parts)],
    key=str,
)
# Pages whose purpose is to name the old modules: their names are checked in pairs, old -> new.
RENAMES = {ROOT / "CHANGELOG.md"}
# Options that are gone, which the pages of RENAMES may name.
RETIRED_OPTIONS = {"--chunk-size", "--peers"}
# Options of other programs that the pages quote (valgrind, Dask, pytest, python -m modules, Sphinx).
FOREIGN_OPTIONS = {"--cache-sim", "--nthreads", "--nworkers", "--benchmark-only", "--repeat", "--load", "--name"}
# Placeholders the pages write in place of a real module or object name.
PLACEHOLDERS = {"MODULE", "NAME", "X", "FUNC"}


@dataclass(frozen=True)
class Block:
    """A fenced code block of a page: its language, first line number, lines."""

    page: Path
    line: int
    language: str
    lines: tuple[str, ...]


def where(page: Path, line: int) -> str:
    return f"{page.relative_to(ROOT)}:{line}"


@cache
def blocks(page: Path) -> tuple[Block, ...]:
    """Every fenced code block of *page*."""
    found: list[Block] = []
    fence: str | None = None
    language, start, body = "", 0, list[str]()
    for number, line in enumerate(page.read_text("utf-8").splitlines(), 1):
        opening = re.match(r"^(`{3,})(.*)$", line)
        if fence is None and opening:
            fence, language, start, body = opening.group(1), opening.group(2).strip(), number + 1, []
        elif fence is not None and line.strip() == fence:
            found.append(Block(page, start, language, tuple(body)))
            fence = None
        elif fence is not None:
            body.append(line)
    return tuple(found)


@cache
def spans(page: Path) -> tuple[tuple[int, str], ...]:
    """Return every inline code span of *page* outside its code blocks.

    Each comes with its line number; a span may wrap.
    """
    inside: set[int] = set()
    for block in blocks(page):
        inside.update(range(block.line - 1, block.line + len(block.lines) + 1))
    lines = page.read_text("utf-8").splitlines()
    prose = "\n".join("" if number in inside else line for number, line in enumerate(lines, 1))
    return tuple(
        (prose.count("\n", 0, match.start()) + 1, " ".join(match.group(1).split()))
        for match in re.finditer(r"`([^`]+)`", prose)
    )


def words(text: str, comments: bool = False) -> list[str]:
    """Split *text* as a shell splits it, or at spaces if quotes do not pair.

    Quotes do not pair when one is an apostrophe.
    """
    try:
        return shlex.split(text, comments=comments)
    except ValueError:
        return text.split("#")[0].split() if comments else text.split()


def shell_lines(block: Block) -> list[tuple[int, str]]:
    """Return the command lines of a shell block.

    That is every line of ``sh``, and the ``$`` lines of ``console``.

    A ``text`` block that shows a prompt is a transcript: its ``$`` lines are the commands.
    """
    prompted = any(line.startswith("$ ") for line in block.lines)
    if block.language == "console" or (block.language == "text" and prompted):
        return [(block.line + i, line[2:]) for i, line in enumerate(block.lines) if line.startswith("$ ")]
    if block.language in ("sh", "text"):
        return [(block.line + i, line) for i, line in enumerate(block.lines) if line.strip()]
    return []


def commands(page: Path) -> list[tuple[int, list[str]]]:
    """Return every command line a page shows or quotes, split into words.

    Its pipes and ``&&`` are split apart.
    """
    found: list[tuple[int, list[str]]] = []
    for block in blocks(page):
        for number, line in shell_lines(block):
            for part in re.split(r"\s+(?:\||&&|;)\s+", line):
                found.append((number, words(part, comments=True)))
    for number, span in spans(page):
        if re.match(r"(hanoi|make) [a-z-]", span):
            found.append((number, words(span)))
    return [(number, split) for number, split in found if split]


@cache
def subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    assert parser._subparsers is not None
    (action,) = parser._subparsers._group_actions
    assert isinstance(action.choices, dict)
    return dict(action.choices)


def options_of(parser: argparse.ArgumentParser) -> set[str]:
    return set(parser._option_string_actions)


@cache
def make_targets() -> frozenset[str]:
    text = (ROOT / "Makefile").read_text("utf-8")
    return frozenset(re.findall(r"^([A-Za-z][\w-]*):(?!=)", text, re.MULTILINE))


def resolves(name: str) -> bool:
    """Return whether *name* can be imported and reached.

    *name* is ``package.module.object`` or ``package.module:object``.
    """
    parts = name.replace(":", ".").split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for part in parts[cut:]:
                obj = getattr(obj, part)
        except AttributeError:
            return False
        except UsageError:  # a peer's record, whose package (benchmarks/requirements.txt) is not installed here
            return True
        return True
    return False


NAME = re.compile(r"\b(?:hanoi_harness|hanoi_algorithms)(?:\.[A-Za-z_]\w*)*(?::[A-Za-z_]\w*)?")
PATH = re.compile(r"^(?:harness|algorithms|tests|docs|results|\.ci)/[\w./-]*$")


def test_the_pages_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in PAGES}
    assert {"README.md", "CHANGELOG.md", "docs/index.md", "docs/guide/commands.md"} <= names
    assert all(blocks(p) or spans(p) for p in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_hanoi_command_and_option_exists(page: Path) -> None:
    commands_of = subparsers()
    wrong = []
    for number, words in commands(page):
        if Path(words[0]).name != "hanoi":
            continue
        if len(words) == 1 or words[1] in ("--help", "--version", "-h"):
            continue
        sub = commands_of.get(words[1])
        if sub is None:
            wrong.append(f"{where(page, number)}: no command 'hanoi {words[1]}'")
            continue
        for word in words[2:]:
            option = re.sub(r"[\[\]()|,]", " ", word).split()
            for token in option:
                token = token.split("=")[0]
                retired = RETIRED_OPTIONS if page in RENAMES else set()
                if token.startswith("-") and len(token) > 1 and token not in options_of(sub) | retired:
                    wrong.append(f"{where(page, number)}: 'hanoi {words[1]}' has no option {token}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_option_named_alone_exists(page: Path) -> None:
    known = set().union(*(options_of(sub) for sub in subparsers().values()))
    wrong = []
    for number, span in spans(page):
        match = re.match(r"(--[a-z][a-z-]*)(?:[ =]|$)", span)
        retired = RETIRED_OPTIONS if page in RENAMES else set()
        if match and match.group(1) not in known | FOREIGN_OPTIONS | retired:
            wrong.append(f"{where(page, number)}: no command has the option {match.group(1)}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_make_target_exists(page: Path) -> None:
    wrong = [
        f"{where(page, number)}: no make target {target!r}"
        for number, words in commands(page)
        if words[0] == "make"
        for target in words[1:]
        if "=" not in target and not target.startswith("-") and target not in make_targets()
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("page", sorted(set(PAGES) - RENAMES, key=str), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_module_object_and_path_named_exists(page: Path) -> None:
    texts = [(n, s) for n, s in spans(page)]
    texts += [(b.line + i, line) for b in blocks(page) for i, line in enumerate(b.lines)]
    wrong = []
    for number, text in texts:
        for name in NAME.findall(text):
            if not PLACEHOLDERS & set(re.split(r"[.:]", name)) and not resolves(name):
                wrong.append(f"{where(page, number)}: {name} does not exist")
    for number, span in spans(page):
        if PATH.match(span) and not (ROOT / span).exists():
            wrong.append(f"{where(page, number)}: no file or folder {span}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("page", sorted(RENAMES, key=str), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_old_name_is_gone_and_its_new_name_exists(page: Path) -> None:
    text = page.read_text("utf-8")
    pairs = re.findall(r"^\| `([\w.:]+)` \| `([\w.:]+)` \|$", text, re.MULTILINE)
    pairs += re.findall(r"^\s*- `([\w.:]+)` → `([\w.:]+)`", text, re.MULTILINE)
    assert len(pairs) >= 5
    wrong = [f"{old} still exists" for old, _ in pairs if resolves(old)]
    wrong += [f"{new} does not exist" for _, new in pairs if not resolves(new)]
    assert not wrong, "\n".join(wrong)


def console_examples() -> list[tuple[str, list[str], str]]:
    """Return every ``$ hanoi ...`` line of a ``console`` block, with output.

    The output is what the page shows after it.
    """
    found = []
    for page in PAGES:
        for block in blocks(page):
            if block.language != "console":
                continue
            for i, line in enumerate(block.lines):
                if line.startswith("$ hanoi "):
                    output = []
                    for later in block.lines[i + 1 :]:
                        if later.startswith("$ "):
                            break
                        output.append(later + "\n")
                    found.append((where(page, block.line + i), shlex.split(line[2:])[1:], "".join(output)))
    return found


EXAMPLES = console_examples()


def test_there_are_console_examples() -> None:
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize(("place", "argv", "shown"), EXAMPLES, ids=[place for place, _, _ in EXAMPLES])
def test_each_console_example_prints_what_the_page_shows(
    capsys: pytest.CaptureFixture[str], place: str, argv: list[str], shown: str
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert (code, out) == (0, shown), f"{place}: {err}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_examples_of_each_page_run_as_doctests(page: Path) -> None:
    text = page.read_text("utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report = io.StringIO()
    with redirect_stdout(report):
        runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()


def plugin_files() -> list[tuple[Path, str]]:
    """Return the plugin example of each page that shows one.

    It is the block that opens with ``# my_variant.py``.
    """
    return [
        (page, "\n".join(block.lines[1:]) + "\n")
        for page in PAGES
        for block in blocks(page)
        if block.language == "python" and block.lines and block.lines[0] == "# my_variant.py"
    ]


PLUGINS = plugin_files()


@pytest.mark.parametrize(("page", "source"), PLUGINS, ids=[page.relative_to(ROOT).as_posix() for page, _ in PLUGINS])
def test_the_plugin_example_verifies_ok(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, page: Path, source: str
) -> None:
    plugin = tmp_path / "my_variant.py"
    plugin.write_text(source, "utf-8")
    code, out, err = run_cli(capsys, "verify", "my_variant", "--plugin", f"{plugin}:my_variant", "--n-max", "8")
    assert code == 0, out + err
    assert re.search(r"^my_variant +0\.\.8 +ok ", out, re.MULTILINE), out


def test_the_readme_shows_a_plugin_example() -> None:
    assert README in [page for page, _ in PLUGINS]


def test_the_readme_is_the_door() -> None:
    lines = README.read_text("utf-8").splitlines()
    assert len(lines) <= 250
    first = "\n".join(lines[:80])
    for use in ("make bench", "make check-regression", "hanoi compare", "pytest -k"):
        assert use in first, use
    assert "make test" in first


def test_the_readme_links_exist() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text("utf-8"))
    local = [link for link in links if "://" not in link]
    assert len(local) >= 10
    assert [link for link in local if not (ROOT / link).exists()] == []


def test_every_page_is_in_a_toctree() -> None:
    listed = set()
    for page in DOCS.rglob("*.md"):
        for block in blocks(page):
            if block.language == "{toctree}":
                base = page.parent
                listed |= {(base / f"{line.strip()}.md").resolve() for line in block.lines if re.match(r"^\w", line)}
    pages = {p.resolve() for p in DOCS.rglob("*.md") if "generated" not in p.parts} - {(DOCS / "index.md").resolve()}
    assert pages - listed == set()
