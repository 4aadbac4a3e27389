// expect: FALSE(valid-deref)
// A pointer to a local of a function that returned.
int *escape(void) { int x = 3; return &x; }
int main(void) {
  int *p = escape();
  return *p;
}
