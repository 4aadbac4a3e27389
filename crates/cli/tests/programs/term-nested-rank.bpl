// Terminates with a 2-nested ranking function (y decreases, and x decreases by y once y is
// negative) but no affine one (the integers are unbounded).
procedure main() {
  var x, y: int;
  while (x > 0) {
    x := x + y;
    y := y - 1;
  }
}
