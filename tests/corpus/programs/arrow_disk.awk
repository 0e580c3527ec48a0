# Long arrows and the disk after the pegs: "A -----> C 2".
function hanoi(n, from, via, to) {
    if (n == 0)
        return
    hanoi(n - 1, from, to, via)
    printf "%s -----> %s %d\n", from, to, n
    hanoi(n - 1, via, from, to)
}

BEGIN {
    hanoi(ARGV[1] + 0, "A", "B", "C")
    exit
}
