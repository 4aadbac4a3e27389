//#Safe
// Map updates and parallel assignment.
procedure main()
{
  var a : [int]int;
  var i, j, t : int;
  assume i != j;
  a[i] := 1;
  a[j] := 2;
  t := a[i];
  a[i], a[j] := a[j], t;
  assert a[i] == 2 && a[j] == 1;
}
