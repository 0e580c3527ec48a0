"""Test ``hanoi moves`` and ``hanoi show`` with misbehaving plugins.

Every move is judged as ``hanoi verify`` judges it.  The plugins are files in tests/fixtures/plugins/
(cli_*.py).  A bad move is one line on stderr and exit status 1, after the moves before it, in every
output format.  A plugin that cannot even be loaded is exit status 2: its import raises or exits in the
child that imports plugins first.  Ctrl-C, even inside an import in this process, is exit status 130.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from hanoi_harness.cli.main import main
from hanoi_harness.core.checker import check_algorithm
from hanoi_harness.core.digest import digest
from hanoi_harness.registry.sources import load_plugin
from tests.helpers import FIXTURES, assert_one_line_error, at_scale, reference, run_cli

PLUGINS = FIXTURES / "plugins"


def spec(file: str, func: str) -> str:
    return f"{PLUGINS / file}:{func}"


def run_bytes(capsysbinary: pytest.CaptureFixture[bytes], *argv: str) -> tuple[int, bytes, str]:
    """Run ``hanoi`` in this process; its status, stdout as bytes, stderr.

    stderr is text.
    """
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsysbinary.readouterr()
    return code, out, err.decode()


def formats(moves: list[Any]) -> dict[str, bytes]:
    """What ``hanoi moves`` writes for *moves* in each mode."""
    count, total = digest(moves)
    return {
        "": "".join(f"{d} {s} {t}\n" for d, s, t in moves).encode(),
        "--binary": bytes(itertools.chain.from_iterable(moves)),
        "--digest": f"{count} {total}\n".encode(),
        "--count": f"{count}\n".encode(),
    }


ENDLESS = [(1, 0, 1), (1, 1, 0)] * 12  # n = 1: stopped after 4 * 2^1 + 16 = 24 moves

BAD = [
    # file, function, n, the moves written before the bad one, fragments of the line on stderr
    ("cli_shapes.py", "four_tuple", 2, [(1, 0, 2)], ["illegal at step 2", "(2, 0, 1, 9)", "triple"]),
    ("cli_shapes.py", "two_tuple", 2, [], ["illegal at step 1", "(1, 0)", "triple"]),
    ("cli_shapes.py", "misaligned", 2, [], ["illegal at step 1", "(1, 0, 2, 1)", "triple"]),
    ("cli_shapes.py", "none_move", 2, [(1, 0, 1)], ["illegal at step 2", "None", "triple"]),
    ("cli_shapes.py", "bool_disk", 2, [], ["illegal at step 1", "(True, 0, 2)", "not a tuple holding bool, int, int"]),
    ("cli_shapes.py", "float_peg", 2, [], ["illegal at step 1", "(1, 0, 2.0)", "not a tuple holding int, int, float"]),
    ("cli_shapes.py", "string_move", 2, [], ["illegal at step 1", "'102'", "not a str holding str, str, str"]),
    ("cli_shapes.py", "huge_disk", 2, [], ["illegal at step 1", "(10000", "an integer beyond 64 bits"]),
    ("cli_shapes.py", "unprintable", 2, [], ["illegal at step 1", "<Unprintable object>", "triple"]),
    ("cli_failures.py", "raises_midway", 2, [(1, 0, 1), (2, 0, 2)], ["crashed at step 3", "ValueError: boom on two"]),
    ("cli_failures.py", "raises_unspeakable", 2, [(1, 0, 2)], ["crashed at step 2", "Unspeakable"]),
    ("cli_failures.py", "raises_when_called", 2, [], ["crashed at step 1", "RuntimeError: before the first move"]),
    ("cli_failures.py", "returns_a_number", 2, [], ["crashed at step 1", "'int' object is not iterable"]),
    ("cli_failures.py", "returns_none", 2, [], ["crashed at step 1", "'NoneType' object is not iterable"]),
    ("cli_failures.py", "exits", 2, [(1, 0, 2)], ["crashed at step 2", "SystemExit: 0"]),
    ("cli_failures.py", "illegal", 2, [(1, 0, 2)], ["illegal at step 2", "disk 1 is not on top of peg 0 (its top is"]),
    ("cli_failures.py", "endless", 1, ENDLESS, ["still moving after 24 moves"]),
]


@pytest.mark.parametrize(("file", "func", "n", "before", "fragments"), BAD, ids=[case[1] for case in BAD])
@pytest.mark.parametrize("mode", ["", "--binary", "--digest", "--count"])
def test_moves_writes_the_moves_before_a_bad_one_and_says_what_it_was(
    capsysbinary: pytest.CaptureFixture[bytes],
    file: str,
    func: str,
    n: int,
    before: list[Any],
    fragments: list[str],
    mode: str,
) -> None:
    argv = ["moves", func, str(n), "--plugin", spec(file, func)] + ([mode] if mode else [])
    code, out, err = run_bytes(capsysbinary, *argv)
    assert code == 1, err
    assert out == formats(before)[mode]
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"hanoi: {func}: ") and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


# Where checker.check itself falls short (noted for the checker's owners): these pin it down until it is fixed.
CHECKER_QUIRKS = {
    "unprintable": pytest.mark.xfail(
        strict=True, reason="check() takes an exception raised while unpacking move k for a crash at step k + 1"
    ),
    "raises_unspeakable": pytest.mark.xfail(
        strict=True, raises=RuntimeError, reason="check() formats the algorithm's exception with str(), which raises"
    ),
}


# sys.exit in the algorithm is no verdict of check()'s: it ends the child process 'hanoi verify' runs it in.
JUDGED = [case for case in BAD if case[1] != "exits"]


@pytest.mark.parametrize(
    ("file", "func", "n", "before", "fragments"),
    [pytest.param(*case, marks=CHECKER_QUIRKS[case[1]]) if case[1] in CHECKER_QUIRKS else case for case in JUDGED],
    ids=[case[1] for case in JUDGED],
)
def test_the_step_is_the_one_verify_names(
    capsysbinary: pytest.CaptureFixture[bytes], file: str, func: str, n: int, before: list[Any], fragments: list[str]
) -> None:
    verdict = check_algorithm(load_plugin(spec(file, func)), n)
    code, _, err = run_bytes(capsysbinary, "moves", func, str(n), "--digest", "--plugin", spec(file, func))
    assert verdict.status != "ok" and code == 1
    where = f"at step {verdict.step}" if verdict.step is not None else f"after {verdict.moves} moves"
    assert where in err, (verdict.describe(), err)


@pytest.mark.parametrize(("file", "func", "n", "before", "fragments"), BAD, ids=[case[1] for case in BAD])
def test_show_stops_at_a_bad_move_and_says_why(
    capsys: pytest.CaptureFixture[str], file: str, func: str, n: int, before: list[Any], fragments: list[str]
) -> None:
    code, out, err = run_cli(capsys, "show", func, str(n), "--plugin", spec(file, func))
    assert code == 1 and err == ""
    last = out.splitlines()[-1]
    assert last.startswith(f"[step {len(before) + 1}] ")
    assert any(word in last for word in ("illegal move", "crashed", "still moving")), last
    assert out.count("[step ") == len(before) + 2  # the start, each legal move, the stop


# n = 17 crosses from the first run of 65535 moves to the move of disk 17 and on: the reference resumes there.
SIZES_AND_MODES = [(0, ""), (3, ""), (3, "--binary"), (3, "--digest"), (17, "--digest")]


def spelt(funcs: list[str], sizes_and_modes: list[tuple[int, str]]) -> list[tuple[str, int, str]]:
    """Each of *funcs* at each size and mode; the largest size for the first alone.

    Past the first run of moves, the reference resumes the same way whatever the spelling.
    """
    largest = max(n for n, _ in sizes_and_modes)
    return [(f, n, mode) for n, mode in sizes_and_modes for f in funcs if n < largest or f == funcs[0]]


@pytest.mark.parametrize(("func", "n", "mode"), spelt(["numpy_ints", "lists", "iterators"], SIZES_AND_MODES))
def test_legal_moves_spelt_otherwise_come_out_as_the_optimal_ones(
    capsysbinary: pytest.CaptureFixture[bytes], func: str, n: int, mode: str
) -> None:
    argv = ["moves", func, str(n), "--plugin", spec("cli_spellings.py", func)] + ([mode] if mode else [])
    assert run_bytes(capsysbinary, *argv) == (0, formats(list(reference(n)))[mode], "")


@pytest.mark.parametrize("func", ["to_peg_one", "detour"])
@pytest.mark.parametrize(("n", "mode"), [*SIZES_AND_MODES, (4, "--count")])
def test_legal_moves_off_the_reference_are_written_as_they_come(
    capsysbinary: pytest.CaptureFixture[bytes], func: str, n: int, mode: str
) -> None:
    plugin = load_plugin(spec("cli_spellings.py", func))
    argv = ["moves", func, str(n), "--plugin", spec("cli_spellings.py", func)] + ([mode] if mode else [])
    assert run_bytes(capsysbinary, *argv) == (0, formats(list(plugin.moves(n)))[mode], "")


CHUNKED = [
    ("small_chunks", 0, 17, []),
    ("illegal_inside", 1, 5, ["illegal at step 5", "disk 1 is not on top of peg 0"]),
    ("floats", 1, 1, ["illegal at step 1", "integer array of shape (m, 3)", "float64"]),
    ("chunk_raises", 1, 4, ["crashed at step 4", "ValueError: no more chunks"]),
]


@at_scale
@pytest.mark.parametrize(("func", "status", "step", "fragments"), CHUNKED, ids=[case[0] for case in CHUNKED])
@pytest.mark.parametrize(("n", "mode"), [(17, ""), (12, "--binary"), (12, "--digest")])
def test_chunked_algorithms_arrays_are_judged_too(
    capsysbinary: pytest.CaptureFixture[bytes],
    func: str,
    status: int,
    step: int,
    fragments: list[str],
    n: int,
    mode: str,
) -> None:
    # n = 17 crosses the first block of 65535 moves; the other outputs are written by the same pieces.
    argv = ["moves", func, str(n), "--plugin", spec("cli_chunks.py", func)] + ([mode] if mode else [])
    code, out, err = run_bytes(capsysbinary, *argv)
    written = list(reference(n)) if status == 0 else list(itertools.islice(reference(n), step - 1))
    assert (code, out) == (status, formats(written)[mode])
    if status:
        assert err.count("\n") == 1 and err.startswith(f"hanoi: {func}: ")
        for fragment in fragments:
            assert fragment in err, err
    else:
        assert err == ""


@pytest.mark.parametrize("command", ["moves", "show"])
@pytest.mark.parametrize("func", ["interrupted", "interrupted_import"])
def test_ctrl_c_inside_the_algorithm_is_an_interruption(
    capsys: pytest.CaptureFixture[str], command: str, func: str
) -> None:
    code, _, err = run_cli(capsys, command, func, "2", "--plugin", spec("cli_failures.py", func))
    assert (code, err) == (130, "hanoi: interrupted\n")


IMPORT_COMMANDS = [["moves", "solve", "2"], ["show", "solve", "2"], ["list"]]


@pytest.mark.parametrize("file", ["cli_import_interrupted.py", "cli_import_half.py"])
@pytest.mark.parametrize("command", IMPORT_COMMANDS[:2])
def test_ctrl_c_inside_a_plugin_import_here_is_an_interruption(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, file: str, command: list[str]
) -> None:
    # The child that imports plugins first let it through (as a plugin that is slow only here would): the
    # KeyboardInterrupt comes from the import in this process, where Ctrl-C lands.
    monkeypatch.setattr("hanoi_harness.registry.probe.probe", lambda specs, **options: [])
    code, out, err = run_cli(capsys, *command, "--plugin", spec(file, "solve"))
    assert (code, out, err) == (130, "", "hanoi: interrupted\n")


def test_listing_imports_no_plugin_here(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # What the child that imports plugins first described is listed: had this process imported the plugin,
    # its KeyboardInterrupt would have ended the command.
    monkeypatch.setattr("hanoi_harness.registry.probe.probe", lambda specs, **options: [])
    monkeypatch.setattr("hanoi_harness.registry.probe._CATALOGS", {})
    code, out, err = run_cli(capsys, "list", "--names", "--plugin", spec("cli_import_interrupted.py", "solve"))
    assert (code, err) == (0, "") and "recursive" in out.split() and "solve" not in out.split()


@pytest.mark.parametrize(
    ("file", "fragment"),
    [
        ("cli_import_interrupted.py", "failed to import: KeyboardInterrupt, raised by its own code"),
        ("cli_import_half.py", "failed to import: RuntimeError: partially initialized module"),
        ("cli_import_exits.py", "failed to import: SystemExit: 0"),
    ],
)
@pytest.mark.parametrize("command", [*IMPORT_COMMANDS, ["verify", "solve", "--n", "2"]])
def test_an_import_that_raises_or_exits_in_the_import_child_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], file: str, fragment: str, command: list[str]
) -> None:
    # Ctrl-C never reaches that child (it ignores SIGINT): a KeyboardInterrupt there is the plugin's own.
    code, out, err = run_cli(capsys, *command, "--plugin", spec(file, "solve"))
    assert_one_line_error(code, err, repr(spec(file, "solve")), fragment)
    assert out == ""


def test_verify_names_the_first_step_off_every_shortest_solution(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "verify", "detour", "--n", "4", "--plugin", spec("cli_spellings.py", "detour"))
    assert code == 1
    words = " ".join(out.split())  # the table wraps its cells
    assert "17 moves, optimal is 15; step 2 leaves every shortest solution" in words  # step 1 begins the way to peg 1
