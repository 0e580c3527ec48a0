/* Bare numbers, "DISK SRC DST", pegs counted from argv[2] (0 or 1). */
#include <stdio.h>
#include <stdlib.h>

static int first;

static void hanoi(int n, int a, int b, int c)
{
    if (n) {
        hanoi(n - 1, a, c, b);
        printf("%d %d %d\n", n, a + first, c + first);
        hanoi(n - 1, b, a, c);
    }
}

int main(int argc, char **argv)
{
    first = atoi(argv[2]);
    hanoi(atoi(argv[1]), 0, 1, 2);
    return 0;
}
