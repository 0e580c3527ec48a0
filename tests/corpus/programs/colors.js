// Disks named by colour, pegs Start, Middle and Dest, and numbered steps.
const colors = ["red", "orange", "yellow", "green", "blue", "indigo", "violet", "black", "white", "grey"];
let step = 0;

function move(n, start, middle, dest) {
  if (n === 0) return;
  move(n - 1, start, dest, middle);
  step += 1;
  console.log(`Step ${step} : moving Disk ${colors[(n - 1) % colors.length]} from ${start} to ${dest}`);
  move(n - 1, middle, start, dest);
}

move(Number(process.argv[2]), "Start", "Middle", "Dest");
