"""Draws the three pegs after every move instead of printing the moves."""

import sys


def draw(pegs, n):
    for level in range(n - 1, -1, -1):
        row = []
        for peg in pegs:
            disk = peg[level] if level < len(peg) else 0
            row.append(("=" * disk).rjust(n) + "|" + ("=" * disk).ljust(n))
        print("  ".join(row))
    print()


def hanoi(k, a, b, c, pegs, n):
    if k:
        hanoi(k - 1, a, c, b, pegs, n)
        pegs[c].append(pegs[a].pop())
        draw(pegs, n)
        hanoi(k - 1, b, a, c, pegs, n)


if __name__ == "__main__":
    size = int(sys.argv[1])
    towers = [list(range(size, 0, -1)), [], []]
    draw(towers, size)
    hanoi(size, 0, 1, 2, towers, size)
