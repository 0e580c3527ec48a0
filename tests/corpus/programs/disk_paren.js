// "A -> C (disk 2)": the disk in brackets after the pegs.
const n = Number(process.argv[2]);

function hanoi(k, from, via, to) {
  if (k === 0) return;
  hanoi(k - 1, from, to, via);
  console.log(`${from} -> ${to} (disk ${k})`);
  hanoi(k - 1, via, from, to);
}

console.log(`Solving for ${n} disks:`);
hanoi(n, "A", "B", "C");
