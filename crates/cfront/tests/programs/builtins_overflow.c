// expect: TRUE
// GCC's overflow builtins compute the exact result, store it wrapped and tell whether it fit.
extern int __lamp_any_i32();
int main(void) {
  int r;
  int x = __lamp_any_i32();
  if (x < 2) return 0;
  _Bool o = __builtin_sadd_overflow(2147483647, x, &r);
  //@ assert o;
  unsigned int u;
  _Bool p = __builtin_umul_overflow(2147483647u, 3u, &u);
  //@ assert p && u == 2147483645u;
  _Bool q = __builtin_add_overflow(1, 2, &r);
  //@ assert !q && r == 3;
  return 0;
}
