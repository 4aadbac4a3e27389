//#Unsafe
// Control flow: if / else if / else, nondeterministic guards, while with invariants,
// break (plain and labelled), goto with several targets, labels, return.
procedure control(n: int) returns (r: int)
  requires n >= 0;
  ensures r >= 0;
  free ensures r < 1000;
{
  var i, j: int;
  i := 0;
  if (n == 0) {
    r := 0;
    return;
  } else if (n == 1) {
    r := 1;
  } else if (*) {
    r := 2;
  } else {
    r := 3;
  }
  while (i < n)
    invariant i <= n;
    free invariant i >= 0;
  {
    i := i + 1;
    if (i == 5) { break; }
  }
  outer: while (*)
    invariant r >= 0;
  {
    j := 0;
    while (true) {
      j := j + 1;
      if (j > 3) { break outer; }
    }
  }
  goto L1, L2;
L1:
  assume r > 0;
  goto L3;
L2:
  assert {:msg "fails"} r > 10;
L3:
  return;
}
