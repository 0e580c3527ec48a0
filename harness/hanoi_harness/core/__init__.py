"""The pure core: the puzzle, its rules and optimal counts, legality, verdicts, the checker.

Nothing here starts a process or touches a file."""
