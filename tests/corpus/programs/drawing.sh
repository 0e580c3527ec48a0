#!/usr/bin/env bash
# Shows the pegs as rows of disk numbers after each move, never the move itself.
declare -a peg0 peg1 peg2
show() {
    echo "A: ${peg0[*]}"
    echo "B: ${peg1[*]}"
    echo "C: ${peg2[*]}"
    echo "----"
}
move() {  # move FROM TO (peg numbers)
    local -n src=peg$1 dst=peg$2
    local top=${src[-1]}
    unset 'src[-1]'
    dst+=("$top")
}
hanoi() {
    local n=$1 a=$2 b=$3 c=$4
    ((n == 0)) && return
    hanoi $((n - 1)) "$a" "$c" "$b"
    move "$a" "$c"
    show
    hanoi $((n - 1)) "$b" "$a" "$c"
}
for ((d = $1; d >= 1; d--)); do peg0+=("$d"); done
show
hanoi "$1" 0 1 2
