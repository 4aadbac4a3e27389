// A bug behind 100000 iterations of a loop that also computes a value no condition reads
// (`s`, non-linear in the input `junk`): slicing drops `s`, and the loop left has a closed form.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main() {
  int n = __VERIFIER_nondet_int();
  int junk = __VERIFIER_nondet_int();
  int i = 0, s = 0;
  while (i < 100000) {
    s = s * junk + i;
    i++;
  }
  if (n == 42 && i == 100000) {
    reach_error();
  }
  return s;
}
