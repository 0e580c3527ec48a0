"""Test the judging side against check(): same moves, same verdict.

The verdict is the same however the moves come, and never an ok for a stream that is not a legal,
optimal run.  A move that is not three ints gets check()'s status and step, told by its type and repr.
A crash gets check()'s status, step and text, and its place.

An algorithm's process only streams its moves (:mod:`hanoi_harness.sandbox.child`); here the stream of one
request is produced in this process, into bytes, and judged from them (:class:`hanoi_harness.sandbox.judge.Judge`).
"""

from __future__ import annotations

import enum
import io
import itertools
import json
import os
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanoi_harness.core.arrays import check_chunks
from hanoi_harness.core.checker import check, check_algorithm
from hanoi_harness.core.puzzle import CLASSIC as CLASSIC_PUZZLE
from hanoi_harness.core.puzzle import CYCLIC, LINEAR, Puzzle, k_pegs
from hanoi_harness.core.verdict import Verdict
from hanoi_harness.registry.record import Algorithm
from hanoi_harness.sandbox import child, protocol
from hanoi_harness.sandbox.judge import FrameSource, Judge
from hanoi_harness.sandbox.stream import StreamEnded
from tests.helpers import legal_prefixes, reference, sizes


class Peg(enum.IntEnum):
    """Integers of another type: the checker takes them as their values."""

    A = 0
    B = 1
    C = 2


class HanoiError(Exception):
    """An exception of the algorithm's own, with a text of its own."""

    def __str__(self) -> str:
        return "a message of its own"


class _NoSkip:
    def skipped(self, rid: int) -> bool:
        return False


def collecting(out: bytearray) -> protocol.Writer:
    """A writer whose frames are appended to *out*."""
    return protocol.Writer(lambda parts: out.extend(b"".join(parts)))


def stream_of(solve: Callable[[int], Any], n: int, *, chunks: bool = False, **request: Any) -> bytes:
    """Return the bytes an algorithm's process sends for one request.

    The request is ``solve(n)`` unless *request* says otherwise.
    """
    out = bytearray()
    writer = collecting(out)
    algorithm = Algorithm(name="under_test", solve=solve, summary="under test", chunks=chunks)
    ask = {"id": 1, "n": n, "first": 0, "count": None, "trace": None, **request}
    child.serve(algorithm, ask, writer, _NoSkip())
    return bytes(out)


def frames_of(data: bytes, pid: int | None = None) -> FrameSource:
    """Return the frames of *data* as a producer's stream gives them.

    Its end or garbage is a StreamEnded.
    """
    reader = protocol.Reader(io.BytesIO(data).read, os.getpid() if pid is None else pid)

    def next_frame() -> protocol.Frame:
        try:
            frame = reader.next()
        except protocol.BrokenStream as exc:
            raise StreamEnded("crashed", f"the process broke the move stream: {exc}") from None
        if frame is None:
            raise StreamEnded("crashed", "the process exited with status 0", died=True)
        return frame

    return next_frame


def judged(data: bytes, n: int, targets: frozenset[int] = frozenset({2}), **frames: Any) -> Verdict:
    return Judge(n, targets).run(frames_of(data, **frames))


def generator(moves: list[Any], raises_at: int | None = None, error: Exception | None = None) -> Callable[[int], Any]:
    """Return solve(n) yielding *moves*, or raising *error* at *raises_at*.

    When given, *error* is raised instead of move *raises_at* (1-based).
    """

    def solve(n: int) -> Iterator[Any]:
        for k, move in enumerate(moves, 1):
            if k == raises_at:
                raise error or RuntimeError("boom")
            yield move
        if raises_at == len(moves) + 1:
            raise error or RuntimeError("boom")

    return solve


def same(got: Verdict, expected: Verdict) -> None:
    assert got == expected
    assert got.describe() == expected.describe()
    assert got.to_dict() == expected.to_dict()


