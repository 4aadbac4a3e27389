//#Unsafe
// The call passes a negative argument although the callee requires a >= 0.
procedure callee(a : int) returns (r : int)
  requires a >= 0;
{
  r := a;
}

procedure main()
{
  var y, z : int;
  z := 3;
  call y := callee(z - 5);
}
