// expect: FALSE(unreach-call)
// A failing static assertion is reported as a violation (as Ultimate does).
int main(void) {
  _Static_assert(1 == 0, "fails");
  return 0;
}
