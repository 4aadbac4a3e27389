// A signed sum of a counter overflows when the counter reaches 65536.
int main(void) {
  int i = 0;
  int s = 0;
  while (i < 1000000) {
    i++;
    s += i;
  }
  return s;
}
