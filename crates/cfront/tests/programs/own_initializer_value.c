// expect: UNKNOWN
// An initializer that reads the object it initializes reads an indeterminate value: unsupported.
extern void reach_error(void);
int main(void) {
  int y = y + 1;
  if (y == 0)
    reach_error();
  return 0;
}
