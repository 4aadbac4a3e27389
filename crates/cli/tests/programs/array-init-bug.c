// FALSE: a[0] is 0, which the second loop rejects.
extern void reach_error(void);
int main() {
  int a[4];
  for (int i = 0; i < 4; i++)
    a[i] = 2 * i;
  for (int k = 0; k < 4; k++)
    if (a[k] < 1) reach_error();
  return 0;
}
