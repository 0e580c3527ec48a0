"""Reading the moves other programs print: text in, moves and verdict out."""
