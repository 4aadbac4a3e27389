//#Unsafe
// Off by one: after the loop x == n, so x < n fails.
procedure main()
{
  var x, n : int;
  assume n >= 0;
  x := 0;
  while (x < n) {
    x := x + 1;
  }
  assert x < n;
}
