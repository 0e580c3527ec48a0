// All the moves on one line, separated by spaces: not one move a line.
const moves = [];
(function hanoi(n, a, b, c) {
  if (n) {
    hanoi(n - 1, a, c, b);
    moves.push(`${a}->${c}`);
    hanoi(n - 1, b, a, c);
  }
})(Number(process.argv[2]), "A", "B", "C");
console.log(moves.join(" "));
