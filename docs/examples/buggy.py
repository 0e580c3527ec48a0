"""A variant whose second move puts a disk on a smaller one."""


def buggy(n):
    """Yield the smallest disk to peg 2, then the next disk onto it."""
    yield (1, 0, 2)
    yield (2, 0, 2)
