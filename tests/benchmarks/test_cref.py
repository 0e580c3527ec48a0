"""Test the C reference: ``python -m benchmarks.cref``, its figures and its page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import cref


def test_the_c_reference_writes_the_same_bytes_and_is_timed() -> None:
    if cref.compiler() is None:
        pytest.skip("no C compiler")
    result = cref.measure(12, repeat=1)
    assert result["identical"] is True
    for name in ("c_fwrite_per_move", "c_gathered_writes", "python_blocks"):
        assert result[name] > 0
    assert result["speedup_vs_fwrite_per_move"] == result["c_fwrite_per_move"] / result["python_blocks"]
    assert result["moves"] == 4095 and result["bytes"] == 3 * 4095


def test_the_c_compiler_is_cc_then_gcc_then_cc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("clang-17", "gcc", "cc"):
        program = tmp_path / name
        program.write_text("#!/bin/sh\n")
        program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("CC", "clang-17")
    assert cref.compiler() == str(tmp_path / "clang-17")
    monkeypatch.setenv("CC", "no-such-cc")
    assert cref.compiler() == str(tmp_path / "gcc")
    (tmp_path / "gcc").unlink()
    assert cref.compiler() == str(tmp_path / "cc")
    (tmp_path / "cc").unlink()
    assert cref.compiler() is None


def test_the_c_reference_says_why_it_was_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match=r"n must be 0\.\.63 for the C reference, got 64"):
        cref.measure(64)
    monkeypatch.setattr(cref, "compiler", lambda: None)
    assert cref.measure(3)["skipped"] == "no C compiler (set CC, or install gcc)"
    monkeypatch.setattr(cref, "compiler", lambda: "/usr/bin/cc")
    monkeypatch.setattr(cref, "SOURCE", tmp_path / "hanoi_ref.c")
    found = cref.measure(3)
    assert found["skipped"].endswith("hanoi_ref.c is missing")
    assert (found["moves"], found["bytes"]) == (7, 21) and "compiler" not in found


MEASURED = {
    "n": 20, "moves": 1048575, "bytes": 3145725, "repeat": 2, "compiler": "gcc -O2", "identical": True,
    "c_fwrite_per_move": 0.012, "c_gathered_writes": 0.002, "python_blocks": 0.004,
    "speedup_vs_fwrite_per_move": 3.0, "speedup_vs_gathered_writes": 0.5,
}  # fmt: skip


def test_the_c_reference_command_prints_a_table_or_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cref, "measure", lambda n, repeat: {**MEASURED, "n": n, "repeat": repeat})
    assert cref.main(["20", "--repeat", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "n = 20: 1048575 moves, 3145725 bytes to /dev/null, best of 2; outputs identical: True"
    assert [line.rsplit(maxsplit=2) for line in out[-3:]] == [
        ["C -O2, one fwrite per move", "0.012", "3.000"],
        ["C -O2, one fwrite per 16384 moves", "0.002", "0.500"],
        ["hanoi moves blocks N --binary", "0.004", "1.000"],
    ]
    assert cref.main(["20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["python_blocks"] == 0.004
    with pytest.raises(SystemExit) as refused:
        cref.main(["64"])
    assert refused.value.code == 2 and "N must be 0..63" in capsys.readouterr().err


def test_the_page_is_written_and_linked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cref, "measure", lambda n, repeat: {**MEASURED, "n": n, "repeat": repeat})
    (tmp_path / "README.md").write_text("# Benchmark results\n")
    assert cref.main(["20", "--out", str(tmp_path)]) == 0
    page = (tmp_path / "cref.md").read_text()
    assert "`hanoi moves blocks 20 --binary`" in page and "| 3.00x" in page and "identical (the three" in page
    assert "- [blocks vs a C per-move loop](cref.md)" in (tmp_path / "README.md").read_text()


def test_a_failing_compiler_is_the_reason_on_the_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(n: int, repeat: int) -> dict[str, object]:
        raise OSError("cc: not found")

    monkeypatch.setattr(cref, "measure", fails)
    assert cref.main(["8", "--out", str(tmp_path)]) == 0
    assert "Not measured: the C reference failed: cc: not found." in (tmp_path / "cref.md").read_text()
    with pytest.raises(OSError):
        cref.main(["8"])
