// A bug behind a million iterations: found through the accelerated loop in a few refinements.
procedure main() {
  var x, y: int;
  x := 0;
  y := 7;
  while (x < 1000000) {
    x := x + 2;
  }
  assert x != 1000000 || y != 7;
}