def agrees(got: Verdict, expected: Verdict) -> None:
    """Assert *got* is *expected*, but for how odd moves and crashes are told.

    That is, how an odd move is told and where a crash happened.
    """
    fields = ("status", "n", "moves", "digest", "step", "tops", "final_peg", "optimality")
    assert [getattr(got, name) for name in fields] == [getattr(expected, name) for name in fields], (got, expected)
    assert got.failure is not None or expected.failure is None
    if got.failure is not None and got.failure.rule == "odd_move":
        assert got.reason.startswith("a move must be a triple of integers (disk, src, dst), not a")
    elif got.status == "crashed":
        assert expected.failure is not None and got.failure is not None
        assert got.failure.detail == expected.failure.detail
        assert got.failure.location.startswith(f"{os.path.join('tests', 'sandbox', 'test_judge.py')}:")
    else:
        assert got.describe() == expected.describe() and got.failure == expected.failure


# --- every kind of move, as check() sees it ------------------------------------------------------------


ODD_VALUES = [
    None,
    True,
    False,
    1.0,
    2.5,
    -0.0,
    float("inf"),
    "1",
    "abc",
    b"\x01\x00\x02",
    2**64,
    -(2**70),
    10**400,
    np.int64(1),
    np.int8(2),
    np.uint16(0),
    np.float64(1.0),
    np.bool_(True),
    Peg.A,
    Peg.C,
]

value = st.one_of(st.integers(-1, 5), st.sampled_from(ODD_VALUES))
odd_move = st.one_of(
    st.sampled_from(ODD_VALUES),
    st.lists(value, max_size=5).map(tuple),  # 0- to 5-tuples
    st.lists(value, min_size=3, max_size=3),  # a list
    st.lists(value, min_size=3, max_size=3).map(tuple),
)


@st.composite
def streams(draw: st.DrawFn) -> tuple[int, list[Any], int | None, Exception]:
    """Draw a mostly legal run with odd moves in it, and maybe an exception.

    Odd moves are put in or swapped in, and legal moves spelt otherwise.
    """
    n, prefix = draw(legal_prefixes(max_n=4, max_len=40))
    moves: list[Any] = list(prefix)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(moves)))
        kind = draw(st.sampled_from(("insert", "replace", "respell")))
        if kind == "insert" or not moves or at == len(moves):
            moves.insert(at, draw(odd_move))
        elif kind == "replace":
            moves[at] = draw(odd_move)
        elif type(moves[at]) is tuple and len(moves[at]) == 3 and all(type(x) is int for x in moves[at]):
            # the same move with other integer types (where int32 holds it: an odd move put in earlier can be huge)
            d, s, t = moves[at]
            fits = all(-(2**31) <= x < 2**31 for x in moves[at])
            spell = draw(st.sampled_from((np.int64, np.int32, lambda x: Peg(x) if 0 <= x < 3 else x, list)))
            if not fits and spell is not list:
                continue
            moves[at] = spell(moves[at]) if spell is list else (spell(d), spell(s), spell(t))
    raises_at = draw(st.one_of(st.none(), st.integers(1, len(moves) + 1)))
    error = draw(st.sampled_from((ValueError("bad"), KeyError("k"), ZeroDivisionError(), MemoryError(), HanoiError())))
    return n, moves, raises_at, error


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=streams(), targets=st.sampled_from((frozenset({2}), frozenset({1, 2}))))
def test_the_judge_gives_checks_verdict_on_any_moves(
    case: tuple[int, list[Any], int | None, Exception], targets: frozenset[int]
) -> None:
    n, moves, raises_at, error = case
    solve = generator(moves, raises_at, error)
    agrees(judged(stream_of(solve, n), n, targets), check(solve(n), n, targets, follow=True))


