// expect: FALSE(unreach-call) bitvector=FALSE(unreach-call)
// As alloca_scalars.c, but the loop stops one short: the error at line 15 is reachable.
extern void reach_error(void);
#include <alloca.h>

int main(void) {
    int *i = alloca(sizeof(int));
    int *s = alloca(sizeof(int));
    *i = 0;
    *s = 0;
    while (*i < 9) {
        (*i)++;
        *s += *i;
    }
    if (*i != 10) reach_error();
    return *s;
}
