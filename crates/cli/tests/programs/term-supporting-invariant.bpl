// Terminates: x decreases because y stays negative (the supporting invariant y < 0).
procedure main()
{
  var x, y : int;
  y := -1;
  while (x > 0) {
    x := x + y;
  }
}
