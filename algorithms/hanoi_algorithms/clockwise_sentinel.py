"""Smallest disc one step clockwise, then the one forced move.

Source: Derek Illchuk, "The Towers of Hanoi Puzzle: An Iterative Solution", Derek Illchuk's blog, 2010.
"""

from collections.abc import Iterator

from hanoi_algorithms.bitwise import ILLCHUK
from hanoi_harness.registry.record import FinalPeg
from hanoi_harness.registry.sources import register


class EmptyStackRead(ValueError, IndexError):
    """``back()`` of an empty ``vector``: undefined behaviour in the original."""


def next_stack(curr_stack: int) -> int:
    """Return the stack one step clockwise from *curr_stack*: 0 -> 1 -> 2 -> 0.

    >>> [next_stack(s) for s in (0, 1, 2)]
    [1, 2, 0]
    """
    return (curr_stack + 1) % 3


@register(
    name="clockwise_sentinel",
    summary="smallest disc clockwise, then the forced move; sentinel n+1 on every stack",
    source=ILLCHUK,
    family="iterative",
    min_n=1,
    min_n_reason="with no discs the first pop takes stack 0's sentinel and then reads back() of the empty stack",
    space="n",
    time="2^n",
    final_peg=FinalPeg(odd=1, even=2),
    pegs=(0, 1, 2),
)
def solve(n: int) -> Iterator[tuple[int, int, int]]:
    """Yield the moves ``(disc, from, to)`` of *n* discs from stack 0.

    >>> list(solve(2))
    [(1, 0, 1), (2, 0, 2), (1, 1, 2)]
    >>> list(solve(0))
    Traceback (most recent call last):
    ...
    hanoi_algorithms.clockwise_sentinel.EmptyStackRead: clockwise_sentinel: n = 0 reads the empty
    stack 0; n >= 1
    """
    if n < 0:
        raise ValueError(f"clockwise_sentinel: n must be >= 0, got {n}")
    num_discs = n
    stacks: list[list[int]] = []
    for _stack_id in range(3):
        stacks.append([num_discs + 1])  # sentinel to avoid empty-stack logic
    curr_stack = 0
    for disc in range(num_discs, 0, -1):
        stacks[curr_stack].append(disc)

    while True:
        # Smallest disc always moved one over.
        disc1 = stacks[curr_stack].pop()
        from1 = curr_stack
        curr_stack = next_stack(curr_stack)
        stacks[curr_stack].append(disc1)

        # Remaining move is forced.
        from_stack = next_stack(curr_stack)
        to_stack = next_stack(from_stack)
        try:
            larger = stacks[from_stack][-1] > stacks[to_stack][-1]
        except IndexError:
            empty = from_stack if not stacks[from_stack] else to_stack
            # back() of an empty vector: stack 0 lost its sentinel to the first pop (n = 0)
            raise EmptyStackRead(f"clockwise_sentinel: n = {n} reads the empty stack {empty}; n >= 1") from None
        if larger:
            from_stack, to_stack = to_stack, from_stack
        yield (disc1, from1, curr_stack)
        disc2 = stacks[from_stack].pop()
        if not stacks[from_stack]:  # we're done
            break
        stacks[to_stack].append(disc2)
        yield (disc2, from_stack, to_stack)
