// expect: TRUE
// Compound literals of struct and scalar types as values: assigned, passed, returned.
extern void reach_error(void);
struct P {
  int x, y;
};
static int sum(struct P p) { return p.x + p.y; }
static struct P swap(struct P p) { return (struct P){.x = p.y, .y = p.x}; }
int main(void) {
  struct P r = (struct P){1, 2};
  if (r.y != 2 || sum((struct P){3, 4}) != 7)
    reach_error();
  r = swap(r);
  if (r.x != 2 || r.y != 1)
    reach_error();
  int k = (int){5} + 1;
  if (k != 6)
    reach_error();
  return 0;
}
