/* Pegs X, Y and Z, a counter and the disk before the arrow. */
#include <stdio.h>
#include <stdlib.h>

static long step;

static void move(int disk, char a, char b, char c)
{
    if (disk < 1)
        return;
    move(disk - 1, a, c, b);
    printf("%ld. disk %d: %c => %c\n", ++step, disk, a, c);
    move(disk - 1, b, a, c);
}

int main(int argc, char *argv[])
{
    move(atoi(argv[1]), 'X', 'Y', 'Z');
    return 0;
}
