// A thread that runs a recursive procedure: not supported (UNKNOWN, never TRUE).
var g : int;

procedure ULTIMATE.start()
modifies g;
{
  fork 1 worker(3);
  join 1;
  assert g >= 0;
}

procedure worker(n : int)
modifies g;
{
  if (n > 0) {
    g := g + 1;
    call worker(n - 1);
  }
}
