// A device status register as bit-fields: setting one field leaves the others as they were.
extern void reach_error(void);
extern unsigned __VERIFIER_nondet_uint(void);
struct status { unsigned ready : 1; unsigned error : 1; unsigned count : 6; int level : 8; };
void tick(struct status *s) {
  if (s->count < 63) s->count++;
  else s->error = 1;
}
int main(void) {
  struct status s = { 1, 0, 0, -5 };
  unsigned n = __VERIFIER_nondet_uint() % 100;
  for (unsigned i = 0; i < n; i++) tick(&s);
  if (s.ready != 1 || s.level != -5) reach_error();
  if (s.error && s.count != 63) reach_error();
  return 0;
}
