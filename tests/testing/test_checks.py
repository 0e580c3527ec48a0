"""Test the conformance checks on algorithms planted with one defect each.

Every check fails on its own defect, naming the n, the step, the move and the reason.  A crash names the
line that raised, with its traceback.

The planted algorithms are the reference recursion with one thing changed; their records are made here, as a
variant's author would make them.  The checks on every in-tree algorithm are in tests/algorithms.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hanoi_harness.core.puzzle import CYCLIC, Config, tower_peg
from hanoi_harness.errors import UsageError
from hanoi_harness.registry.record import Algorithm, FinalPeg, between_towers
from hanoi_harness.testing import CHECKS, NAMES, CheckFailed, basic, checks_for, parametrize_with_checks, record_of
from hanoi_harness.testing import drawn as _drawn
from hanoi_harness.testing import output as _output
from hanoi_harness.testing.failures import located
from tests.helpers import REGISTRY, reference

Move = tuple[int, int, int]
CHECK = {check.name: check.inline for check in CHECKS}  # in this process: some tests patch what they call
HERE = Path(__file__).resolve()


def hanoi(n: int, a: int = 0, b: int = 1, c: int = 2) -> Iterator[Move]:
    """The reference recursion: n disks from peg a to peg c."""
    if n:
        yield from hanoi(n - 1, a, c, b)
        yield (n, a, c)
        yield from hanoi(n - 1, b, a, c)


def record(solve: Any, **fields: Any) -> Algorithm:
    return Algorithm(name=fields.pop("name", "planted"), solve=solve, summary="a planted defect", **fields)


def failure(check: str, algorithm: Any) -> str:
    """The message of *check* failing on *algorithm*."""
    with pytest.raises(CheckFailed) as caught:
        CHECK[check](algorithm)
    return str(caught.value)


# --- illegal, crashed, not optimal, elsewhere -------------------------------------------------------------------


def illegal_at_step_5(n: int) -> Iterator[Move]:
    for step, (disk, src, dst) in enumerate(hanoi(n), 1):
        yield (disk, dst, src) if step == 5 else (disk, src, dst)


def test_an_illegal_move_is_named_with_its_n_step_move_and_reason() -> None:
    said = failure("legal", illegal_at_step_5)
    assert said == (
        "illegal_at_step_5 failed the check 'legal': n = 3: illegal at step 5: move 1 0 1: peg 0 is empty "
        "(tops -, 1, 3)"
    )
    assert "n = 3: illegal at step 5" in failure("optimal", illegal_at_step_5)
    assert "so it ends on no peg" in failure("final_peg", illegal_at_step_5)


def peg_of(pegs: list[int], disk: int) -> int:
    return pegs[disk]  # raises IndexError for a disk past the list


def crashes_at_step_2(n: int) -> Iterator[Move]:
    pegs = [0] * 2
    for disk, src, dst in hanoi(n):
        peg_of(pegs, disk)
        yield (disk, src, dst)


def test_a_crash_names_the_innermost_line_of_the_algorithm_with_its_traceback() -> None:
    said = failure("legal", crashes_at_step_2)
    head, where, *trace = said.splitlines()
    assert head == (
        "crashes_at_step_2 failed the check 'legal': n = 2: crashed at step 2: IndexError: list index out of range"
    )
    line = next(i for i, text in enumerate(HERE.read_text().splitlines(), 1) if "return pegs[disk]" in text)
    assert where == f"  raised at {HERE}:{line}, in peg_of"
    assert trace[0] == "Traceback of the algorithm (most recent call last):"
    assert f'File "{HERE}"' in trace[1] and "in crashes_at_step_2" in trace[1]
    assert "hanoi_harness" not in said  # the harness's own frames are left out
    assert trace[-1] == "IndexError: list index out of range"


def not_a_generator(n: int) -> list[Move]:
    raise RuntimeError(f"no moves for {n}")


def test_a_function_that_raises_when_called_crashed_at_step_1() -> None:
    said = failure("legal", not_a_generator)
    assert "n = 0: crashed at step 1: RuntimeError: no moves for 0" in said
    assert f"raised at {HERE}:" in said and "in not_a_generator" in said


def test_a_crash_outside_the_algorithm_s_package_is_placed_at_the_innermost_frame_outside_the_harness() -> None:
    import json

    try:
        json.loads("{")  # neither the test nor json is recursive's own code (hanoi_algorithms)
    except ValueError as exc:
        text = located(exc, REGISTRY.get("recursive"))
    head = text.splitlines()[0]
    assert head.startswith("  raised at ") and "json" in head
    assert f'File "{HERE}"' in text.splitlines()[2]  # the traceback starts at the first frame outside the harness


def one_move_too_many(n: int) -> Iterator[Move]:
    yield from hanoi(n)
    if n:
        yield (1, 2, 0)
        yield (1, 0, 2)


def test_a_run_longer_than_the_puzzle_s_fewest_fails_optimal_only() -> None:
    assert failure("optimal", one_move_too_many) == (
        "one_move_too_many failed the check 'optimal': n = 1: legal but not optimal: 3 moves, optimal is 1; "
        "step 2 leaves every shortest solution"
    )
    CHECK["legal"](one_move_too_many)
    CHECK["final_peg"](one_move_too_many)


def on_peg_1(n: int) -> Iterator[Move]:
    return hanoi(n, 0, 2, 1)


def test_a_tower_on_another_peg_than_declared_fails_final_peg() -> None:
    planted = record(on_peg_1)  # declares peg 2, the default
    assert failure("final_peg", planted) == (
        "planted failed the check 'final_peg': n = 1: the tower ends on peg 1, but the record declares peg 2 "
        "for this n (final_peg: 2)"
    )
    CHECK["optimal"](planted)  # optimal to where it ends
    CHECK["final_peg"](on_peg_1)  # a bare function may end on 1 or 2


def back_home(n: int) -> Iterator[Move]:
    yield from hanoi(n, 0, 1, 2)
    yield from hanoi(n, 2, 1, 0)


def spread(n: int) -> Iterator[Move]:
    return itertools.islice(hanoi(n), 1)


def test_a_tower_back_on_its_first_peg_or_spread_is_not_solved() -> None:
    assert "n = 1: incomplete: after 2 moves the tower is on peg 0, not 1 or 2" in failure("optimal", back_home)
    assert "n = 1: the tower ends on peg 0, but the record declares peg 1 or 2" in failure("final_peg", back_home)
    assert "n = 2: incomplete: after 1 moves the disks are spread" in failure("final_peg", spread)


def forever(n: int) -> Iterator[Move]:
    yield from hanoi(n)
    while n:
        yield (1, 2, 0)
        yield (1, 0, 2)


def test_a_run_that_never_ends_is_stopped_and_fails_legal() -> None:
    assert "n = 1: legal but not optimal: still moving after 24 moves" in failure("legal", forever)


def test_every_move_is_judged_by_the_record_s_puzzle() -> None:
    classic_moves = record(hanoi, puzzle=CYCLIC, final_peg=FinalPeg.fixed(1))
    said = failure("legal", classic_moves)
    assert "n = 1: illegal at step 1: move 1 0 2: the cyclic rule allows only 0->1, 1->2, 2->0, not 0->2" in said


class Unshowable:
    """A move that is no triple and whose repr raises."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_a_move_that_cannot_even_be_shown_is_still_reported_with_its_step() -> None:
    def odd(n: int) -> Iterator[Any]:
        yield Unshowable()

    assert failure("legal", odd) == "odd failed the check 'legal': n = 0: illegal at step 1"


