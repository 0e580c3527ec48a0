/* Writes each move as three bytes, DISK SRC DST, with pegs 0-2: binary, not text. */
#include <stdio.h>
#include <stdlib.h>

static void hanoi(int n, int a, int b, int c)
{
    if (n) {
        hanoi(n - 1, a, c, b);
        putchar(n);
        putchar(a);
        putchar(c);
        hanoi(n - 1, b, a, c);
    }
}

int main(int argc, char **argv)
{
    hanoi(atoi(argv[1]), 0, 1, 2);
    return 0;
}
