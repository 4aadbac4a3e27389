// An asm statement has no meaning the verifier knows: UNKNOWN, naming it.
extern void reach_error(void);
int main(void) {
  int x = 1;
  __asm__ volatile("" : "+r"(x));
  if (x != 1) reach_error();
  return 0;
}
