// expect: TRUE bitvector=TRUE
// Arrays (multi-dimensional, of structs), struct members, initializers, struct copies.
extern void __VERIFIER_assert(int cond);
struct point { int x; int y; };
struct point origin = { 0, 0 };
int g[5] = { 1, 2, 3 };
struct point mk(int a, int b) { struct point p; p.x = a; p.y = b; return p; }
int sum(struct point p) { return p.x + p.y; }
int main(void) {
  int m[2][3] = { {1, 2, 3}, {4, 5, 6} };
  struct point ps[4] = { [1] = { 7, 8 } };
  __VERIFIER_assert(m[1][2] == 6 && m[0][1] == 2);
  __VERIFIER_assert(ps[1].y == 8 && ps[2].x == 0);
  __VERIFIER_assert(g[2] == 3 && g[4] == 0);
  struct point q = mk(3, 4);
  __VERIFIER_assert(sum(q) == 7);
  q = origin;
  __VERIFIER_assert(q.x == 0);
  ps[0] = q;
  ps[0].x += 5;
  __VERIFIER_assert(ps[0].x == 5);
  char s[] = "hi";
  __VERIFIER_assert(sizeof(s) == 3 && s[1] == 'i' && s[2] == 0);
  return 0;
}
