// Two threads update one counter: their statements write the same variable, yet every order
// ends with the same value (the updates commute concretely).
var x : int;

procedure ULTIMATE.start()
modifies x;
{
  x := 0;
  fork 1 up();
  fork 2,2 down();
  join 1;
  join 2,2;
  assert x == 0;
}

procedure up()
modifies x;
{
  x := x + 1;
  x := x + 2;
}

procedure down()
modifies x;
{
  x := x - 2;
  x := x - 1;
}
