"""A variant that crashes at its second move."""


def crashes(n):
    """Yield one move, then index a peg that does not exist."""
    pegs = [list(range(n, 0, -1)), [], []]
    pegs[2].append(pegs[0].pop())
    yield (1, 0, 2)
    pegs[3].append(pegs[0].pop())
    yield (2, 0, 3)
