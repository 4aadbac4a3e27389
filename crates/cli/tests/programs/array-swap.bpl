//#Safe
// Map updates and parallel assignment.
procedure main()
{
  var a : [int]int;
  var i, j, x, y : int;
  assume i != j;
  a[i] := 1;
  a[j] := 2;
  x, y := a[i], a[j];
  x, y := y, x;
  a := a[i := x][j := y];
  assert a[i] == 2 && a[j] == 1;
}
