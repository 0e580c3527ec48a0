# Lower-case pegs, a step counter with a colon, the disk, and a "-->" arrow.
function solve(k, a, b, c) {
    if (k > 0) {
        solve(k - 1, a, c, b)
        printf "%d: %d %s --> %s\n", ++moves, k, a, c
        solve(k - 1, b, a, c)
    }
}

BEGIN {
    print "hanoi(" ARGV[1] ")"
    solve(ARGV[1], "a", "b", "c")
    print "moves: " moves
    exit
}