@pytest.mark.parametrize("move", [*ODD_VALUES, (1, 0), (1, 0, 2, 0), (True, 0, 2), (1.0, 0, 2), ("1", "0", "2")])
def test_each_odd_move_alone(move: Any) -> None:
    for n, before in ((1, []), (2, [(1, 0, 1)])):
        solve = generator([*before, move, (1, 1, 2)])
        agrees(judged(stream_of(solve, n), n), check(solve(n), n))


@pytest.mark.parametrize(
    ("move", "what"),
    [
        (None, "a NoneType"),
        ((1, 0), "a tuple of 2 items"),
        ([1, 0, 2, 0], "a list of 4 items"),
        ((True, 0, 2), "a tuple holding bool, int, int"),
        ((1, 0, 2.0), "a tuple holding int, int, float"),
        ("102", "a str holding str, str, str"),
        ((2**64, 0, 2), "a tuple holding an integer beyond 64 bits"),
        (np.float64(1.0), "a float64"),
    ],
)
def test_an_odd_move_is_told_by_its_type_and_repr(move: Any, what: str) -> None:
    got = judged(stream_of(generator([(1, 0, 2), move]), 2), 2)
    assert got.describe() == (
        f"illegal at step 2: move {repr(move)!r}: a move must be a triple of integers (disk, src, dst), "
        f"not {what} (tops 2, -, 1)"
    )
    assert Verdict.from_dict(got.to_dict()).describe() == got.describe()


def test_nothing_is_sent_after_an_odd_move() -> None:
    data = stream_of(generator([(1, 0, 2), None, *reference(10)]), 10)
    reader = protocol.Reader(io.BytesIO(data).read, os.getpid())
    kinds = [frame.kind for frame in iter(reader.next, None)]
    assert kinds == [protocol.MOVES, protocol.ODD_MOVE, protocol.DONE]


def test_a_legal_move_of_numpy_integers_goes_on_like_plain_ints() -> None:
    moves = [(np.int64(d), np.uint8(s), Peg(t)) for d, s, t in reference(5)]
    solve = generator(moves)
    verdict = judged(stream_of(solve, 5), 5)
    same(verdict, check(solve(5), 5))
    assert verdict.ok and verdict.moves == 31


def test_objects_of_any_other_type_are_judged_by_what_unpacking_them_gives() -> None:
    class Thing:
        def __repr__(self) -> str:
            return "<a thing>"

    class Triple:
        def __iter__(self) -> Iterator[int]:
            return iter((1, 0, 2))

        def __repr__(self) -> str:
            return "Triple()"

    class Hydra:  # three new ones of its kind at every level
        def __iter__(self) -> Iterator[Any]:
            return iter((Hydra(), Hydra(), Hydra()))

        def __repr__(self) -> str:
            return "Hydra()"

    itself: list[Any] = []
    itself.extend([itself, itself, itself])
    odd = (Thing(), Triple(), {1: "a", 0: "b", 2: "c"}, range(3), (Thing(), 0, 2), Hydra(), itself)
    for move in odd:
        solve = generator([move])
        agrees(judged(stream_of(solve, 1), 1), check(solve(1), 1))
    assert judged(stream_of(generator([Triple()]), 1), 1).ok
    looped = judged(stream_of(generator([itself]), 1), 1)
    assert looped.reason == "a move must be a triple of integers (disk, src, dst), not a list holding list, list, list"
    assert looped.move.startswith("[[[") and len(looped.move) <= 80  # a repr bounded, even of a list in itself


def test_a_move_whose_unpacking_raises_is_illegal_at_its_step() -> None:
    class Exploding:
        def __iter__(self) -> Iterator[int]:
            raise RuntimeError("cannot be unpacked")

        def __repr__(self) -> str:
            raise RuntimeError("no repr either")

    got = judged(stream_of(generator([(1, 0, 1), Exploding()]), 2), 2)
    assert got.describe() == (
        "illegal at step 2: move '<Exploding object>': a move must be a triple of integers (disk, src, dst), "
        "not an Exploding (tops 2, 1, -)"
    )


