// expect: TRUE
// A function without definition may write the memory its pointer argument reaches, but not a
// variable whose address the program never takes, and the object stays valid.
extern void reach_error(void);
extern void fill(int *p);
int main(void) {
  int x = 0, y = 1;
  fill(&x);
  x = x + 1;
  if (y != 1)
    reach_error();
  return 0;
}
