//#Safe
// A call is inlined; the callee's postcondition holds and the caller relies on its body.
var g : int;

procedure inc(a : int) returns (r : int)
  requires a >= 0;
  ensures r > a;
  modifies g;
{
  r := a + 1;
  g := g + r;
}

procedure main()
  modifies g;
{
  var y : int;
  g := 0;
  call y := inc(5);
  assert y == 6 && g == 6;
}
