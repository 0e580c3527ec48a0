"""Instructions per move, counted under valgrind's cachegrind."""
