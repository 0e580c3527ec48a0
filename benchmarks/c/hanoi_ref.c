/* hanoi_ref: the per-move C generator that `hanoi moves NAME N --binary` is timed against.
 *
 * Usage: hanoi_ref N > moves.bin      (0 <= N <= 63)
 *
 * Writes the optimal N-disk solution from peg 0 to peg 2 as three unsigned
 * bytes per move (disk, src, dst; disk 1 the smallest): the format of
 * `hanoi moves NAME N --binary`.  One move at a time, by the bit formula:
 * move m (1-based) carries disk ctz(m) + 1 from peg (m & (m - 1)) % 3 to
 * peg ((m | (m - 1)) + 1) % 3.  The formula ends on peg 2 when N is odd and
 * on peg 1 when N is even, so pegs 1 and 2 are exchanged for even N.
 *
 * Two ways to write, chosen when compiling:
 *   default           one fwrite of 3 bytes per move, into stdio's buffer;
 *   -DGATHER_WRITES   the moves gathered in a 48 KiB array, one fwrite each
 *                     time it is full (no stdio call per move).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s N (0 <= N <= 63)\n", argv[0]);
        return 2;
    }
    char *end;
    long n = strtol(argv[1], &end, 10);
    if (*end != '\0' || end == argv[1] || n < 0 || n > 63) {
        fprintf(stderr, "%s: N must be an integer from 0 to 63\n", argv[0]);
        return 2;
    }
    const unsigned char swap[3] = {0, 2, 1};
    const int even = (n % 2 == 0);
    const uint64_t total = (n == 0) ? 0 : (UINT64_C(1) << n) - 1;
#ifdef GATHER_WRITES
    static unsigned char buf[3 * 16384];
    size_t used = 0;
#endif
    for (uint64_t m = 1; m <= total; m++) {
        unsigned src = (unsigned)((m & (m - 1)) % 3);
        unsigned dst = (unsigned)(((m | (m - 1)) + 1) % 3);
        unsigned char move[3];
        move[0] = (unsigned char)(__builtin_ctzll(m) + 1);
        move[1] = even ? swap[src] : (unsigned char)src;
        move[2] = even ? swap[dst] : (unsigned char)dst;
#ifdef GATHER_WRITES
        buf[used] = move[0];
        buf[used + 1] = move[1];
        buf[used + 2] = move[2];
        used += 3;
        if (used == sizeof buf) {
            if (fwrite(buf, 1, used, stdout) != used) {
                return 1;
            }
            used = 0;
        }
#else
        if (fwrite(move, 1, 3, stdout) != 3) {
            return 1;
        }
#endif
    }
#ifdef GATHER_WRITES
    if (used && fwrite(buf, 1, used, stdout) != used) {
        return 1;
    }
#endif
    return fflush(stdout) == 0 ? 0 : 1;
}
