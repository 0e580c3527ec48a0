"""Collects the moves as (from, to) pairs of pegs 1-3 and prints the list: one line, however long."""

import sys


def moves(n, a=1, b=2, c=3):
    return [*moves(n - 1, a, c, b), (a, c), *moves(n - 1, b, a, c)] if n else []


if __name__ == "__main__":
    print(moves(int(sys.argv[1])))
