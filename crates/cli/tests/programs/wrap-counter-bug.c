// An unsigned counter that wraps after 2^32 - 1 iterations: the loop is accelerated where the
// counter does not wrap, and the wrap is one more iteration.
extern void reach_error(void);

int main(void) {
  unsigned int c = 1;
  unsigned long long n = 0;
  while (c > 0) {
    c++;
    n++;
  }
  if (n == 4294967295ULL)
    reach_error();
  return 0;
}
