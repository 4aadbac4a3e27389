// expect: TRUE
// An anonymous union inside a struct: the struct lives in memory, the members overlap.
extern void reach_error(void);
struct S { int tag; union { int i; unsigned char b[4]; }; };
int main(void) { struct S s; s.tag = 1; s.i = 258; if (s.b[0] != 2 || s.b[1] != 1) reach_error(); return 0; }
