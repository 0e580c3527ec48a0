"""Test what the figures depend on, and the metrics a comparison may use.

The metrics are those two environments let a comparison use.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from hanoi_harness.bench.results import environment as _environment
from hanoi_harness.bench.results.comparability import METRICS, Comparability, comparable
from hanoi_harness.bench.results.environment import Environment, capture
from hanoi_harness.bench.timing.measure import Case, time_cases
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.registry.sources import REGISTRY

BASE = Environment(
    python="3.11.7",
    implementation="CPython",
    python_build="3.11.7 (main, May  9 2026, 07:35:25) [GCC 12.2.0]",
    numpy="2.4.6",
    libc="glibc 2.36",
    arch="x86_64",
    os="Linux 6.18",
    cpu="Intel(R) Xeon(R) Processor",
    cores=2,
    valgrind="valgrind-3.19.0",
    load=(1.0, 0.8, 0.5),
    commit="45b46ac06b64ddcc65def3c8c32695059227424c",
)


def changed(**fields: object) -> Environment:
    """:data:`BASE` with *fields* replaced."""
    return msgspec.structs.replace(BASE, **fields)


def verdicts(old: Environment, new: Environment) -> dict[str, Comparability]:
    return {found.metric: found for found in comparable(old, new)}


def test_capture_records_this_process() -> None:
    found = capture("valgrind is not installed (for this test)")
    assert found.python and found.python_build and found.numpy and found.arch and found.cpu
    assert found.valgrind == "" and found.valgrind_missing == "valgrind is not installed (for this test)"
    assert len(found.load) == 3 and found.cores
    assert Environment.from_dict(msgspec.to_builtins(found)) == found
    assert "no valgrind" in found.describe()


def test_an_older_record_without_some_fields_still_reads() -> None:
    found = Environment.from_dict({"python": "3.11.7", "cpu": "AMD EPYC"})
    assert found.python == "3.11.7" and found.numpy == "" and found.load == () and found.cores is None


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_commit_of_this_checkout() -> None:
    found = _environment.source()
    if found["id"]:  # an installed copy (make test-wheel) runs outside any checkout
        assert re.fullmatch("[0-9a-f]{40}", found["id"])


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_commit_is_the_package_s_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commit recorded is the package's own source's, when a checkout.

    The installed version too.  It is never the commit of the directory hanoi runs in, and never
    "unversioned".
    """
    version = _environment.version()
    assert version != "unknown"
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "__init__.py").write_text("")

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(checkout), *args], check=True, capture_output=True)

    git("init", "-q")
    git("add", "__init__.py")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    monkeypatch.setattr(_environment, "PACKAGE_DIR", checkout)
    found = _environment.source()
    assert found["version"] == version and len(found["id"]) == 40 and found["dirty"] is False
    assert capture("no valgrind here").commit == found["id"]
    (checkout / "__init__.py").write_text("changed = True\n")
    assert _environment.source()["dirty"] is True
    monkeypatch.setattr(_environment, "PACKAGE_DIR", tmp_path)  # installed: no checkout around it
    assert _environment.source() == {"version": version, "id": None, "branch": "", "dirty": False}


def stale_checkout(tmp_path: Path) -> Path:
    """Make a git checkout of one file whose index entry is stale.

    The entry has the same content and another time.  Return its index file.
    """
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "__init__.py").write_text("")
    commit = ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "1"]
    for args in (["init", "-q"], ["add", "__init__.py"], commit):
        subprocess.run(["git", "-C", str(checkout), *args], check=True, capture_output=True)
    os.utime(checkout / "__init__.py", (1e9, 1e9))  # 'git status' or 'git describe --dirty' would rewrite the index
    return checkout / ".git" / "index"


