//#Safe
// Expressions: every operator, map select / update (nested and multi-index), quantifiers
// with triggers, if-then-else, casts, decimal and big literals.
var a: [int][int]int;
var m: [int, int]bool;

procedure exprs(i: int, j: int, p: bool, q: bool, x: real) returns (res: int)
  modifies a, m;
{
  var b: [int]int;
  var k: int;
  a[i][j] := 7;
  m[i, j] := true;
  b := a[i][j := 8];
  assert a[i][j] == 7 && b[j] == 8;
  assert (p <==> q) ==> (p ==> q) ==> (q <== p);
  assert p || !p;
  assert i + j - i * j == i + j - j * i;
  assert (i div 2) + (i mod 2) >= 0 || i < 0;
  assert 7 % 3 == 1 && 7 / 2 == 3 && -7 / 2 == -4;
  assert x / 2.0 * 2.0 == x;
  assert int(2.5) == 2 && real(3) == 3.0;
  assert i != j || i >= j && i <= j;
  assert i > j || i <= j;
  assert (forall u: int, v: int :: {a[u][v]} a[u][v] == a[u][v]);
  assert (exists u: int :: u == i);
  assert (if p then 1 else 2) > 0;
  assert 123456789012345678901234567890 > 0;
  assert 1.5e2 == 150.0;
  k, res := res, k;
  assert old(a)[i] == old(a[i]);
}
