// The handler chosen by the input is called through a pointer; one of them reaches the error.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
static void quiet(int code) { (void)code; }
static void loud(int code) {
  if (code == 7)
    reach_error();
}
static void dispatch(void (*handler)(int), int code) { handler(code); }
int main(void) {
  void (*handlers[2])(int) = {quiet, loud};
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 1)
    return 0;
  dispatch(handlers[k], __VERIFIER_nondet_int());
  return 0;
}
