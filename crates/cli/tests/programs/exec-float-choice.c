// Under integer semantics a double is not modelled: the comparison's outcome is a choice, and
// the error behind it is no counterexample (0.1 * 3 is 0.30000000000000004 in IEEE doubles,
// so under bit-vector semantics it is one).
extern void reach_error(void);
int main(void) {
    double d = 0.1;
    if (d * 3 > 0.3)
        reach_error();
    return 0;
}
