extern void reach_error(void);

int main(void) {
  int i = 0;
  int s = 0;
  while (i < 100) {
    s += i;
    i++;
  }
  if (s == 4950)
    reach_error();
  return 0;
}
