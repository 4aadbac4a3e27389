// expect: TRUE properties=default,valid-memsafety
// The library's string, byte and character functions, from their models.
#include <ctype.h>
#include <string.h>
extern void reach_error(void);
int main(void) {
  char buf[8];
  strcpy(buf, "abc");
  if (strlen(buf) != 3 || strcmp(buf, "abc") != 0 || strcmp(buf, "abd") >= 0)
    reach_error();
  strcat(buf, "de");
  if (strlen(buf) != 5 || buf[4] != 'e')
    reach_error();
  if (strchr(buf, 'c') != buf + 2 || strchr(buf, 'z') != 0)
    reach_error();
  if (!isdigit('7') || isalpha('7') || toupper('q') != 'Q')
    reach_error();
  char copy[8];
  memcpy(copy, buf, 6);
  if (memcmp(copy, buf, 6) != 0 || strncmp(copy, "abx", 2) != 0)
    reach_error();
  return 0;
}