def unchanged(index: Path, before: os.stat_result) -> bool:
    after = index.stat()
    return (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns) and not index.with_suffix(
        ".lock"
    ).exists()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_reading_the_commit_writes_nothing_in_the_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    index = stale_checkout(tmp_path)
    before = index.stat()
    monkeypatch.setattr(_environment, "PACKAGE_DIR", index.parent.parent)
    assert _environment.source()["dirty"] is False
    assert unchanged(index, before)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_timing_writes_nothing_in_the_repository_it_runs_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Timing writes nothing in the repository it runs in.

    pytest-benchmark's own record of the code ran 'git describe --dirty' in the current directory.
    """
    index = stale_checkout(tmp_path)
    before = index.stat()
    home = index.parent.parent
    monkeypatch.chdir(home)
    seen: list[str] = []

    def solve(n: int) -> Iterator[tuple[int, int, int]]:
        seen.append(os.getcwd())
        yield from REGISTRY.get("recursive").moves(n)

    where = Algorithm(name="where", solve=solve, summary="the recursion, noting the directory it runs in")
    (tmp_path / "work").mkdir()
    found = time_cases([Case(where, 2)], tmp_path / "work", min_rounds=1, max_time_s=0.01)
    assert unchanged(index, before)
    assert found.report["commit_info"]["id"] == (_environment.source()["id"] or "unversioned")  # the package's
    assert seen and set(seen) == {str(home)} and os.getcwd() == str(home)  # the cases ran where hanoi started


def test_a_result_file_s_record_reads_back_checked() -> None:
    assert Environment.from_dict(msgspec.to_builtins(BASE)) == BASE
    with pytest.raises(msgspec.ValidationError, match=r"Expected `int \| null`, got `str` - at `\$\.cores`"):
        Environment.from_dict({**msgspec.to_builtins(BASE), "cores": "two"})
    with pytest.raises(msgspec.ValidationError, match=r"length <= 3 - at `\$\.load`"):
        Environment.from_dict({**msgspec.to_builtins(BASE), "load": [1, 2, 3, 4]})


def test_the_same_environment_compares_every_metric() -> None:
    found = verdicts(BASE, changed(load=[7.5, 7.0, 6.0], commit="0" * 40))
    assert list(found) == list(METRICS)
    assert all(c.comparable and not c.notes for c in found.values())


@pytest.mark.parametrize("field", ["python_build", "arch", "implementation"])
def test_another_interpreter_compares_nothing(field: str) -> None:
    found = verdicts(BASE, changed(**{field: "something else"}))
    assert not any(c.comparable for c in found.values())
    assert all("something else" in c.reasons[0] and c.forbids(False) == c.reasons for c in found.values())


def test_another_numpy_forbids_only_the_algorithms_that_run_it() -> None:
    found = verdicts(BASE, changed(numpy="2.3.5"))
    assert not any(c.comparable for c in found.values())
    assert all(c.reasons == () and c.numpy == ("numpy differs (2.4.6, then 2.3.5)",) for c in found.values())
    assert all(c.forbids(False) == () and c.forbids(True) == c.forbids(None) == c.numpy for c in found.values())


def test_another_cpu_compares_counts_and_peaks_but_not_times() -> None:
    found = verdicts(BASE, changed(cpu="AMD EPYC"))
    assert found["instructions"].comparable and found["instructions"].notes
    assert found["tracemalloc"].comparable
    assert not found["time"].comparable
    assert "the CPU differs (Intel(R) Xeon(R) Processor, then AMD EPYC)" in found["time"].reasons
    assert found["relative time"].comparable and "caches" in found["relative time"].notes[0]


def test_more_cores_forbid_times_only() -> None:
    found = verdicts(BASE, changed(cores=8))
    assert [metric for metric, c in found.items() if not c.comparable] == ["time"]


def test_counts_need_valgrind_on_both_sides_and_the_same_one() -> None:
    missing = verdicts(BASE, changed(valgrind="", valgrind_missing="valgrind is not installed"))
    assert missing["instructions"].unmeasured == ("no valgrind in the new run",) and not missing["instructions"].reasons
    assert missing["time"].comparable
    other = verdicts(BASE, changed(valgrind="valgrind-3.22.0"))
    assert "valgrind differs (valgrind-3.19.0, then valgrind-3.22.0)" in other["instructions"].reasons
    assert other["tracemalloc"].comparable


def test_another_c_library_forbids_counts_only() -> None:
    found = verdicts(BASE, changed(libc="glibc 2.39"))
    assert [metric for metric, c in found.items() if not c.comparable] == ["instructions"]


def test_describe_names_what_is_not_compared() -> None:
    line = verdicts(BASE, changed(numpy="1.26.4"))["instructions"].describe()
    assert line == "instructions: compared but for the algorithms that run numpy: numpy differs (2.4.6, then 1.26.4)"
    line = verdicts(BASE, changed(numpy="1.26.4", libc="glibc 2.39"))["instructions"].describe()
    assert (
        line == "instructions: not compared: the C library differs (glibc 2.36, then glibc 2.39); numpy differs "
        "(2.4.6, then 1.26.4)"
    )
    found = verdicts(BASE, changed(valgrind="")).get("instructions")
    assert found is not None and found.unmeasured == ("no valgrind in the new run",)


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("processor\t: 0\nmodel\t\t: 85\nmodel name\t: Intel(R)  Xeon(R)\n", "Intel(R) Xeon(R)"),
        ("processor\t: 0\nBogoMIPS\t: 108.00\nHardware\t: BCM2835\nModel\t\t: Raspberry Pi 4\n", "BCM2835"),
        ("processor\t: 0\ncpu\t\t: POWER9 (raw), altivec supported\n", "POWER9 (raw), altivec supported"),
        ("processor\t: 0\nmodel\t\t: 1\n", ""),
        ("", ""),
    ],
)
def test_the_cpu_model_is_read_from_the_system_s_own_record(tmp_path: Path, text: str, model: str) -> None:
    record = tmp_path / "cpuinfo"
    record.write_text(text)
    assert _environment._proc_cpuinfo(record) == model
    assert _environment._proc_cpuinfo(tmp_path / "missing") == ""
