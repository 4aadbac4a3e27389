// Five threads of one procedure run at once (more than the default four instances); main
// joins them all.
var x: int;

procedure worker() returns()
modifies x;
{
  x := x + 1;
}

procedure ULTIMATE.start() returns()
modifies x;
{
  var i: int;
  x := 0;
  i := 0;
  while (i < 5) {
    fork i worker();
    i := i + 1;
  }
  i := 0;
  while (i < 5) {
    join i;
    i := i + 1;
  }
  assert x <= 5;
}
