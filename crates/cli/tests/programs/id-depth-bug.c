// The error needs the input 200: a recursion two hundred calls deep on a symbolic value.
extern void reach_error(void);
extern unsigned int __VERIFIER_nondet_uint(void);

unsigned int id(unsigned int x) {
  if (x == 0)
    return 0;
  return id(x - 1) + 1;
}

int main(void) {
  unsigned int input = __VERIFIER_nondet_uint();
  if (id(input) == 200)
    reach_error();
  return 0;
}
