// The same extensions: the clamp lets 10 through, so the doubled value can be 20.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
typedef struct { int lo, hi; } __attribute__((may_alias)) range_t;
static __inline int clamp(const range_t *__restrict r, int v) {
  return v < r->lo ? r->lo : v > r->hi ? r->hi : v;
}
int main(void) {
  range_t r = { 0, 10 };
  int c = clamp(&r, __extension__ __VERIFIER_nondet_int());
  __typeof__(c) d = ({ int t = c; t * 2; });
  if (d == 20) reach_error();
  return 0;
}
