#!/usr/bin/env bash
# Disk and pegs as three words: "1 start end", pegs start/middle/end.
hanoi() {
    local n=$1 from=$2 via=$3 to=$4
    ((n == 0)) && return
    hanoi $((n - 1)) "$from" "$to" "$via"
    echo "$n $from $to"
    hanoi $((n - 1)) "$via" "$from" "$to"
}
hanoi "$1" start middle end
