/* "#k" step numbers, sentences ending in a dot, and a total at the end. */
#include <stdio.h>
#include <stdlib.h>

static int count = 0;

void towers(int num, char frompeg, char topeg, char auxpeg)
{
    if (num == 1) {
        printf("#%d Move disk 1 from peg %c to peg %c.\n", ++count, frompeg, topeg);
        return;
    }
    towers(num - 1, frompeg, auxpeg, topeg);
    printf("#%d Move disk %d from peg %c to peg %c.\n", ++count, num, frompeg, topeg);
    towers(num - 1, auxpeg, topeg, frompeg);
}

int main(int argc, char **argv)
{
    int num = atoi(argv[1]);
    printf("The sequence of moves involved in the Tower of Hanoi are:\n");
    towers(num, 'A', 'C', 'B');
    printf("Total: %d moves.\n", count);
    return 0;
}