def test_a_crash_names_the_line_of_the_algorithms_own_code_and_keeps_its_traceback() -> None:
    def solve(n: int) -> Iterator[Any]:
        yield (1, 0, 2)
        json.loads("{")  # raises inside the standard library: the place is this line

    line = solve.__code__.co_firstlineno + 2
    got = judged(stream_of(solve, 2), 2)
    where = f"{os.path.join('tests', 'sandbox', 'test_judge.py')}:{line} in solve"
    assert got.status == "crashed" and got.step == 2 and got.failure is not None
    assert got.failure.location == where and got.describe().endswith(f"(at {where})")
    told = got.extra["traceback"]
    assert told.startswith("Traceback (most recent call last):") and 'json.loads("{")' in told
    assert "JSONDecodeError" in told.splitlines()[-1] and "hanoi_harness" not in told
    assert Verdict.from_dict(got.to_dict()).failure == got.failure  # the place goes into results.json too


def test_a_generator_that_raises_is_crashed_at_the_step_it_was_producing() -> None:
    moves = list(reference(6))
    for raises_at in (1, 2, 40, 63, 64):
        solve = generator(moves, raises_at, ZeroDivisionError("division by zero"))
        verdict = judged(stream_of(solve, 6), 6)
        agrees(verdict, check(solve(6), 6))
        assert verdict.status == "crashed" and verdict.step == raises_at
        assert verdict.reason.startswith("ZeroDivisionError: division by zero (at tests")


def test_a_solve_that_fails_to_start_is_crashed_at_step_1() -> None:
    def not_a_generator(n: int) -> Any:
        raise OSError("no such device")

    verdict = judged(stream_of(not_a_generator, 3), 3)
    assert (verdict.status, verdict.moves, verdict.step) == ("crashed", 0, 1)
    assert verdict.reason.startswith("OSError: no such device (at tests")
    assert judged(stream_of(lambda n: None, 3), 3).reason.startswith("TypeError: 'NoneType' object is not iterable")


def test_past_the_cap_it_stops_as_check_does() -> None:
    def forever(n: int) -> Iterator[tuple[int, int, int]]:
        yield from itertools.cycle([(1, 0, 1), (1, 1, 0)])

    for n in (1, 2, 3):
        moves = list(itertools.islice(forever(n), 4 * 2**n + 40))
        verdict = Judge(n, frozenset({2})).run(frames_of(stream_of(generator(moves), n)))
        same(verdict, check(moves, n, follow=True))
        assert verdict.status == "not_optimal" and "stopped" in verdict.reason


@pytest.mark.parametrize("n", [0, 1, 5, 17])
def test_long_runs_and_batches(n: int) -> None:
    verdict = judged(stream_of(lambda m: reference(m), n), n)
    same(verdict, check(reference(n), n))
    assert verdict.ok and verdict.moves == 2**n - 1


def test_a_traced_stretch_gives_the_same_verdict() -> None:
    moves = [*list(reference(9))[:300], (9, 0, 1)]
    for trace in ((1, 5), (290, 310), (301, 301)):
        data = stream_of(generator(moves), 9, trace=trace)
        same(judged(data, 9), check(moves, 9))
    one_a_frame = len(stream_of(generator(moves), 9, trace=(1, 10))) - len(stream_of(generator(moves), 9))
    assert one_a_frame >= 9 * protocol.HEADER.size  # moves 1..10 came one frame each


# --- other puzzles ----------------------------------------------------------------------------------------


PUZZLES = {"cyclic": CYCLIC, "linear": LINEAR, "4 pegs": k_pegs(4), "5 pegs": k_pegs(5)}