def test_the_strategies_keep_to_what_a_record_takes() -> None:
    from hypothesis import given, settings

    from hanoi_harness.testing import strategies

    any_state, cyclic = REGISTRY.get("any_state"), REGISTRY.get("cyclic")

    @settings(max_examples=20, derandomize=True, database=None)
    @given(strategies.endpoints(any_state, 4), strategies.endpoints(cyclic, 3), strategies.disks(cyclic, 8))
    def drawn(spread: tuple[Config, Config], towers: tuple[Config, Config], n: int) -> None:
        assert all(len(config) == 4 and set(config) <= {0, 1, 2} for config in spread)
        assert all(tower_peg(config) is not None for config in towers)
        assert 0 <= n <= 5  # the cyclic puzzle's most disks within 2^8 - 1 moves

    drawn()


# --- limits, determinism, memory ---------------------------------------------------------------------------------


def test_the_largest_n_accepted_must_start_with_legal_moves() -> None:
    def wrong_past_40(n: int) -> Iterator[Move]:
        moves = hanoi(n)
        if n > 40:
            yield (2, 0, 1)
        yield from moves

    said = failure("limits", record(wrong_past_40, max_n=50, max_n_reason="why not"))
    assert "n = 50 (the largest n planted accepts, its first 1000 moves): illegal at step 1: move 2 0 1" in said
    CHECK["limits"](record(wrong_past_40, max_n=40, max_n_reason="it breaks beyond"))


