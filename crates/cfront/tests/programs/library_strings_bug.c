// expect: FALSE(valid-deref) properties=default,valid-memsafety
// `strncpy` does not terminate a string that fills the buffer: `strlen` reads beyond it.
#include <string.h>
int main(void) {
  char buf[3];
  strncpy(buf, "abc", 3);
  return (int)strlen(buf);
}