def puzzle_runs() -> st.SearchStrategy[tuple[Puzzle, int, list[Any], frozenset[int]]]:
    """Draw a puzzle, n, a legal run by its rules then a random tail.

    Also the pegs the tower may end on.
    """

    def runs(puzzle: Puzzle) -> st.SearchStrategy[tuple[Puzzle, int, list[Any], frozenset[int]]]:
        prefixes = legal_prefixes(max_n=4, max_len=80, pegs=puzzle.pegs, rule=puzzle.rule)
        targets = st.sampled_from([frozenset({1}), frozenset({puzzle.pegs - 1}), frozenset({1, 2})])
        return st.tuples(st.just(puzzle), prefixes, targets).map(lambda t: (t[0], t[1][0], t[1][1], t[2]))

    return st.sampled_from(list(PUZZLES.values())).flatmap(runs)


@settings(max_examples=300, deadline=None)
@given(case=puzzle_runs())
def test_other_puzzles_are_judged_as_check_judges_them(case: tuple[Puzzle, int, list[Any], frozenset[int]]) -> None:
    puzzle, n, moves, targets = case
    verdict = Judge(n, targets, puzzle=puzzle).run(frames_of(stream_of(generator(moves), n)))
    same(verdict, check(moves, n, targets, puzzle=puzzle))


def test_every_record_is_judged_as_check_algorithm_judges_it(algorithm: Algorithm) -> None:
    for n in sizes(algorithm, 8):
        if algorithm.chunks:
            data = stream_of(algorithm.solve, n, chunks=True)
        else:  # the record's own labels, mapped to the model as its process maps them
            data = stream_of(algorithm.moves, n)
        verdict = Judge(n, algorithm.final_peg.pegs(n), puzzle=algorithm.puzzle).run(frames_of(data))
        same(verdict, check_algorithm(algorithm, n))
        assert verdict.ok and bool(verdict.optimality) == (algorithm.puzzle != CLASSIC_PUZZLE), verdict


# --- chunks (records that yield arrays) ------------------------------------------------------------------


chunk_kinds = st.sampled_from(("uint8", "int64", "int16", "float", "shape", "ragged", "scalar", "empty", "bool"))


def as_kind(array: Any, kind: str) -> Any:
    """Return what a record yielding arrays might yield instead of *array*.

    *array* is (m, 3) int64; *kind* names the change: another dtype, shape or object.
    """
    if kind == "uint8":
        return array.astype(np.uint8) if (array >= 0).all() else array
    if kind in ("int16", "float", "bool"):
        return array.astype({"int16": np.int16, "float": float, "bool": bool}[kind])
    if kind == "shape":
        return array.reshape(-1)[: 2 * (array.size // 2)].reshape(-1, 2)
    return {"ragged": [[1, 0], [1, 0, 2]], "scalar": 7, "empty": np.zeros((0, 3), dtype=np.int32)}.get(kind, array)


@st.composite
def chunked(draw: st.DrawFn) -> tuple[int, list[Any]]:
    n, moves = draw(legal_prefixes(max_n=4, max_len=40))
    cuts = sorted(draw(st.lists(st.integers(0, len(moves)), max_size=4)))
    chunks: list[Any] = []
    for a, b in itertools.pairwise([0, *cuts, len(moves)]):
        part = moves[a:b]
        kind = draw(chunk_kinds) if draw(st.integers(0, 4)) == 0 else "uint8"
        chunks.append(as_kind(np.array(part, dtype=np.int64).reshape(-1, 3), kind))
    return n, chunks


@settings(max_examples=300, deadline=None)
@given(case=chunked())
def test_chunks_are_judged_as_check_chunks_judges_them(case: tuple[int, list[Any]]) -> None:
    n, chunks = case
    verdict = judged(stream_of(lambda m: iter(chunks), n, chunks=True), n)
    expected = check_chunks(iter(chunks), n, follow=True)
    assert (verdict.status, verdict.moves, verdict.digest, verdict.step, verdict.reason, verdict.tops) == (
        expected.status,
        expected.moves,
        expected.digest,
        expected.step,
        expected.reason,
        expected.tops,
    )
    assert verdict.describe() == expected.describe()


def test_chunks_stream_as_bytes_and_give_the_sequential_digest() -> None:
    from hanoi_harness.registry.sources import build_registry

    blocks = build_registry().get("blocks")
    data = stream_of(blocks.solve, 17, chunks=True)
    assert judged(data, 17) == check(reference(17), 17)
    assert len(data) < 3 * 2**17 + 4096  # one byte a value: uint8 rows, a few headers


# --- a stream that is not what an algorithm's process sends ------------------------------------------------


def test_garbage_is_never_ok() -> None:
    ok = stream_of(lambda m: reference(m), 3)
    fake_ok = pickle.dumps(("verdict", {"status": "ok", "n": 3, "moves": 7})) + pickle.dumps(("done", None))
    for data in (b"", b"ok\n", fake_ok, b"HM" + b"\0" * 13, os.urandom(4096), ok[:-1], ok[:20]):
        assert not judged(data, 3).ok, data[:40]
    assert judged(ok, 3).ok


def test_a_second_writer_is_a_broken_stream() -> None:
    ok = stream_of(lambda m: reference(m), 3)
    verdict = judged(ok, 3, pid=os.getpid() + 1)
    assert verdict.status == "crashed" and "did the algorithm fork?" in verdict.reason
    out = bytearray()
    first, second = collecting(out), collecting(out)
    for writer in (first, second):  # a fork: both processes go on writing, numbering from where they were
        writer.moves([(1, 0, 2)])
    first.done()
    verdict = judged(bytes(out), 1)
    assert verdict.status == "crashed" and "second writer" in verdict.reason


@settings(max_examples=300, deadline=None)
@given(at=st.integers(0, 10**6), byte=st.integers(1, 255))
def test_no_single_changed_byte_makes_an_ok(at: int, byte: int) -> None:
    data = bytearray(stream_of(lambda m: reference(m), 4))
    data[at % len(data)] ^= byte
    assert not judged(bytes(data), 4).ok  # the optimal run is unique: any other is not ok


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=200))
def test_random_bytes_are_never_ok(data: bytes) -> None:
    assert not judged(data, 2).ok


