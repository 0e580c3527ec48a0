#!/usr/bin/perl
# Pegs named after the roles of the call: "from", "via" and "to".
use strict;
use warnings;

sub hanoi {
    my ($n, $from, $via, $to) = @_;
    return if $n == 0;
    hanoi($n - 1, $from, $to, $via);
    print "Move disk $n from $from to $to\n";
    hanoi($n - 1, $via, $from, $to);
}

hanoi($ARGV[0], "from", "via", "to");
