"""A correct variant that prints a line before each move, as one does while debugging."""


def chatty(n):
    """Yield the optimal moves of n disks, printing each first."""

    def go(k, a, b, c):
        if k:
            yield from go(k - 1, a, c, b)
            print(f"moving {(k, a, c)}")
            yield (k, a, c)
            yield from go(k - 1, b, a, c)

    yield from go(n, 0, 1, 2)
