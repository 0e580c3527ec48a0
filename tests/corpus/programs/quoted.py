"""Quoted peg letters, as a course's program prints them; argv[2] gives the letters (e.g. SAD or ABC)."""

import sys


def tower(n, src, aux, dst):
    if n == 1:
        print(f"Move the disk 1 from '{src}' to '{dst}'")
        return
    tower(n - 1, src, dst, aux)
    print(f"Move the disk {n} from '{src}' to '{dst}'")
    tower(n - 1, aux, src, dst)


if __name__ == "__main__":
    s, a, d = sys.argv[2]
    tower(int(sys.argv[1]), s, a, d)
