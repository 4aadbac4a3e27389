// The name the input picks is read character by character; one of them reaches the error.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  const char *names[] = {"ant", "bee", "cat"};
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 2)
    return 0;
  const char *s = names[k];
  if (s[0] == 'b' && s[1] == 'e')
    reach_error();
  return 0;
}
