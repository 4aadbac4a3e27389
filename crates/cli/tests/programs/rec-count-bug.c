extern void reach_error(void);

int calls = 0;

int down(int n) {
  calls++;
  if (n <= 0)
    return 0;
  int r = down(n - 1);
  return r + 1;
}

int main(void) {
  int k = 3;
  int x = down(k);
  if (x != 3 || k != 3 || calls != 3)
    reach_error();
  return 0;
}
