/** Pegs named Source, Auxiliary and Target, in sentences. */
public class SourceTarget {
    static void solve(int disks, String source, String auxiliary, String target) {
        if (disks == 1) {
            System.out.println("Move disk 1 from " + source + " to " + target);
            return;
        }
        solve(disks - 1, source, target, auxiliary);
        System.out.println("Move disk " + disks + " from " + source + " to " + target);
        solve(disks - 1, auxiliary, source, target);
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        System.out.println("Moves for " + n + " disks:");
        solve(n, "Source", "Auxiliary", "Target");
    }
}
