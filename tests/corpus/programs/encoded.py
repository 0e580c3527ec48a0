"""Writes its moves in another encoding, as some Windows tools do: argv[2] is a Python codec name."""

import sys


def hanoi(n, a, b, c, out):
    if n:
        hanoi(n - 1, a, c, b, out)
        out.append(f"{a} -> {c}\r\n")
        hanoi(n - 1, b, a, c, out)


if __name__ == "__main__":
    lines = []
    hanoi(int(sys.argv[1]), "A", "B", "C", lines)
    sys.stdout.buffer.write("".join(lines).encode(sys.argv[2]))
