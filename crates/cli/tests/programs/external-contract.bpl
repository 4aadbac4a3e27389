//#Safe
// A procedure without implementation is its contract: havoc the result, assume ensures.
procedure abs(a : int) returns (r : int);
  ensures r >= 0 && (r == a || r == -a);

procedure main()
{
  var x, y : int;
  call y := abs(x);
  assert y >= x;
}