def test_limits_are_refused_as_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    planted = record(hanoi, min_n=1, min_n_reason="a reason", max_n=20, max_n_reason="another")
    CHECK["limits"](planted)
    monkeypatch.setattr(Algorithm, "check_n", lambda self, n: None)
    assert "n = 0 is accepted, though the record declares n >= 1" in failure("limits", planted)
    monkeypatch.setattr(Algorithm, "check_n", lambda self, n: (_ for _ in ()).throw(UsageError("no")))
    assert "n = 0 is refused as no, not by 'n >= 1' (a reason)" in failure("limits", planted)


def test_a_run_made_whole_before_its_first_move_fails_limits() -> None:
    def listed(n: int) -> Iterator[Move]:
        return iter([(1, 0, 2)] * ((1 << n) - 1))  # every move held before the first is handed out

    said = failure("limits", record(listed, max_n=22, max_n_reason="lists"))
    assert "n = 20: its first move came only after" in said and "does it make the whole run" in said
    assert "n = 20 (the largest n" in failure("limits", record(listed, max_n=22, max_n_reason="lists", space="2^n"))


def test_a_crash_at_the_first_move_of_a_large_n_is_placed() -> None:
    def raises_past_10(n: int) -> Iterator[Move]:
        if n > 10:
            raise OverflowError("too many")
        yield from hanoi(n)

    said = failure("limits", raises_past_10)
    assert "n = 20: crashed at its first move: OverflowError: too many" in said and f"raised at {HERE}:" in said


def test_two_runs_of_one_n_must_make_the_same_moves() -> None:
    calls = itertools.count()

    def drifting(n: int) -> Iterator[Move]:
        moves = list(hanoi(n))
        if next(calls) == 2:
            moves[6] = (9, 9, 9)
        return iter(moves)

    assert failure("deterministic", drifting) == (
        "drifting failed the check 'deterministic': n = 10: the second run differs from the first at step 7: "
        "9 9 9, where 1 0 1 was expected"
    )


def test_a_crash_while_runs_are_compared_is_placed() -> None:
    def raising(n: int) -> Iterator[Move]:
        yield (1, 0, 2)
        raise KeyError(n)

    said = failure("deterministic", raising)
    assert "n = 10: crashed at step 2: KeyError: 10" in said and "in raising" in said


def test_a_record_that_keeps_its_moves_fails_streaming() -> None:
    kept: list[Move] = []

    def keeping(n: int) -> Iterator[Move]:
        for move in hanoi(n):
            kept.append(move)  # a history that grows with the run
            yield move
        kept.clear()

    assert _output.streams(record_of(keeping))
    said = failure("streaming", keeping)
    assert re.search(r"n = 15: its peak of traced memory is [\d,]+ bytes above that of n = 10", said), said
    assert "a record of space 'n' may take; does it keep its moves?" in said
    CHECK["streaming"](hanoi)


def test_a_crash_while_the_memory_is_traced_is_placed() -> None:
    def raises_at_15(n: int) -> Iterator[Move]:
        yield from hanoi(min(n, 14))
        if n == 15:
            raise ZeroDivisionError("at 15")

    assert "n = 15: crashed while its moves were read: ZeroDivisionError" in failure("streaming", raises_at_15)


def test_streaming_applies_below_the_space_class_2_to_the_n_and_far_enough_apart() -> None:
    assert not _output.streams(record(hanoi, space="2^n"))
    assert not _output.streams(record(hanoi, max_n=12, max_n_reason="small"))
    assert [check.name for check in checks_for(record(hanoi, space="2^n"))].count("streaming") == 0


# --- solve_from, solve_for ---------------------------------------------------------------------------------------


def resumed(n: int, k: int) -> Iterator[Move]:
    return itertools.islice(hanoi(n), k - 1, None)


