"""Test the checker against an independent simulator and mutations.

The simulator is minimal; the mutations are every single-move one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanoi_harness.core.checker import check, move_cap
from hanoi_harness.core.legality import broken_rule
from hanoi_harness.core.puzzle import CLASSIC, CYCLIC
from hanoi_harness.core.verdict import RULES, STATUSES, Failure, Rule, Status, Verdict
from tests.helpers import legal_prefixes, reference, traced_peak


def simulate(moves: list[Any], n: int, targets: frozenset[int]) -> tuple[str, int | None]:
    """Simulate a second, deliberately different model of the puzzle.

    It keeps the peg of each disk, not three stacks.

    A move of disk d from s to t is legal when d is on s and no smaller disk
    is on s or t.  Returns (status, first illegal step or None).
    """
    where = [0] * (n + 1)  # where[d]: the peg of disk d
    for k, move in enumerate(moves, 1):
        if not (isinstance(move, tuple) and len(move) == 3):
            return "illegal", k
        d, s, t = move
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in move):
            return "illegal", k
        if not (1 <= d <= n) or s not in (0, 1, 2) or t not in (0, 1, 2) or s == t:
            return "illegal", k
        if where[d] != s or any(where[e] in (s, t) for e in range(1, d)):
            return "illegal", k
        where[d] = t
    if n == 0:
        return ("ok" if not moves else "illegal"), (1 if moves else None)
    pegs = set(where[1:])
    if len(pegs) != 1 or pegs.pop() not in targets:
        return "incomplete", None
    return ("ok" if len(moves) == 2**n - 1 else "not_optimal"), None


moves_strategy = st.lists(st.tuples(st.integers(0, 5), st.integers(-1, 3), st.integers(-1, 3)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 4), moves=moves_strategy)
def test_agrees_with_simulator_on_random_sequences(n: int, moves: list[tuple[int, int, int]]) -> None:
    verdict = check(moves, n)
    status, step = simulate(moves, n, frozenset({2}))
    assert verdict.status == status
    if status == "illegal":
        assert step is not None and verdict.step == step
        assert verdict.moves == step - 1


@settings(max_examples=300, deadline=None)
@given(case=legal_prefixes())
def test_agrees_with_simulator_on_mostly_legal_sequences(case: tuple[int, list[tuple[int, int, int]]]) -> None:
    n, moves = case
    verdict = check(moves, n, frozenset({1, 2}), max_moves=10**6)
    status, step = simulate(moves, n, frozenset({1, 2}))
    assert verdict.status == status
    assert verdict.step == step


MUTATIONS = ("disk", "src", "dst", "swap", "drop", "add")


@st.composite
def mutated_solutions(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int]], str]:
    n = draw(st.integers(1, 6))
    moves = list(reference(n))
    kind = draw(st.sampled_from(MUTATIONS))
    i = draw(st.integers(0, len(moves) - 1))
    d, s, t = moves[i]
    if kind == "disk":
        moves[i] = (draw(st.integers(0, n + 1).filter(lambda x: x != d)), s, t)
    elif kind == "src":
        moves[i] = (d, draw(st.integers(-1, 3).filter(lambda x: x != s)), t)
    elif kind == "dst":
        moves[i] = (d, s, draw(st.integers(-1, 3).filter(lambda x: x != t)))
    elif kind == "swap":
        j = draw(st.integers(0, len(moves) - 1).filter(lambda j: moves[j] != moves[i]))
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == "drop":
        del moves[i]
    else:
        extra = draw(st.tuples(st.integers(0, n + 1), st.integers(-1, 3), st.integers(-1, 3)))
        moves.insert(draw(st.integers(0, len(moves))), extra)
    return n, moves, kind


@settings(max_examples=400, deadline=None)
@given(case=mutated_solutions())
def test_every_single_move_mutation_is_rejected_at_the_right_step(
    case: tuple[int, list[tuple[int, int, int]], str],
) -> None:
    n, moves, _kind = case
    verdict = check(moves, n)
    status, step = simulate(moves, n, frozenset({2}))
    assert not verdict.ok
    assert verdict.status == status
    assert verdict.step == step


def test_illegal_verdict_reports_step_move_reason_and_tops() -> None:
    moves = [(1, 0, 2), (2, 0, 2)]
    verdict = check(moves, 3)
    assert verdict == Verdict(
        "illegal",
        3,
        1,
        verdict.digest,
        step=2,
        move=(2, 0, 2),
        tops=(2, None, 1),
        failure=Failure("larger_on_smaller", disk=2, src=0, dst=2, top=1),
    )
    assert verdict.reason == "disk 2 cannot go onto the smaller disk 1 on peg 2"
    assert "step 2" in verdict.describe() and "tops 2, -, 1" in verdict.describe()


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ((1, 0, 3), "destination peg 3 is not 0, 1 or 2"),
        ((1, -1, 2), "source peg -1 is not 0, 1 or 2"),
        ((1, 0, 0), "source and destination are both peg 0"),
        ((1, 1, 2), "peg 1 is empty"),
        ((2, 0, 1), "disk 2 is not on top of peg 0 (its top is 1)"),
        ((1, 2), "a move must be a (disk, src, dst) triple"),
        ("1 0 2", "a move must be a (disk, src, dst) triple"),
        ("102", "source peg '0' is not 0, 1 or 2"),
        ((1, True, 2), "source peg True is not 0, 1 or 2"),
    ],
)
def test_each_illegal_reason(move: Any, reason: str) -> None:
    verdict = check([move], 2)
    assert verdict.status == "illegal"
    assert verdict.reason == reason
    assert verdict.step == 1


def test_crash_is_reported_with_its_step() -> None:
    def broken() -> Any:
        yield (1, 0, 1)
        yield (2, 0, 2)
        raise RuntimeError("boom")

    verdict = check(broken(), 2)
    assert verdict.status == "crashed"
    assert verdict.step == 3
    assert verdict.reason == "RuntimeError: boom"


def test_wrong_final_peg_is_incomplete() -> None:
    verdict = check([(1, 0, 1)], 1, frozenset({2}))
    assert verdict.status == "incomplete"
    assert "peg 1, not 2" in verdict.reason


def test_runaway_legal_sequence_is_stopped() -> None:
    def forever() -> Any:
        while True:
            yield (1, 0, 1)
            yield (1, 1, 0)

    verdict = check(forever(), 1, max_moves=100)
    assert verdict.status == "not_optimal"
    assert verdict.moves == 100


@pytest.mark.serial  # a tracemalloc peak: pytest-xdist's own thread would allocate into it
def test_memory_is_independent_of_the_number_of_moves() -> None:
    def peak(n: int) -> int:
        # Warm: the first run of a line allocates in coverage's tracer, whichever test runs it first.
        return traced_peak(lambda: check(reference(n), n))

    # 2^14 moves vs 2^10: a checker that kept the moves would need 16x more.
    assert peak(14) < 2 * peak(10) + 4096


def test_digest_matches_the_documented_formula() -> None:
    moves = list(reference(5))
    expected = sum(k * (9 * d + 3 * s + t) for k, (d, s, t) in enumerate(moves, 1)) % 2**64
    assert check(moves, 5).digest == expected


def test_segments_check_with_global_steps_and_add_up() -> None:
    from hanoi_harness.core.randomaccess import tower_at

    n = 6
    moves = list(reference(n))
    whole = check(moves, n)
    parts = []
    for start, end in ((0, 20), (20, 41), (41, 63)):
        part = check(moves[start:end], n, start=start, initial=tower_at(n, start), partial=True)
        assert part.ok and part.moves == end - start
        assert part.extra["pegs"] == tower_at(n, end)
        parts.append(part.digest)
    assert sum(parts) % 2**64 == whole.digest

    bad = moves[20:41]
    bad[5] = (bad[5][0], bad[5][2], bad[5][1])
    verdict = check(bad, n, start=20, initial=tower_at(n, 20), partial=True)
    assert verdict.status == "illegal" and verdict.step == 26


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ((1, 0.0, 2), "source peg 0.0 is not 0, 1 or 2"),
        ((1, 0, 2.0), "destination peg 2.0 is not 0, 1 or 2"),
        ((1.0, 0, 2), "disk 1.0 is not an integer"),
        ((True, 0, 2), "disk True is not an integer"),
    ],
)
def test_numbers_that_only_look_like_integers_are_refused(move: Any, reason: str) -> None:
    verdict = check([move], 1)
    assert (verdict.status, verdict.reason, verdict.step) == ("illegal", reason, 1)


def test_numpy_integers_are_integers() -> None:
    import numpy as np

    moves = [tuple(np.int64(x) for x in move) for move in reference(4)]
    verdict = check(moves, 4)
    assert verdict.ok and verdict.digest == check(list(reference(4)), 4).digest


# --- structured failures -----------------------------------------------------------------------


def _forever() -> Any:
    while True:
        yield (1, 0, 1)
        yield (1, 1, 0)


def _broken_generator() -> Any:
    yield (1, 0, 1)
    raise RuntimeError("no peg 2 here")


def _streamed(moves: list[Any], n: int) -> Verdict:
    """Return the failure ``hanoi moves`` finds in *moves*, as the sandbox.

    An odd move is not rebuilt.
    """
    from hanoi_harness.registry.record import Algorithm
    from hanoi_harness.sandbox.screen import MoveStream

    stream = MoveStream(Algorithm(name="given", solve=lambda n: iter(moves), summary="given"), n)
    list(stream.pieces())
    assert stream.failure is not None
    return stream.failure


def _produce(rule: str) -> Verdict:
    """Return a verdict whose failure is *rule*, from an input that breaks it.

    It goes through the code that judges it.
    """
    import numpy as np

    from hanoi_harness.core.arrays import check_chunks
    from hanoi_harness.transcript.command import run_command

    producers: dict[str, Callable[[], Verdict]] = {
        "not_a_triple": lambda: check([(1, 0, 1), (1, 2)], 2),
        "odd_move": lambda: _streamed([(1, 0, 1), (1, 2.0, 2)], 2),
        "bad_peg": lambda: check([(1, 0, 3)], 2),
        "same_peg": lambda: check([(1, 1, 1)], 2),
        "forbidden_move": lambda: check([(1, 0, 2)], 2, puzzle=CYCLIC),
        "empty_source": lambda: check([(1, 1, 2)], 2),
        "not_integer": lambda: check([(1.0, 0, 2)], 2),
        "not_on_top": lambda: check([(2, 0, 1)], 2),
        "larger_on_smaller": lambda: check([(1, 0, 2), (2, 0, 2)], 2),
        "bad_chunk": lambda: check_chunks([np.array([[1, 0, 1]]), np.array([[1.0, 1.0, 2.0]])], 2),
        "still_moving": lambda: check(_forever(), 1, max_moves=10),
        "spread": lambda: check([(1, 0, 1)], 2),
        "wrong_peg": lambda: check([(1, 0, 1)], 1),
        "not_at_goal": lambda: check([(1, 0, 1)], 2, puzzle=CLASSIC.between((0, 0), (2, 0))),
        "wrong_count": lambda: check([(1, 0, 1), (1, 1, 2)], 1),
        "crashed": lambda: check(_broken_generator(), 2),
        "timed_out": lambda: run_command("sleep 20", 1, timeout=0.3)[0],
        "other": lambda: run_command("echo 'Move disk 1 from A to'", 1, timeout=30)[0],
    }
    return producers[rule]()


EXPECTED: dict[str, tuple[Failure, str]] = {
    "odd_move": (
        Failure("odd_move", detail="a tuple holding int, float, int"),
        "illegal at step 2: move '(1, 2.0, 2)': a move must be a triple of integers (disk, src, dst), "
        "not a tuple holding int, float, int (tops 2, 1, -)",
    ),
    "not_a_triple": (
        Failure("not_a_triple"),
        "illegal at step 2: move (1, 2): a move must be a (disk, src, dst) triple (tops 2, 1, -)",
    ),
    "bad_peg": (
        Failure("bad_peg", 1, 0, 3, side="destination", pegs=3),
        "illegal at step 1: move 1 0 3: destination peg 3 is not 0, 1 or 2 (tops 1, -, -)",
    ),
    "same_peg": (
        Failure("same_peg", 1, 1, 1),
        "illegal at step 1: move 1 1 1: source and destination are both peg 1 (tops 1, -, -)",
    ),
    "forbidden_move": (
        Failure("forbidden_move", 1, 0, 2, variant="cyclic"),
        "illegal at step 1: move 1 0 2: the cyclic rule allows only 0->1, 1->2, 2->0, not 0->2 (tops 1, -, -)",
    ),
    "empty_source": (Failure("empty_source", 1, 1, 2), "illegal at step 1: move 1 1 2: peg 1 is empty (tops 1, -, -)"),
    "not_integer": (
        Failure("not_integer", "1.0", 0, 2),
        "illegal at step 1: move 1.0 0 2: disk 1.0 is not an integer (tops 1, -, -)",
    ),
    "not_on_top": (
        Failure("not_on_top", 2, 0, 1, top=1),
        "illegal at step 1: move 2 0 1: disk 2 is not on top of peg 0 (its top is 1) (tops 1, -, -)",
    ),
    "larger_on_smaller": (
        Failure("larger_on_smaller", 2, 0, 2, top=1),
        "illegal at step 2: move 2 0 2: disk 2 cannot go onto the smaller disk 1 on peg 2 (tops 2, -, 1)",
    ),
    "bad_chunk": (
        Failure("bad_chunk", detail="float64 of shape 1x3"),
        "illegal at step 2: move 'array([[1., 1., 2.]])': a chunk must be an integer array of shape (m, 3), "
        "not float64 of shape 1x3 (tops 2, 1, -)",
    ),
    "still_moving": (
        Failure("still_moving", count=10, optimal=1),
        "legal but not optimal: still moving after 10 moves (optimal is 1); stopped",
    ),
    "spread": (
        Failure("spread", count=1, heights=(1, 1, 0)),
        "incomplete: after 1 moves the disks are spread (peg 0: 1; peg 1: 1; peg 2: 0)",
    ),
    "wrong_peg": (
        Failure("wrong_peg", count=1, peg=1, targets=(2,)),
        "incomplete: after 1 moves the tower is on peg 1, not 2",
    ),
    "not_at_goal": (
        Failure("not_at_goal", count=1, config=(1, 0), goal=(2, 0)),
        "incomplete: after 1 moves the disks are at 1,0, not at the goal 2,0",
    ),
    "wrong_count": (Failure("wrong_count", count=2, optimal=1), "legal but not optimal: 2 moves, optimal is 1"),
    "crashed": (
        Failure("crashed", detail="RuntimeError: no peg 2 here"),
        "crashed at step 2: RuntimeError: no peg 2 here",
    ),
    "timed_out": (
        Failure("timed_out", detail="no verdict within 0.3 s; stopped"),
        "timed out: no verdict within 0.3 s; stopped",
    ),
    "other": (
        Failure(
            "other", detail="line 1: cannot read a move from 'Move disk 1 from A to': 'from' and 'to' need a peg each"
        ),
        "illegal at step 1: line 1: cannot read a move from 'Move disk 1 from A to': 'from' and 'to' need a peg each",
    ),
}


def test_every_rule_is_expected_somewhere() -> None:
    assert set(EXPECTED) == set(RULES)


@pytest.mark.parametrize("rule", RULES)
def test_each_rule_is_produced_with_its_fields_and_text(rule: str) -> None:
    verdict = _produce(rule)
    failure, text = EXPECTED[rule]
    assert verdict.failure == failure
    assert verdict.describe() == text
    assert verdict.reason == failure.text()


@pytest.mark.parametrize("rule", RULES)
def test_each_failure_survives_json_and_the_pipe(rule: str) -> None:
    verdict = _produce(rule)
    back = Verdict.from_dict(json.loads(json.dumps(verdict.to_dict())))
    assert back == verdict and back.failure == verdict.failure
    assert back.describe() == verdict.describe() and back.describe(LETTERS) == verdict.describe(LETTERS)


LETTERS = ("A", "B", "C")


@pytest.mark.parametrize(
    ("rule", "text"),
    [
        ("bad_peg", "illegal at step 1: move 1 A 3: destination peg 3 is not A, B or C (tops 1, -, -)"),
        ("same_peg", "illegal at step 1: move 1 B B: source and destination are both peg B (tops 1, -, -)"),
        ("empty_source", "illegal at step 1: move 1 B C: peg B is empty (tops 1, -, -)"),
        ("not_on_top", "illegal at step 1: move 2 A B: disk 2 is not on top of peg A (its top is 1) (tops 1, -, -)"),
        (
            "larger_on_smaller",
            "illegal at step 2: move 2 A C: disk 2 cannot go onto the smaller disk 1 on peg C (tops 2, -, 1)",
        ),
        ("spread", "incomplete: after 1 moves the disks are spread (peg A: 1; peg B: 1; peg C: 0)"),
        ("wrong_peg", "incomplete: after 1 moves the tower is on peg B, not C"),
        (
            "forbidden_move",
            "illegal at step 1: move 1 A C: the cyclic rule allows only A->B, B->C, C->A, not A->C (tops 1, -, -)",
        ),
        ("not_at_goal", "incomplete: after 1 moves the disks are at B,A, not at the goal C,A"),
        # Text from elsewhere is never rewritten: its "peg 2" is not one of the labels' pegs.
        ("crashed", "crashed at step 2: RuntimeError: no peg 2 here"),
    ],
)
def test_describe_writes_the_pegs_with_the_labels_given(rule: str, text: str) -> None:
    assert _produce(rule).describe(LETTERS) == text


def test_ok_names_its_peg_with_the_labels() -> None:
    verdict = check(reference(3), 3)
    assert verdict.describe() == "ok (7 moves, tower on peg 2)"
    assert verdict.describe(("1", "2", "3")) == "ok (7 moves, tower on peg 3)"
    assert verdict.failure is None and verdict.reason == "" and verdict.explain(LETTERS) == ""


def test_the_allowed_pegs_follow_the_number_of_pegs() -> None:
    failure = broken_rule((1, 0, 4), ([1], [], [], []))
    assert failure == Failure("bad_peg", 1, 0, 4, side="destination", pegs=4)
    assert failure.text() == "destination peg 4 is not 0, 1, 2 or 3"
    assert failure.text(("N", "E", "S", "W")) == "destination peg 4 is not N, E, S or W"


@pytest.mark.parametrize("status", STATUSES)
def test_every_status_round_trips_through_json(status: Status) -> None:
    failure = None if status == "ok" else Failure("other", detail=f"a {status} run")
    verdict = Verdict(status, 3, 5, 77, step=6, move=(1, 0, 2), tops=(3, None, 1), final_peg=2, failure=failure)
    data = json.loads(json.dumps(verdict.to_dict()))
    assert Verdict.from_dict(data) == verdict
    assert data["reason"] == verdict.reason  # the text stays readable without the fields


@pytest.mark.parametrize(
    ("status", "rule"), [("crashed", "crashed"), ("timed_out", "timed_out"), ("not_optimal", "other")]
)
def test_a_verdict_known_only_by_its_text_still_describes_and_round_trips(status: Status, rule: Rule) -> None:
    verdict = Verdict(status, 4, 2, reason="the worker died twice")
    assert verdict.failure == Failure(rule, detail="the worker died twice")
    assert verdict.reason == "the worker died twice" and "the worker died twice" in verdict.describe()
    assert Verdict.from_dict(verdict.to_dict()) == verdict


def test_a_verdict_stored_before_failures_had_fields_is_read_by_its_text() -> None:
    reason = "disk 2 is not on top of peg 0 (its top is 1)"
    old = {"status": "illegal", "n": 2, "moves": 0, "digest": 0, "step": 1, "move": [2, 0, 2], "reason": reason}
    old.update(tops=[1, None, None], final_peg=None)
    verdict = Verdict.from_dict(old)
    assert verdict.describe() == check([(2, 0, 2)], 2).describe()
    assert verdict.failure == Failure("other", detail=reason)


def test_a_failure_and_a_reason_together_are_refused() -> None:
    with pytest.raises(TypeError, match="not both"):
        Verdict("crashed", 1, 0, reason="boom", failure=Failure("crashed", detail="boom"))


def test_a_runaway_program_is_stopped_at_the_cap() -> None:
    from hanoi_harness.transcript.command import run_command

    verdict, _ = run_command("while :; do echo 'A->B'; echo 'B->A'; done", 1, timeout=30)
    assert verdict.failure == Failure("still_moving", count=move_cap(1), optimal=1, astray=2)
