//#Safe
// Procedures: separate declaration and implementation with different parameter names,
// free contracts, modifies, calls with and without results, old(), shadowing of globals.
var g: int;
var x: int;

procedure inc(a: int) returns (b: int);
  requires a >= 0;
  free requires a < 100;
  modifies g;
  ensures b == a + 1;
  ensures g == old(g) + a;

implementation inc(p: int) returns (q: int)
{
  q := p + 1;
  g := g + p;
}

procedure swap(u: int, v: int) returns (s: int, t: int)
  ensures s == v && t == u;
{
  s, t := v, u;
}

procedure noop();

procedure main()
  modifies g;
{
  var x: bool;
  var y, z: int;
  x := true;
  call y := inc(3);
  call y, z := swap(y, 1);
  call noop();
  havoc y, z;
  assert x;
}

procedure decl_only(k: int) returns (m: int);
  ensures m > k;

// The implementation swaps the declaration's parameter names: the contract follows positions.
procedure rename(b, a: int) returns (d, c: int);
  requires b >= 0;
  ensures c == a + 1;

implementation rename(a, b: int) returns (c, d: int)
{
  assert a >= 0;
  d := b + 1;
}

// old() of a parameter is the parameter itself; a parameter named like a global is renamed.
procedure oldparam(x: int) returns (r: int)
  modifies g;
  ensures r == old(x) + old(g);
{
  r := x + g;
}
