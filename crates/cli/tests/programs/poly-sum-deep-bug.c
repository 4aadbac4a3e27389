// A bug behind a million iterations of a loop whose sum is quadratic in the number of
// iterations: the loop's closed form takes them at once.
extern void reach_error(void);

int main(void) {
  long long i = 0;
  long long s = 0;
  while (i < 1000000) {
    i++;
    s += i;
  }
  if (s == 500000500000LL)
    reach_error();
  return 0;
}
