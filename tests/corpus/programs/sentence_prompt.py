"""Tower of Hanoi that asks for the number of disks: the prompt ends up stuck to the first move line."""


def hanoi(n, source, target, spare, moves):
    if n == 0:
        return
    hanoi(n - 1, source, spare, target, moves)
    print(f"Move disk {n} from {source} to {target}")
    moves.append(n)
    hanoi(n - 1, spare, target, source, moves)


if __name__ == "__main__":
    count = int(input("Enter the number of disks: "))
    done = []
    hanoi(count, "A", "C", "B", done)
    print(f"Total moves: {len(done)}")
