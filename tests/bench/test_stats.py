"""Test statistics on timings: intervals, stability and a change test.

Intervals must cover as often as they claim; stability gives reasons; and the change test calls real
changes and keeps quiet on noise.  They run on simulated rounds, seeded, so deterministic.
"""

from __future__ import annotations

import random
import statistics

import msgspec
import pytest

from hanoi_harness.bench.timing.noise import NoiseFloor, interleave, noise_floor
from hanoi_harness.bench.timing.stats import (
    Difference,
    compare_times,
    median_interval,
    ratio_interval,
    stability,
)


def rounds(
    rng: random.Random, count: int, median: float = 1e-3, spread: float = 0.03, slow: float = 0.05
) -> list[float]:
    """Return *count* round times around *median*, skewed as on a busy machine.

    The noise is log-normal, and a share *slow* of rounds is half as slow again.
    """
    times = [median * rng.lognormvariate(0, spread) for _ in range(count)]
    return [t * (1.5 if rng.random() < slow else 1.0) for t in times]


# --- the interval of a median ----------------------------------------------------------------------------------


def test_the_interval_of_the_median_covers_it_about_as_often_as_it_claims() -> None:
    rng = random.Random(7)
    trials = 100
    covered = 0
    for _ in range(trials):
        interval = median_interval(rounds(rng, 25, slow=0.0))  # log-normal around 1 ms: the median is 1 ms
        assert interval is not None
        covered += interval.low <= 1e-3 <= interval.high
    # The order-statistic interval is conservative: at least 95%, a little more with 25 rounds (95.7%).
    assert 0.92 <= covered / trials <= 1.0


def test_the_interval_ends_are_rounds_around_the_median() -> None:
    times = rounds(random.Random(1), 30)
    interval = median_interval(times)
    assert interval is not None
    assert interval.low in times and interval.high in times
    assert interval.low <= statistics.median(times) <= interval.high


@pytest.mark.parametrize("count", [0, 1, 5])
def test_too_few_rounds_have_no_interval(count: int) -> None:
    assert median_interval([1.0] * count) is None


def test_a_wider_level_gives_a_wider_interval() -> None:
    times = rounds(random.Random(2), 40)
    narrow, wide = median_interval(times, 0.80), median_interval(times, 0.99)
    assert narrow is not None and wide is not None
    assert wide.low <= narrow.low and narrow.high <= wide.high


# --- stability -------------------------------------------------------------------------------------------------


def test_steady_rounds_are_stable() -> None:
    assert stability(rounds(random.Random(3), 30, spread=0.01)).stable


def test_every_reason_is_given() -> None:
    assert "too few" in stability([1.0, 1.0, 1.0]).reasons[0]
    assert stability(rounds(random.Random(4), 30, spread=0.3)).reasons == (
        "the 95% interval of the median is 27% of it wide (over 10%)",
    )
    assert any("under 1 µs" in r for r in stability([5e-7] * 20).reasons)
    assert stability([]).reasons == ("no rounds",)


def test_a_spread_or_slow_rounds_that_leave_the_median_still_are_no_reason() -> None:
    # A wide middle half, or a tenth of the rounds three times as slow: the median and its interval hold still.
    assert stability([1.0] * 70 + [1.3] * 30).stable
    assert stability([1.0] * 90 + [3.0] * 10).stable


# --- the change test -------------------------------------------------------------------------------------------


def verdicts(factor: float, seed: int, trials: int = 40, count: int = 20, noise: float = 0.0) -> list[str]:
    """Return the verdicts on *trials* pairs of simulated round sets.

    The new one of each pair is *factor* times the old.
    """
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(trials):
        old = rounds(rng, count)
        new = [t * factor for t in rounds(rng, count)]
        out.append(compare_times(old, new, noise=noise).verdict)
    return out


def test_noise_alone_is_within_noise_nearly_always() -> None:
    found = verdicts(1.0, seed=5, trials=60)
    assert found.count("within noise") >= 57


@pytest.mark.parametrize(("factor", "verdict"), [(1.10, "slower"), (1 / 1.10, "faster")])
def test_a_ten_percent_change_is_called_nearly_always(factor: float, verdict: str) -> None:
    found = verdicts(factor, seed=6)
    assert found.count(verdict) >= 38
    assert all(v in (verdict, "within noise") for v in found)


def test_a_change_inside_the_noise_margin_is_not_called() -> None:
    assert set(verdicts(1.10, seed=8, trials=20, noise=0.20)) == {"within noise"}


def test_the_ratio_and_its_interval() -> None:
    old = rounds(random.Random(9), 30)
    new = [t * 1.25 for t in old]
    found = compare_times(old, new)
    assert found.ratio == pytest.approx(1.25)
    assert found.interval is not None and found.interval.low <= 1.25 <= found.interval.high
    assert found.p_value < 0.01
    assert found.describe().startswith("slower: 1.250x (95% interval")


def test_the_bootstrap_is_seeded() -> None:
    old, new = rounds(random.Random(10), 15), rounds(random.Random(11), 15)
    assert ratio_interval(old, new) == ratio_interval(old, new)
    assert ratio_interval(old, new, seed=1) != ratio_interval(old, new, seed=2)
    assert ratio_interval(old[:2], new) is None


def test_empty_sets_cannot_be_compared() -> None:
    with pytest.raises(ValueError, match="both sets"):
        compare_times([], [1.0])


def test_a_difference_round_trips_through_json() -> None:
    found = compare_times([1.0, 1.1, 0.9, 1.0], [1.2, 1.3, 1.1, 1.2])
    assert msgspec.json.decode(msgspec.json.encode(found), type=Difference) == found
    with pytest.raises(msgspec.ValidationError, match=r"Invalid enum value 'better' - at `\$\.verdict`"):
        msgspec.convert({**msgspec.to_builtins(found), "verdict": "better"}, Difference)


# --- interleaving and the noise floor --------------------------------------------------------------------------


def test_interleaving_runs_the_two_cases_in_abba_order() -> None:
    order: list[str] = []
    first, second = interleave(lambda: order.append("A"), lambda: order.append("B"), rounds=4)
    assert "".join(order) == "ABBAABBA"
    assert len(first) == len(second) == 4


def test_a_drift_of_the_machine_falls_on_both_sides_alike() -> None:
    # Every call takes 1 ms longer than the one before (a machine getting busier): ABBA cancels it.
    clock = iter(range(10_000))
    ticks: list[float] = []

    def timer() -> float:
        ticks.append(next(clock) * (1 + len(ticks) * 1e-3))
        return ticks[-1]

    first, second = interleave(lambda: None, lambda: None, rounds=8, timer=timer)
    assert sum(first) == pytest.approx(sum(second), rel=1e-3)


def test_the_noise_floor_of_identical_rounds_is_zero() -> None:
    steps = iter(range(100_000))
    floor = noise_floor("fixed", lambda: None, rounds=10, timer=lambda: float(next(steps)))
    assert floor.difference.verdict == "within noise"
    assert floor.margin == 0.0
    assert msgspec.json.decode(msgspec.json.encode(floor), type=NoiseFloor) == floor
