/* Disks and pegs numbered from 0, as array indexes: the smallest disk is disk 0. */
#include <stdio.h>
#include <stdlib.h>

static void solve(int k, int src, int dst, int tmp)
{
    if (k < 0)
        return;
    solve(k - 1, src, tmp, dst);
    printf("Move disk %d from %d to %d\n", k, src, dst);
    solve(k - 1, tmp, dst, src);
}

int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    solve(n - 1, 0, 2, 1);
    return 0;
}
