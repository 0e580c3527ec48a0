"""Every algorithm's figures across git commits, and a bisect on them.

Only the algorithms come from each commit, so only their code can move the figures.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from hanoi_harness.bench.gate.counts import classify
from hanoi_harness.bench.plan import DEFAULT_THRESHOLD_PCT
from hanoi_harness.errors import UsageError

SCHEMA = 1  #: The version of a commit's result file; another one is measured again.

METRICS = {"instructions": "instructions per move", "peak": "tracemalloc peak (bytes)"}  #: The figures kept.

DEFAULT_COUNT = 20  #: Commits measured when no range is given: the last ones of the branch.

TIMEOUT_S = 1800.0  #: The longest one commit's measuring may take, all its algorithms together.

ENTRY_POINTS = "hanoi.algorithms"  #: The entry point group a ``hanoi new`` project registers its algorithm in.


class Record(msgspec.Struct):
    """What one commit's algorithms measured, or why they were not."""

    commit: str
    subject: str
    key: str
    figures: dict[str, dict[str, Any]] = msgspec.field(default_factory=dict)
    error: str = ""
    asked: list[str] = msgspec.field(default_factory=list)
    schema: int = SCHEMA

    def figure(self, name: str, metric: str) -> float | None:
        """The *metric* of *name*, or None when it has none."""
        value = self.figures.get(name, {}).get(metric)
        return None if value is None else float(value)

    def why_not(self, name: str) -> str:
        """Why *name* has no sound figure here, or ``""`` when it has one.

        >>> Record("c", "s", "k", {"a": {"check": "ok"}}).why_not("b")
        'no algorithm b'
        """
        if self.error:
            return self.error
        if name not in self.figures:
            return f"no algorithm {name}"
        check = str(self.figures[name].get("check", ""))
        return "" if check == "ok" else check


def dump(record: Record) -> str:
    """The JSON text of *record*, with its schema version."""
    return json.dumps(msgspec.to_builtins(record), indent=1, sort_keys=True) + "\n"


def load(text: str) -> Record | None:
    """The record of *text*, or None when it does not read as this schema.

    >>> load(dump(Record("abc", "subject", "key"))).commit
    'abc'
    >>> load('{"schema": 0}') is None, load("{not json") is None
    (True, True)
    """
    try:
        found = msgspec.json.decode(text, type=Record)
    except msgspec.DecodeError:
        return None
    return found if found.schema == SCHEMA else None


def git(repo: Path, *args: str) -> str:
    """The output of ``git *args`` in *repo*; a failure is a UsageError."""
    try:
        done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=False)
    except OSError as exc:
        raise UsageError(f"git cannot run: {exc}") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise UsageError(f"git {' '.join(args)}: {last}")
    return done.stdout


def commits(repo: Path, span: str | None = None, count: int = DEFAULT_COUNT) -> list[tuple[str, str]]:
    """The first-parent commits of *span*, oldest first, with subjects."""
    limit = [] if span and ".." in span else [f"--max-count={count}"]
    rev = span or "HEAD"
    git(repo, "rev-parse", "--git-dir")
    for end in rev.split(".."):
        if end:
            git(repo, "rev-parse", "--verify", "--quiet", f"{end}^{{commit}}")
    out = git(repo, "log", "--first-parent", "--format=%H %s", *limit, rev, "--")
    return [(line[:40], line[41:]) for line in reversed(out.splitlines())]


