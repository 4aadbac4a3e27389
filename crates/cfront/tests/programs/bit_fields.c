// expect: TRUE bitvector=TRUE
// Bit-fields: a store keeps the low bits (sign-extended for a signed field) and the other
// fields keep theirs; a bit-field of fewer than 32 bits is an `int` in an expression.
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
struct flags { unsigned ready : 1; unsigned mode : 3; int delta : 4; _Bool on : 1; };
int main(void) {
  struct flags f = { 1, 5, -3 };
  if (f.ready != 1 || f.mode != 5 || f.delta != -3 || f.on) reach_error();
  unsigned v = __VERIFIER_nondet_uint();
  f.mode = v;
  if (f.mode != v % 8 || f.ready != 1 || f.delta != -3) reach_error();
  f.delta = 7;
  f.delta++;
  if (f.delta != -8) reach_error();
  if ((f.ready = 2) != 0) reach_error();
  if (f.mode - 9 >= 0) reach_error();
  f.on = 4;
  if (!f.on) reach_error();
  return 0;
}