def encoded(value: Any) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        (protocol.ODD_MOVE, b"Z"),  # not JSON
        (protocol.ODD_MOVE, encoded({"shown": "None"})),  # a field missing
        (protocol.ODD_MOVE, encoded({"shown": "None", "what": 3})),  # a field that is not text
        (protocol.ODD_MOVE, b"[" * 100_000),  # nested past the decoder's depth
        (protocol.ARRAY, b"\x03|f8" + b"\0" * 24),  # a float array, where only integers are sent
        (protocol.MOVES, b"B\x01\x00"),  # not whole rows
        (protocol.MOVES, b""),  # no moves at all
        (protocol.ODD_CHUNK, encoded(["[1, 2]", "int64 of shape 2"])),  # not an object
        (protocol.ODD_CHUNK, encoded({"shown": "[1, 2]", "detail": "x", "more": "y"})),  # a field too many
        (protocol.RAISED, b"N"),  # an error that is not its fields
        (protocol.START_FAILED, b""),
        (ord("?"), b""),  # an unknown kind
    ],
)
def test_frames_that_do_not_decode_are_a_broken_stream(kind: int, payload: bytes) -> None:
    out = bytearray()
    writer = collecting(out)
    writer.frame(protocol.MOVES, b"B\x01\x00\x02")
    writer.frame(kind, payload)
    writer.done()
    verdict = judged(bytes(out), 1)
    assert verdict.status == "crashed" and "broke the move stream" in verdict.reason, verdict


def test_a_move_whose_unpacking_exits_is_a_crash_after_the_moves_before_it() -> None:
    class Exiting:
        def __iter__(self) -> Iterator[int]:
            raise SystemExit("bye")

    got = judged(stream_of(generator([(1, 0, 1), (2, 0, 2), Exiting()]), 2), 2)
    assert (got.status, got.step, got.moves) == ("crashed", 3, 2)
    assert got.reason.startswith("SystemExit: bye (at tests")
