"""hanoi history and hanoi bisect on small git repositories of their own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from hanoi_harness.bench import history
from hanoi_harness.cli.main import main

TOY = """
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register


@register(name="toy", summary="the recursion", final_peg=FinalPeg.fixed(2), max_n=20)
def solve(n):
    pad = [0] * {pad}
    {extra}

    def move(k, a, b, c):
        if k:
            yield from move(k - 1, a, c, b)
            yield (k, a, c)
            yield from move(k - 1, b, a, c)

    yield from move(n, 0, 1, 2)
"""


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def _commit(repo: Path, files: dict[str, str], subject: str) -> str:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", subject)
    return _git(repo, "rev-parse", "HEAD")


def _toy(pad: int = 10, extra: str = "") -> dict[str, str]:
    return {
        "algorithms/hanoi_algorithms/__init__.py": "from hanoi_algorithms import toy  # noqa: F401\n",
        "algorithms/hanoi_algorithms/toy.py": textwrap.dedent(TOY).format(pad=pad, extra=extra or "pass"),
    }


@pytest.fixture
def no_valgrind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only git on PATH: counts are unavailable, so nothing runs under valgrind."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(shutil.which("git") or "git", bin_dir / "git")
    monkeypatch.setenv("PATH", str(bin_dir))


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, list[str]]:
    """A repository of the toy: its peak grows at the third commit of four."""
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    hashes = [
        _commit(root, _toy(), "toy: first"),
        _commit(root, {"NOTES": "a note"}, "notes"),
        _commit(root, _toy(pad=2000), "toy: a bigger pad"),
        _commit(root, {"NOTES": "more"}, "notes again"),
    ]
    return root, hashes


@pytest.mark.usefixtures("no_valgrind")
def test_bisect_finds_the_commit_of_a_peak(
    repo: tuple[Path, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, hashes = repo
    argv = ["bisect", hashes[0], hashes[3], "--algorithm", "toy", "--metric", "peak", "--repo", str(root)]
    assert main([*argv, "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert f"first bad commit: {hashes[2]} toy: a bigger pad" in out
    assert main([*argv[:2], hashes[1], *argv[3:], "--out", str(tmp_path / "out")]) == 1


@pytest.mark.usefixtures("no_valgrind")
def test_history_writes_and_reuses(
    repo: tuple[Path, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, hashes = repo
    out = tmp_path / "out"
    assert main(["history", "--repo", str(root), "--out", str(out), "--commit-url", "https://x/{commit}"]) == 0
    assert sorted(p.stem for p in out.glob("*.json")) == sorted(hashes)
    assert "measured" in capsys.readouterr().err
    record = history.load((out / f"{hashes[0]}.json").read_text())
    assert record is not None and record.figures["toy"]["check"] == "ok"
    assert "valgrind" in record.figures["toy"]["instructions_unavailable"]
    rows = (out / "history.csv").read_text().splitlines()
    assert rows[0] == "commit,subject,algorithm,metric,value" and len(rows) == 1 + 4 * 3
    page = (out / "index.html").read_text()
    assert f"https://x/{hashes[2]}" in page and "<svg" in page
    assert main(["history", f"{hashes[0]}..{hashes[3]}", "--repo", str(root), "--out", str(out)]) == 0
    assert "measured" not in capsys.readouterr().err


@pytest.mark.usefixtures("no_valgrind")
def test_a_commit_that_does_not_import_is_one_line(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    first = _commit(root, _toy(), "toy")
    broken = _commit(root, _toy(extra="import no_such_module_here"), "broken")
    gone = _commit(root, {"algorithms/hanoi_algorithms/toy.py": "raise ImportError('gone')\n"}, "gone")
    records = history.history(root, None, tmp_path / "out")
    assert [r.commit for r in records] == [first, broken, gone]
    assert "no_such_module_here" in records[1].figures["toy"]["check"]
    assert records[2].error.startswith("does not import: ImportError: gone")
    assert records[2].why_not("toy") == records[2].error
    assert history.steps(records, "toy", "peak") == []


@pytest.mark.usefixtures("no_valgrind")
def test_a_hanoi_new_project(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    _git(root, "init", "-q")
    toy = textwrap.dedent(TOY).replace(
        '@register(name="toy", summary="the recursion", final_peg=FinalPeg.fixed(2), max_n=20)\n', ""
    )
    pyproject = '[project]\nname = "toy"\n[project.entry-points."hanoi.algorithms"]\ntoy = "toy:solve"\n'
    first = _commit(root, {"pyproject.toml": pyproject, "toy.py": toy.format(pad=1, extra="pass")}, "toy")
    empty = _commit(root, {"pyproject.toml": '[project]\nname = "toy"\n'}, "no entry point")
    records = history.history(root, f"{first}~0..{empty}", tmp_path / "out")
    assert len(records) == 1 and "declares no entry point" in records[0].error
    records = history.history(root, None, tmp_path / "out")
    assert records[0].figures["solve"]["check"] == "ok"


@pytest.mark.parametrize(
    "argv",
    [
        ["bisect", "nope", "HEAD", "--algorithm", "toy"],
        ["bisect", "HEAD~3", "HEAD", "--algorithm", "toy"],
        ["bisect", "HEAD~3", "HEAD", "--algorithm", "nobody", "--metric", "peak"],
        ["history", "nope..HEAD"],
    ],
)
@pytest.mark.usefixtures("no_valgrind")
def test_bad_input_is_one_line(
    argv: list[str], repo: tuple[Path, list[str]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = repo
    assert main([*argv, "--repo", str(root), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("hanoi: error: ") and "Traceback" not in err


def test_not_a_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--repo", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    assert "git" in capsys.readouterr().err


def test_a_record_of_another_schema_is_measured_again() -> None:
    record = history.Record("c", "s", "k", {"a": {"check": "ok", "peak": 3}})
    assert history.load(dump := history.dump(record)) == record
    assert history.load(json.dumps({**json.loads(dump), "schema": 0})) is None


@pytest.mark.slow
def test_bisect_on_instructions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if shutil.which("valgrind") is None:
        pytest.skip("no valgrind")
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    good = _commit(root, _toy(), "toy")
    _commit(root, {"NOTES": "a note"}, "notes")
    slower = {k: v.replace("yield (k, a, c)", "yield (k + sum((0, 0, 0)), a, c)") for k, v in _toy().items()}
    bad = _commit(root, slower, "toy: more work per move")
    assert main(["bisect", good, bad, "--algorithm", "toy", "--repo", str(root), "--out", str(tmp_path / "o")]) == 0
    assert f"first bad commit: {bad}" in capsys.readouterr().out


@pytest.mark.usefixtures("no_valgrind")
def test_commits_that_cannot_be_measured(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    _commit(root, {"NOTES": "nothing to measure"}, "notes")
    _commit(root, {**_toy(), "algorithms/hanoi_algorithms/toy.py": "import os\nos._exit(3)\n"}, "exits")
    out = tmp_path / "out"
    assert main(["history", "--repo", str(root), "--out", str(out)]) == 0
    first, second = history.history(root, None, out)
    assert first.error.startswith("no algorithms package and no readable pyproject.toml")
    assert second.error == "not measured: exit status 3"
    assert "not measured: exit status 3" in (out / "index.html").read_text()
    assert main(["history", "HEAD..HEAD", "--repo", str(root), "--out", str(out)]) == 2
    assert "no commits in HEAD..HEAD" in capsys.readouterr().err


def test_no_git(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert main(["history", "--repo", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    assert "git cannot run" in capsys.readouterr().err


@pytest.mark.usefixtures("no_valgrind")
def test_a_failed_check_is_bad(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _git(root, "init", "-q")
    good = _commit(root, _toy(), "toy")
    bad = _commit(root, _toy(extra="n = n + 1"), "toy: one disk too many")
    argv = ["bisect", good, bad, "--algorithm", "toy", "--metric", "peak", "--repo", str(root)]
    assert main([*argv, "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert f"first bad commit: {bad}" in out and "failed (failed the check at n = 6" in out


@pytest.mark.usefixtures("no_valgrind")
def test_ctrl_c_keeps_what_is_done(
    repo: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, hashes = repo
    measure = history.measure

    def interrupted(repo: Path, commit: str, *args: object) -> history.Record:
        if commit == hashes[1]:
            raise KeyboardInterrupt
        return measure(repo, commit, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(history, "measure", interrupted)
    with pytest.raises(KeyboardInterrupt):
        history.history(root, None, tmp_path / "out", ["toy"])
    assert [p.stem for p in (tmp_path / "out").iterdir()] == [hashes[0]]


def test_a_commit_that_hangs_is_not_measured(repo: tuple[Path, list[str]]) -> None:
    root, hashes = repo
    record = history.measure(root, hashes[0], "toy: first", ["toy"], "key", timeout_s=0.01)
    assert record.error == "not measured: no result within 0.01 s"