def test_solve_from_must_agree_with_solve() -> None:
    good = record(hanoi, solve_from=resumed)
    CHECK["solve_from"](good)

    def off_by_one(n: int, k: int) -> Iterator[Move]:
        return resumed(n, k + 1 if n == 3 and k == 2 else k)

    said = failure("solve_from", replace(good, solve_from=off_by_one))
    assert said == (
        "planted failed the check 'solve_from': n = 3, solve_from at step 2: step 2 is 1 2 1, where 2 0 1 was "
        "expected (what solve makes)"
    )


def test_a_resumed_run_is_drawn_at_large_n_against_the_optimal_solution(monkeypatch: pytest.MonkeyPatch) -> None:
    from hanoi_harness.core.randomaccess import move_at

    def wrong_past_40(n: int, k: int) -> Iterator[Move]:
        for step in itertools.count(k):
            if step >= 1 << n:
                return
            disk, src, dst = move_at(n, step)
            yield (disk, dst, src) if n > 40 else (disk, src, dst)

    planted = record(hanoi, solve_from=wrong_past_40, max_n=60, max_n_reason="big")
    monkeypatch.setattr(_drawn, "RUN_SIZE", 4)  # the drawn runs of solve alone: small, this test is of solve_from
    said = failure("drawn", planted)
    assert re.search(r"n = 41, solve_from at step \d+: step \d+ is ", said), said
    assert "(the optimal solution's, which solve must make)" in said
    _drawn.resumed(replace(planted, final_peg=FinalPeg.anywhere()), 41, 5)  # which solution: not known here
    assert _drawn._to((1, 0, 2), 1) == (1, 0, 1) and _drawn._to((1, 1, 2), 2) == (1, 1, 2)


def transfer(n: int, src: int, dst: int) -> Iterator[Move]:
    return hanoi(n, src, 3 - src - dst, dst)


def test_from_to_checks_every_pair_of_towers() -> None:
    good = record(hanoi, solve_for=between_towers("planted", transfer))
    CHECK["from_to"](good)

    def long_way(n: int, src: int, dst: int) -> Iterator[Move]:
        if (src, dst) == (2, 1):
            yield from transfer(n, 2, 0)
            yield from transfer(n, 0, 1)
        else:
            yield from transfer(n, src, dst)

    said = failure("from_to", replace(good, solve_for=between_towers("planted", long_way)))
    assert said == (
        "planted failed the check 'from_to': n = 1, from 2 to 1: legal but not optimal: 2 moves, optimal is 1"
    )


def test_from_to_checks_every_pair_of_configurations_a_record_of_any_takes() -> None:
    any_state = REGISTRY.get("any_state")
    assert any_state.solve_for is not None

    def wrong_from_spread(n: int, start: Config, goal: Config) -> Iterator[Any]:
        if n and tower_peg(start) is None:
            return iter([(1, 1, 1)])
        return iter(any_state.solve_for(n, start, goal))  # type: ignore[misc]

    planted = replace(any_state, name="planted", solve_for=wrong_from_spread)
    assert "n = 2, from 0,1 to 0,0: illegal at step 1: move 1 1 1: source and destination" in failure(
        "from_to", planted
    )


def test_configurations_drawn_between_must_reach_the_goal(monkeypatch: pytest.MonkeyPatch) -> None:
    any_state = REGISTRY.get("any_state")
    monkeypatch.setattr(_drawn, "RUN_SIZE", 4)

    def stops_short(n: int, start: Config, goal: Config) -> Iterator[Any]:
        moves = list(any_state.solve_for(n, start, goal))  # type: ignore[misc]
        return iter(moves[:-1] if n > 3 else moves)

    said = failure("drawn", replace(any_state, name="planted", solve_for=stops_short))
    assert re.search(r"n = 4, from [\d,]+ to [\d,]+: incomplete: after \d+ moves the disks are at", said), said


def test_drawn_runs_reach_beyond_the_exhaustive_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrong_at_7(n: int) -> Iterator[Move]:
        for step, move in enumerate(hanoi(n), 1):
            yield (5, 0, 1) if n == 7 and step == 64 else move

    monkeypatch.setattr(basic, "SIZE", 6)
    monkeypatch.setattr(_drawn, "RUN_SIZE", 8)
    planted = record(wrong_at_7)
    CHECK["legal"](planted)  # n <= 6
    assert "n = 7: illegal at step 64: move 5 0 1: disk 5 is not on top of peg 0" in failure("drawn", planted)


# --- the round trips ---------------------------------------------------------------------------------------------


