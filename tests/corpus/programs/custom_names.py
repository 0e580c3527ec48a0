"""Pegs with names of the author's own (alpha, beta, gamma), step numbers first."""

import sys

step = 0


def hanoi(n, x, y, z):
    global step
    if n > 0:
        hanoi(n - 1, x, z, y)
        step += 1
        print(f"{step}: disk {n}: {x} --> {z}")
        hanoi(n - 1, y, x, z)


if __name__ == "__main__":
    hanoi(int(sys.argv[1]), "alpha", "beta", "gamma")
