// expect: FALSE(valid-deref) properties=default,valid-memsafety
// An address made from an integer is no object's: reading through it is invalid.
int main(void) {
  int *p = (int *)0x1000;
  return *p;
}
