"""Test ``hanoi check --jsonl``: one verdict a record, a summary by n."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hanoi_harness.transcript.batch import Summary, grade, grade_all
from tests.helpers import reference, run_cli

ABC = "ABC"


def moves(n: int) -> str:
    return "".join(f"Move disk {d} from {ABC[s]} to {ABC[t]}\n" for d, s, t in reference(n))


RECORDS: list[dict[str, Any]] = [
    {"id": "ok", "n": 3, "text": moves(3)},
    {"id": "illegal", "n": 3, "text": "A->B\nA->C\nC->B\n"},
    {"id": "count", "n": 2, "text": "Move 1 disk from 1 to 2\nMove 1 disk from 1 to 3\nMove 1 disk from 2 to 3\n"},
    {"id": "refused", "n": 3, "text": "hello"},
    {"id": "cyclic", "n": 1, "text": "A->B\nB->C\n", "rules": "cyclic"},
    {"id": "pegs", "n": 2, "text": "x y\nx z\ny z\n", "pegs": "x,y,z"},
]


def test_each_record_is_graded_as_one_check_would(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS) + "\nnot json\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "check", "--jsonl", str(path))
    *verdicts, summary = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [v["status"] for v in verdicts] == ["ok", "illegal", "ok", "refused", "ok", "ok", "refused"]
    assert verdicts[1] | {"verdict": ""} == {
        "id": "illegal", "n": 3, "status": "illegal", "count": 2, "step": 3, "line": 3, "prefix": 2, "verdict": "",
    }  # fmt: skip
    for record, verdict in zip(RECORDS, verdicts, strict=False):
        one = tmp_path / "one.txt"
        one.write_text(record["text"], encoding="utf-8")
        argv = ["check", "-n", str(record["n"]), str(one)]
        argv += [f"--{key}={value}" for key, value in record.items() if key not in ("id", "n", "text")]
        status, alone, _ = run_cli(capsys, *argv)
        if verdict["status"] == "refused":
            assert (status, alone) == (2, "")
        else:
            assert alone == verdict["verdict"] + "\n"
    assert summary["summary"][0] == {"n": 1, "records": 1, "ok": 1, "accuracy": 1.0, "statuses": {"ok": 1}}


def test_the_prefix_is_the_moves_a_shortest_solution_starts_with() -> None:
    lines = moves(4).splitlines(keepends=True)
    wrong = "".join(lines[:5] + lines[6:7] + lines[5:6] + lines[7:])
    verdict = grade(json.dumps({"id": 1, "n": 4, "text": wrong}))
    assert verdict["prefix"] == 5 and verdict["status"] != "ok"
    assert grade(json.dumps({"id": 2, "n": 4, "text": moves(4)}))["prefix"] == 15


@pytest.mark.parametrize("record", ['{"id": 1}', "[1, 2]", '{"n": "3", "text": ""}', '{"n": 2, "text": 5}'])
def test_a_record_that_is_not_one_is_refused(record: str) -> None:
    assert grade(record)["status"] == "refused"


def test_a_bad_option_in_a_record_is_refused() -> None:
    assert grade(json.dumps({"n": 1, "text": "A->C", "rules": "odd"}))["status"] == "refused"


def test_processes_give_the_verdicts_in_order() -> None:
    records = [json.dumps(r) for r in RECORDS] * 30
    assert list(grade_all(records, workers=2)) == list(map(grade, records))


def many(count: int) -> Iterator[str]:
    for k in range(count):
        yield json.dumps({"id": k, "n": 2, "text": moves(2) if k % 3 else "A->C\nA->B\n"})


def peak(count: int) -> int:
    summary = Summary()
    tracemalloc.start()
    for verdict in grade_all(many(count)):
        summary.add(verdict)
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


@pytest.mark.slow
def test_memory_does_not_grow_with_the_record_count() -> None:
    small, large = peak(2_000), peak(10_000)
    assert large < small * 1.5 + 100_000


def test_the_summary_puts_records_with_no_n_last() -> None:
    summary = Summary()
    verdicts: list[dict[str, Any]] = [{"status": "refused"}, {"n": 2, "status": "ok"}]
    for verdict in verdicts:
        summary.add(verdict)
    assert [row["n"] for row in summary.rows()] == [2, None]


def test_n_is_needed_without_jsonl(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "moves.txt"
    path.write_text("A->C\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "check", str(path))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "-n" in err
