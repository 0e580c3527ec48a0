"""Test the deterministic gate, old against new, from the figures alone.

Its figures are instructions per move and tracemalloc peaks.
"""

from __future__ import annotations

import pytest

from hanoi_harness.bench.counts.figures import InstructionCount
from hanoi_harness.bench.gate.counts import check_counts, check_peaks, classify
from hanoi_harness.bench.plan import DEFAULT_THRESHOLD_PCT
from tests.helpers import counted


def unavailable(name: str, why: str = "valgrind is not installed") -> InstructionCount:
    return InstructionCount(sizes=(10, 14), unavailable=why)


def test_the_helper_counts_what_it_says() -> None:
    found = counted("a", 4000.0)
    assert found.per_move == pytest.approx(4000.0) and found.allocator_per_move == pytest.approx(100.0)


@pytest.mark.parametrize(
    ("new", "status"),
    [(4000.0, "ok"), (4059.0, "ok"), (4061.0, "REGRESSION"), (4120.0, "REGRESSION"), (3990.0, "improved")],
)
def test_a_count_beyond_the_threshold_is_a_regression(new: float, status: str) -> None:
    (check,) = check_counts({"bitwise": counted("bitwise", 4000.0)}, {"bitwise": counted("bitwise", new)}, 1.5)
    assert check.status == status
    assert check.regression == (status == "REGRESSION")
    assert check.change == pytest.approx(new / 4000.0 - 1)


def test_only_the_algorithm_that_grew_is_named() -> None:
    old = {name: counted(name, 4000.0) for name in ("a", "b", "c")}
    new = {**old, "b": counted("b", 4000.0 * 1.03)}
    regressions = [check for check in check_counts(old, new, DEFAULT_THRESHOLD_PCT) if check.regression]
    assert [check.name for check in regressions] == ["b"]
    assert regressions[0].describe() == "b: instructions per move 4000 -> 4120 (+3.00%): REGRESSION"


def test_an_unavailable_count_is_never_a_pass() -> None:
    checks = check_counts(
        {"a": counted("a", 4000.0), "b": unavailable("b", "the child failed at n = 10")},
        {"a": unavailable("a"), "b": counted("b", 4000.0)},
        1.5,
    )
    assert [c.status for c in checks] == ["unavailable", "unavailable"]
    assert checks[0].reason == "new: valgrind is not installed"
    assert checks[1].reason == "old: the child failed at n = 10"
    (both,) = check_counts({"a": unavailable("a")}, {"a": unavailable("a")}, 1.5)
    assert both.status == "unavailable" and not both.regression
    assert both.reason == "old: valgrind is not installed; new: valgrind is not installed"


def test_counts_between_other_sizes_are_not_compared() -> None:
    (check,) = check_counts({"a": counted("a", 4000.0, (8, 12))}, {"a": counted("a", 4000.0)}, 1.5)
    assert check.status == "unavailable"
    assert check.reason == "counted between other sizes (8 and 12, then 10 and 14)"


def test_new_and_missing_algorithms_are_listed() -> None:
    checks = check_counts({"gone": counted("gone", 1.0)}, {"fresh": counted("fresh", 1.0)}, 1.5)
    assert [(c.name, c.status) for c in checks] == [("fresh", "new"), ("gone", "missing")]


def test_the_peak_that_grew_most_is_the_one_reported() -> None:
    old = {"a": {6: 1000, 10: 2000, 14: 3000}, "b": {6: 1000}}
    new = {"a": {6: 1100, 10: 2010, 14: 3000, 18: 9999}, "b": {6: 1010}}
    checks = {c.name: c for c in check_peaks(old, new, 1.5)}
    assert checks["a"].status == "REGRESSION" and checks["a"].reason == "n = 6"
    assert checks["b"].status == "ok"


def test_peaks_with_no_size_in_common_are_not_compared() -> None:
    (check,) = check_peaks({"a": {6: 1000}}, {"a": {10: 1000}}, 1.5)
    assert check.status == "unavailable"


def test_classify_is_strictly_beyond_the_threshold() -> None:
    assert classify(1000.0, 1015.0, 1.5) == "ok"
    assert classify(1000.0, 1015.1, 1.5) == "REGRESSION"
    assert classify(0.0, 0.0, 1.5) == "ok"
    assert classify(0.0, 8.0, 1.5) == "REGRESSION"
