//#Unsafe
// A recursive procedure whose summary relates its result to its parameter.
procedure Main(z: int);
free requires z >= 0;

implementation Main(z: int)
{
  var y: int;
  call y := UpDown(z);
  assert y == z + 1;
}

procedure UpDown(x: int) returns (res: int);

implementation UpDown(x: int) returns (res: int)
{
  res := x + 1;
  if (*) {
    call res := UpDown(res);
  }
  res := res - 1;
}
