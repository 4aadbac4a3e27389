// x takes the values 5 and -3 by turns as long as the loop runs: the search of paths returns to
// the state it started the loop in after two iterations, and so ends.
var x: int;

procedure main()
modifies x;
{
  x := 5;
  while (*) {
    x := 2 - x;
  }
  assert x == -3 || x == 5;
}