@contextmanager
def tree_of(repo: Path, commit: str) -> Iterator[Path]:
    """A temporary folder holding *commit*'s files, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="hanoi-history-") as tmp:
        data = subprocess.run(
            ["git", "-C", str(repo), "archive", "--format=tar", commit], capture_output=True, check=True
        )
        with tarfile.open(fileobj=io.BytesIO(data.stdout)) as tar:
            tar.extractall(tmp, filter="data")
        yield Path(tmp)


def sources(tree: Path) -> tuple[list[str], list[str]] | str:
    """The import path and plugin specs of *tree*'s algorithms, or why none."""
    if (tree / "algorithms" / "hanoi_algorithms" / "__init__.py").is_file():
        return [str(tree / "algorithms")], []
    try:
        project = tomllib.loads((tree / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        return f"no algorithms package and no readable pyproject.toml: {exc}"
    entries = project.get("project", {}).get("entry-points", {}).get(ENTRY_POINTS, {})
    if not entries:
        return f"pyproject.toml declares no entry point in {ENTRY_POINTS}"
    root = tree / "src" if (tree / "src").is_dir() else tree
    return [str(root)], [str(spec) for spec in entries.values()]


def environment_key() -> str:
    """A short key of the harness, Python and valgrind that measure."""
    from hanoi_harness import __version__
    from hanoi_harness.bench.counts.measure import find_valgrind

    valgrind = find_valgrind()
    text = f"{__version__} {platform.python_version()} {getattr(valgrind, 'version', 'none')}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def harness_root() -> str:
    """The folder the running harness is imported from."""
    import hanoi_harness

    return str(Path(hanoi_harness.__file__).resolve().parent.parent)


def measure(
    repo: Path, commit: str, subject: str, names: Sequence[str], key: str, timeout_s: float = TIMEOUT_S
) -> Record:
    """Measure *names* (default: all) at *commit* of *repo* in a child."""
    record = Record(commit, subject, key, asked=list(names))
    with tree_of(repo, commit) as tree:
        found = sources(tree)
        if isinstance(found, str):
            record.error = found
            return record
        path, plugins = found
        spec = json.dumps({"names": list(names), "plugins": plugins, "path": [*path, harness_root()]})
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([*path, harness_root()])}
        from hanoi_harness import process

        try:
            done = process.run(
                [sys.executable, "-P", "-m", __name__, spec],
                env=env,
                cwd=tree,
                timeout=timeout_s,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        except subprocess.TimeoutExpired:
            record.error = f"not measured: no result within {timeout_s:g} s"
            return record
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        record.error = f"not measured: {last}"
        return record
    answer = json.loads(lines[-1])
    record.error = answer.get("error", "")
    record.figures = answer.get("figures", {})
    return record


def main(argv: Sequence[str]) -> int:  # pragma: no cover - in a child (tests/bench/test_history.py)
    """Measure one commit's algorithms as the JSON *argv[0]* asks."""
    from hanoi_harness.bench.check import failed_at
    from hanoi_harness.bench.counts.measure import count_all, count_sizes, find_valgrind
    from hanoi_harness.bench.memory.measure import tracemalloc_peak
    from hanoi_harness.bench.plan import QUICK, fixed_sizes
    from hanoi_harness.core.checker import check_algorithm
    from hanoi_harness.registry.sources import build_registry

    spec = json.loads(argv[0])
    try:
        registry = build_registry(spec["plugins"], entry_points=False, guard=False)
    except Exception as exc:  # an import that fails is the commit's one line
        print(json.dumps({"error": f"does not import: {type(exc).__name__}: {exc}"}))
        return 0
    names = spec["names"] or registry.names()
    figures: dict[str, dict[str, Any]] = {}
    pairs: dict[str, tuple[int, ...] | str] = {}
    for name in names:
        if name not in registry:
            continue
        algorithm = registry.get(name)
        sizes = fixed_sizes(algorithm, QUICK.sizes or ())
        check = "ok"
        for n in sizes:
            verdict = check_algorithm(algorithm, n)
            if verdict.status != "ok":
                check = failed_at(n, verdict)
                break
        figures[name] = {"check": check, "peak": None, "instructions": None}
        if check == "ok" and sizes:  # as in a bench, one that fails its check is not measured
            figures[name]["peak"] = tracemalloc_peak(algorithm, sizes[-1])
            pairs[name] = count_sizes(algorithm)
    counts = count_all(find_valgrind(), pairs, spec["plugins"], path=spec["path"])
    for name, count in counts.items():
        figures[name]["instructions"] = count.per_move
        if count.unavailable:
            figures[name]["instructions_unavailable"] = count.unavailable
    print(json.dumps({"figures": figures}))
    return 0


def history(
    repo: Path,
    span: str | None,
    out: Path,
    names: Sequence[str] = (),
    on_commit: Callable[[str], None] | None = None,
) -> list[Record]:
    """The records of *span*'s commits, measuring those not in *out*."""
    found = commits(repo, span)
    key = environment_key()
    return [record_of(repo, commit, out, names, key, on_commit) for commit in found]


def record_of(
    repo: Path,
    commit: tuple[str, str],
    out: Path,
    names: Sequence[str],
    key: str,
    on_commit: Callable[[str], None] | None = None,
) -> Record:
    """The record of *commit* (hash, subject): from *out*, or measured."""
    file = out / f"{commit[0]}.json"
    record = load(file.read_text(encoding="utf-8")) if file.is_file() else None
    same = record is not None and record.key == key
    if record is not None and same and (not record.asked or (names and set(names) <= set(record.asked))):
        if on_commit is not None:
            on_commit(f"{commit[0][:10]} kept")
        return record
    asked = sorted(set(names) | set(record.asked if record is not None and same else ())) if names else []
    record = measure(repo, commit[0], commit[1], asked, key)
    out.mkdir(parents=True, exist_ok=True)
    _write(file, dump(record))
    if on_commit is not None:
        on_commit(f"{commit[0][:10]} measured{': ' + record.error if record.error else ''}")
    return record


def _write(file: Path, text: str) -> None:
    tmp = file.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, file)


def is_step(old: float, new: float, threshold_pct: float = DEFAULT_THRESHOLD_PCT) -> bool:
    """Whether *new* differs from *old* by more than the gate's threshold.

    >>> is_step(100.0, 103.0), is_step(100.0, 100.5), is_step(100.0, 97.0)
    (True, False, True)
    """
    return "REGRESSION" in (classify(old, new, threshold_pct), classify(new, old, threshold_pct))


def names_of(records: Sequence[Record]) -> list[str]:
    """Every algorithm named in *records*, sorted."""
    return sorted({name for record in records for name in record.figures})


def write_csv(records: Sequence[Record], file: Path) -> None:
    """Write one row per commit, algorithm and metric to *file*."""
    buffer = io.StringIO()
    rows = csv.writer(buffer, lineterminator="\n")
    rows.writerow(["commit", "subject", "algorithm", "metric", "value"])
    for record in records:
        for name in sorted(record.figures):
            for metric in (*METRICS, "check"):
                rows.writerow([record.commit, record.subject, name, metric, record.figures[name].get(metric)])
    _write(file, buffer.getvalue())


def steps(records: Sequence[Record], name: str, metric: str) -> list[int]:
    """The indices of *records* where *name*'s *metric* steps."""
    found = []
    previous = None
    for i, record in enumerate(records):
        value = record.figure(name, metric)
        if value is not None and previous is not None and is_step(previous, value):
            found.append(i)
        previous = value if value is not None else previous
    return found


def write_html(records: Sequence[Record], file: Path, commit_url: str = "") -> None:
    """Write a self-contained page: a plot per metric and each commit."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def link(commit: str) -> str:
        return commit_url.format(commit=commit) if commit_url else f"#c-{commit}"

    names = names_of(records)
    labels = [record.commit[:8] for record in records]
    svgs = []
    for metric, title in METRICS.items():
        fig, ax = plt.subplots(figsize=(10, 5))
        for name in names:
            values = {i: v for i, r in enumerate(records) if (v := r.figure(name, metric)) is not None}
            if not values:
                continue
            (line,) = ax.plot(list(values), list(values.values()), marker=".", label=name)
            for i in steps(records, name, metric):
                dot = ax.scatter([i], [values[i]], s=80, color=line.get_color(), zorder=3)
                dot.set_urls([link(records[i].commit)])
        ax.set_title(title)
        ax.set_xticks(range(len(labels)), labels, rotation=45, fontsize=7)
        ax.set_yscale("log")
        if ax.lines:
            ax.legend(fontsize=7, ncol=2)
        fig.tight_layout()
        svg = io.StringIO()
        fig.savefig(svg, format="svg")
        plt.close(fig)
        svgs.append(svg.getvalue()[svg.getvalue().index("<svg") :])
    rows = "".join(
        f'<tr id="c-{r.commit}"><td><a href="{html.escape(link(r.commit))}">{r.commit[:10]}</a></td>'
        f"<td>{html.escape(r.subject)}</td><td>{html.escape(_said(r))}</td></tr>\n"
        for r in records
    )
    page = (
        '<!doctype html><html><head><meta charset="utf-8"><title>hanoi history</title></head><body>'
        "<h1>Figures across commits</h1><p>A large dot is a step beyond the gate's "
        f"{DEFAULT_THRESHOLD_PCT:g}% threshold; it links to its commit.</p>{''.join(svgs)}"
        f"<table><tr><th>commit</th><th>subject</th><th>notes</th></tr>\n{rows}</table></body></html>\n"
    )
    _write(file, page)


def _said(record: Record) -> str:
    """The notes on *record*: its error, or each check that failed."""
    if record.error:
        return record.error
    return "; ".join(f"{n}: {f['check']}" for n, f in sorted(record.figures.items()) if f.get("check") != "ok")


@dataclass(frozen=True)
class Found:
    """A bisect's answer: the first bad commit and the figures around it."""

    good: Record
    bad: Record
    commit: Record | None
    before: Record | None


def bisect(
    repo: Path,
    good: str,
    bad: str,
    name: str,
    metric: str,
    out: Path,
    on_commit: Callable[[str], None] | None = None,
) -> Found:
    """Find the first commit after *good* whose *name* regressed."""
    line = commits(repo, f"{good}..{bad}")
    if metric == "instructions":
        from hanoi_harness.bench.counts.measure import find_valgrind

        if isinstance(missing := find_valgrind(), str):
            raise UsageError(f"cannot count instructions: {missing}")
    key = environment_key()
    cache: dict[int, Record] = {}

    def at(i: int) -> Record:
        if i not in cache:
            cache[i] = record_of(repo, line[i] if i >= 0 else commits(repo, good, 1)[0], out, [name], key, on_commit)
        return cache[i]

    base = at(-1)
    value = base.figure(name, metric)
    if base.why_not(name) or value is None:
        reason = base.why_not(name) or base.figures[name].get(f"{metric}_unavailable", f"no {METRICS[metric]}")
        raise UsageError(f"{name} at {good}: {reason}")

    def regressed(record: Record) -> bool:
        new = record.figure(name, metric)
        return bool(record.why_not(name)) or new is None or classify(value, new, DEFAULT_THRESHOLD_PCT) == "REGRESSION"

    if not line or not regressed(at(len(line) - 1)):
        return Found(base, at(len(line) - 1), None, None)
    low, high = -1, len(line) - 1
    while high - low > 1:
        mid = (low + high) // 2
        if regressed(at(mid)):
            high = mid
        else:
            low = mid
    return Found(base, at(len(line) - 1), at(high), at(high - 1))


if __name__ == "__main__":  # pragma: no cover - the child of measure()
    sys.exit(main(sys.argv[1:]))
