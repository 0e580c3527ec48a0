"""Pegs named left, middle and right; each line says only where the top disk goes."""

import sys


def solve(n, frm="left", via="middle", to="right"):
    if n:
        yield from solve(n - 1, frm, to, via)
        yield frm, to
        yield from solve(n - 1, via, frm, to)


if __name__ == "__main__":
    for a, b in solve(int(sys.argv[1])):
        print(f"{a} -> {b}")
