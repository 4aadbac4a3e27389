// A pointer made from an integer makes every address comparison an over-approximation (where
// objects are is not modelled); this path's comparisons are of an object with the null
// pointer, which the model decides exactly, so the error is reached whatever the choices.
extern void reach_error(void);
int g;
int main(void) {
    int *q = (int *)8;
    int *p = &g;
    if (q == (int *)8 && p != 0)
        reach_error();
    return 0;
}