def test_the_round_trips_need_a_good_run_and_say_what_hanoi_moves_stopped_at() -> None:
    assert "n = 10: illegal at step 5" in failure("text_round_trip", illegal_at_step_5)
    calls = itertools.count()

    def good_then_bad(n: int) -> Iterator[Move]:
        return hanoi(n) if next(calls) == 0 else illegal_at_step_5(n)

    said = failure("binary_round_trip", good_then_bad)
    assert "n = 10: 'hanoi moves' stopped: illegal at step 5: move 1 0 2" in said


def test_text_that_does_not_read_back_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from hanoi_harness.sandbox import pieces

    monkeypatch.setattr(pieces.RunPiece, "text", lambda self: "1 0 ->\n")
    assert "'hanoi check' cannot read what 'hanoi moves' wrote: line 1" in failure("text_round_trip", hanoi)
    swapped = lambda self: "".join(f"{d} {t} {s}\n" for d, s, t in self.run.rows.tolist())  # noqa: E731
    monkeypatch.setattr(pieces.RunPiece, "text", swapped)
    said = failure("text_round_trip", hanoi)
    assert "n = 10: 'hanoi check' reads the 1023 moves 'hanoi moves' wrote as 0 moves" in said and "illegal" in said


def test_bytes_that_do_not_read_back_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    from hanoi_harness.sandbox import pieces

    monkeypatch.setattr(pieces.RowsPiece, "binary", lambda self: bytes(2 * len(self.rows)))
    monkeypatch.setattr(pieces.RunPiece, "binary", lambda self: b"")
    assert "'hanoi moves --binary' wrote" in failure("binary_round_trip", hanoi) and "not 3 a move" in failure(
        "binary_round_trip", hanoi
    )
    monkeypatch.undo()
    monkeypatch.setattr(pieces.RunPiece, "binary", lambda self: bytes(reversed(self.run.binary)))
    said = failure("binary_round_trip", hanoi)
    assert "the bytes 'hanoi moves --binary' wrote read back as illegal at step 1" in said


# --- the suite ----------------------------------------------------------------------------------------------------


def test_parametrize_with_checks_names_each_test_algorithm_dash_check() -> None:
    mark = parametrize_with_checks([hanoi, "bitwise", REGISTRY.get("any_state")])
    assert mark.args[0] == ("algorithm", "check")
    ids = [case.id for case in mark.args[1]]
    assert ids[: len(NAMES) - 2] == [f"hanoi-{name}" for name in NAMES if name not in ("solve_from", "from_to")]
    assert "bitwise-solve_from" in ids and "bitwise-from_to" not in ids
    assert "any_state-from_to" in ids and "any_state-solve_from" not in ids
    assert {type(case.values[0]) for case in mark.args[1]} == {Algorithm, str}  # a name is loaded in a worker
    assert [case.id for case in parametrize_with_checks([hanoi], checks=["limits"]).args[1]] == ["hanoi-limits"]


def test_bad_arguments_are_one_line_usage_errors() -> None:
    with pytest.raises(UsageError, match="needs at least one algorithm"):
        parametrize_with_checks([])
    with pytest.raises(UsageError, match="unknown check 'fast': the checks are legal, optimal"):
        parametrize_with_checks([hanoi], checks=["fast"])
    with pytest.raises(UsageError, match="unknown algorithm 'recursiv'; did you mean 'recursive'"):
        record_of("recursiv")
    with pytest.raises(UsageError, match="42 is not a generator function, an Algorithm record"):
        record_of(42)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="invalid algorithm name '<lambda>'"):
        record_of(lambda n: hanoi(n))


def test_every_check_says_what_it_asks_and_is_named_by_its_name() -> None:
    for check in CHECKS:
        assert check.summary and check.summary.endswith(".") and str(check) == check.name
    CHECK["legal"](reference)  # a bare generator function, as the checks take it


def test_the_public_names_are_imported_when_first_used() -> None:
    import hanoi_harness.testing as testing

    assert "parametrize_with_checks" in dir(testing)
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        testing.nothing  # noqa: B018


def numpy_moves(n: int) -> Iterator[tuple[Any, Any, Any]]:
    import numpy as np

    for disk, src, dst in hanoi(n):
        yield (np.int64(disk), np.int64(src), np.int64(dst))


def test_moves_of_numpy_integers_pass_every_check() -> None:
    for check in checks_for(numpy_moves):
        check.inline(numpy_moves)
