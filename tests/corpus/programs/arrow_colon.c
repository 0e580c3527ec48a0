/* Prints "A -> C : 2": the pegs first, then the disk that moves. */
#include <stdio.h>
#include <stdlib.h>

static void hanoi(int n, char from, char via, char to)
{
    if (n == 0)
        return;
    hanoi(n - 1, from, to, via);
    printf("%c -> %c : %d\n", from, to, n);
    hanoi(n - 1, via, from, to);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 3;
    printf("Tower of Hanoi with %d disks\n\n", n);
    hanoi(n, 'A', 'B', 'C');
    return 0;
}
