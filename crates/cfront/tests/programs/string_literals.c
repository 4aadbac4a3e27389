// expect: TRUE
// String literals are null-terminated char arrays in memory (a byte above 127 is a negative
// `char`); an array initialized by one is a copy that may be written.
extern void reach_error(void);
int main(void) {
  const char *s = "hi!";
  if (s[0] != 'h' || s[2] != '!' || s[3] != 0)
    reach_error();
  if (sizeof "hi!" != 4)
    reach_error();
  unsigned n = 0;
  while (s[n])
    n++;
  if (n != 3)
    reach_error();
  char buf[] = "ok";
  buf[0] = 'O';
  if (buf[0] != 'O' || buf[1] != 'k')
    reach_error();
  const char *t = "\xff";
  if (t[0] != (char)-1 || *"hi!" != 'h')
    reach_error();
  return 0;
}
