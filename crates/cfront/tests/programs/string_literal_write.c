// expect: FALSE(valid-deref) properties=default,valid-memsafety
// A string literal is read-only: writing into it is invalid.
int main(void) {
  char *s = "abc";
  s[1] = 'x';
  return 0;
}
