// expect: UNKNOWN
// Reading an int through a char pointer is not supported by the typed memory model.
extern void reach_error(void);
int main(void) {
  int x = 0;
  char *p = (char *)&x;
  p[1] = 1;
  if (x == 0) reach_error();
  return 0;
}
