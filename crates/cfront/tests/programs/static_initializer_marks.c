// expect: TRUE properties=default,valid-memsafety
// Initializers of statics take the addresses of functions and string literals too.
extern void reach_error(void);
static int inc(int x) { return x + 1; }
struct ops {
  int (*f)(int);
  const char *name;
};
struct ops table[2] = {{inc, "inc"}, {0, "none"}};
const char *greeting = "hello";
int main(void) {
  if (table[0].f(1) != 2)
    reach_error();
  if (table[1].name[1] != 'o' || greeting[4] != 'o')
    reach_error();
  return 0;
}
