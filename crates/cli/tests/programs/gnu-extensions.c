// GNU extensions that do not change the meaning: attributes on functions, variables and
// types, __extension__, __restrict, __inline, asm labels, statement expressions, typeof.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
typedef struct { int lo, hi; } __attribute__((may_alias)) range_t;
static __inline int clamp(const range_t *__restrict r, int v) __attribute__((always_inline));
static __inline int clamp(const range_t *__restrict r, int v) {
  return v < r->lo ? r->lo : v > r->hi ? r->hi : v;
}
extern int renamed(int) __asm__("renamed_impl");
int renamed(int x) { return x + 1; }
int main(void) {
  __attribute__((unused)) int unused = 0;
  range_t r = { 0, 10 };
  int v = __extension__ __VERIFIER_nondet_int();
  int c = clamp(&r, v);
  __typeof__(c) d = ({ int t = c; t * 2; });
  if (d < 0 || d > 20 || renamed(c) < 1) reach_error();
  return 0;
}
