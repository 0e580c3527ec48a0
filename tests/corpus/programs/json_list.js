// Collects [disk, from, to] triples and prints them as one JSON array.
function solve(n, a, b, c, out) {
  if (n > 0) {
    solve(n - 1, a, c, b, out);
    out.push([n, a, c]);
    solve(n - 1, b, a, c, out);
  }
  return out;
}

console.log(JSON.stringify(solve(Number(process.argv[2]), "A", "B", "C", [])));
