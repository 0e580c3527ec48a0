"""Reading the moves other programs print: text in, model moves and a verdict out."""
