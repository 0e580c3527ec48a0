"""The corpus of other programs' outputs: its manifest, and building and running its programs.

``python -m tests.corpus.corpus`` runs every program at its sizes and writes
the captured outputs into ``outputs/`` (it needs every compiler and
interpreter the programs use); :mod:`tests.transcript.test_corpus` checks them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
OUTPUTS = HERE / "outputs"

TOOLS = {
    ".py": ("python",),
    ".c": ("cc",),
    ".sh": ("bash",),
    ".awk": ("awk",),
    ".js": ("node",),
    ".java": ("javac", "java"),
    ".pl": ("perl",),
}
"""What each kind of program needs on the machine."""


@dataclass(frozen=True)
class Entry:
    """One program run with some arguments; the keys are described at the top of corpus.toml."""

    name: str
    sizes: list[int]
    program: str | None = None
    args: list[str] = field(default_factory=list)
    stdin: bool = False
    options: list[str] = field(default_factory=list)
    refused: str | None = None
    encoding: str = "utf-8"
    move: str | None = None
    pegs: list[str] | str = field(default_factory=list)
    disks: int = 1
    unreadable: str | None = None
    states: bool = False
    contents: bool = False
    checked: bool = False
    wrong: bool = False
    origin: dict[str, str] = field(default_factory=dict)

    def output(self, n: int) -> Path:
        """The captured output for n disks."""
        return OUTPUTS / f"{self.name}.n{n}.txt"

    @property
    def source(self) -> Path:
        assert self.program is not None, f"{self.name} was found elsewhere: only its outputs are here"
        return PROGRAMS / self.program


def entries() -> list[Entry]:
    """The manifest's entries (those of programs found elsewhere have an ``origin`` and no ``program``)."""
    with (HERE / "corpus.toml").open("rb") as f:
        return [Entry(**entry) for entry in tomllib.load(f)["entry"]]


def which(tool: str) -> str | None:
    """The path of ``tool`` on this machine (``python`` is this interpreter, ``cc`` may be gcc or clang)."""
    if tool == "python":
        return sys.executable
    if tool == "cc":
        return shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    return shutil.which(tool)


def missing(entry: Entry) -> str | None:
    """Why ``entry``'s program cannot run here (the compiler or interpreter it needs), or None."""
    absent = [tool for tool in TOOLS[entry.source.suffix] if which(tool) is None]
    return f"{entry.program} needs {' and '.join(absent)}, not found on this machine" if absent else None


def command(entry: Entry, build: Path) -> list[str]:
    """The command that runs ``entry``'s program, compiling it into ``build`` first if it needs it."""
    source, kind = entry.source, entry.source.suffix
    if kind == ".c":
        exe = build / source.stem
        if not exe.exists():
            subprocess.run([str(which("cc")), "-O1", "-o", str(exe), str(source)], check=True)
        return [str(exe)]
    if kind == ".java":
        if not (build / f"{source.stem}.class").exists():  # all at once: javac takes a second or two to start
            sources = [str(path) for path in sorted(PROGRAMS.glob("*.java"))]
            subprocess.run([str(which("javac")), "-d", str(build), *sources], check=True)
        return [str(which("java")), "-cp", str(build), source.stem]
    runner = {".py": "python", ".sh": "bash", ".awk": "awk", ".js": "node", ".pl": "perl"}[kind]
    return [str(which(runner)), *(["-f"] if kind == ".awk" else []), str(source)]


def run(entry: Entry, n: int, build: Path) -> bytes:
    """What ``entry``'s program prints for n disks."""
    stdin = f"{n}\n".encode() if entry.stdin else None
    argv = command(entry, build) + ([] if entry.stdin else [str(n)]) + entry.args
    return subprocess.run(argv, input=stdin, capture_output=True, check=True, timeout=120).stdout


def main() -> None:
    """Capture every entry's output at its sizes into outputs/."""
    OUTPUTS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as build:
        for entry in entries():
            if entry.program is None:
                continue  # found elsewhere (its origin): its outputs were captured where it ran
            reason = missing(entry)
            if reason:
                sys.exit(f"cannot capture {entry.name}: {reason}")
            for n in entry.sizes:
                entry.output(n).write_bytes(run(entry, n, Path(build)))
                print(f"{entry.output(n).relative_to(HERE)}")


if __name__ == "__main__":
    main()
