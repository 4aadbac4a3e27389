// A library function without a model that receives a function may call it: the callback's
// assertion could fail, so the program is not proved (UNKNOWN, never TRUE).
#include <ftw.h>
extern void reach_error(void);
int calls = 0;
int visit(const char *path, const struct stat *sb, int flag) {
  calls++;
  if (calls > 1)
    reach_error();
  return 0;
}
int main(void) {
  ftw(".", visit, 4);
  return 0;
}
