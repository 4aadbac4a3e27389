// An increment and a doubling of one counter do not commute: the assertion fails only when the
// doubling comes first.
var x : int;

procedure ULTIMATE.start()
modifies x;
{
  x := 0;
  fork 1 up();
  fork 2,2 double();
  join 1;
  join 2,2;
  assert x != 1;
}

procedure up()
modifies x;
{
  x := x + 1;
}

procedure double()
modifies x;
{
  x := x * 2;
}
