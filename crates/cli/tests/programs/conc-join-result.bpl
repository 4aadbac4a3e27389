// A joined thread's results are assigned by the join; the thread with id 2 returns 2.
procedure ULTIMATE.start()
{
  var r : int;
  fork 1 worker(1);
  fork 2 worker(2);
  join 2 assign r;
  assert r == 2;
  join 1 assign r;
  assert r == 2;
}

procedure worker(k : int) returns (res : int)
{
  res := k;
}
