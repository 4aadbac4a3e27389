// A counter bit-field of two bits wraps at 4: it no longer counts the ticks.
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
struct status { unsigned ready : 1; unsigned error : 1; unsigned count : 2; int level : 8; };
int main(void) {
  struct status s = { 1, 0, 0, -5 };
  unsigned n = __VERIFIER_nondet_uint() % 10;
  for (unsigned i = 0; i < n; i++) s.count++;
  if (s.count != n) reach_error();
  return 0;
}
