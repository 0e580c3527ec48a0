/** Each move as a disk and the way it goes round a circle of three pegs: "1 left", "2 right". */
public class Directions {
    private static void moves(int n, boolean left) {
        if (n == 0) {
            return;
        }
        moves(n - 1, !left);
        if (left) {
            System.out.println(n + " left");
        } else {
            System.out.println(n + " right");
        }
        moves(n - 1, !left);
    }

    public static void main(String[] args) {
        moves(Integer.parseInt(args[0]), true);
    }
}
