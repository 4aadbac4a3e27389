// A procedure without implementation: its contract is assumed by callers, and there is no
// execution to check, so the program is correct.
var g: int;

procedure inc();
  modifies g;
  ensures g == old(g) + 1;
