//#Safe
// Declarations: types, synonyms, constants (unique), globals with where clauses,
// functions with and without bodies, attributes, axioms.
type Color;
type Grid = [int, int]Color;
type Row = [int]int;

const unique red: Color;
const unique green: Color;
const unique blue: Color;
const N: int;
const {:attr "x"} half: real;
axiom N > 0;
axiom half == 0.5;

var grid: Grid;
var row: Row where row[0] == 0;
var flag: bool, r: real;

function f(int) returns (int);
function {:inline true} g(x: int, y: int) returns (bool) { x < y || f(x) == y }
function h(x: int): int { if x > 0 then x else -x }
function {:overapproximation "bitwise"} band(a: int, b: int) returns (res: int);
function {:const_array} zeros(v: int) returns ([int]int);
axiom (forall x: int :: { f(x) } f(x) >= h(x));

procedure main()
  modifies grid, row, flag, r;
{
  var c: Color;
  c := grid[1, 2];
  grid[N, N] := red;
  assert grid[N][N] == red;
  assert red != green;
  flag := g(1, 2);
  row := zeros(0);
  assert row[5] == 0;
  r := half * 2.0 + real(N) / 3.0;
  assume band(N, N) == 0;
}
