// Does not terminate: when the outer loop reaches x == 5, the inner loop resets y forever.
extern int __VERIFIER_nondet_int(void);
int main() {
    int x = __VERIFIER_nondet_int();
    int y = 0;
    while (x > 0) {
        y = 0;
        while (y < x) {
            y = y + 1;
            if (x == 5) {
                y = 0;
            }
        }
        x = x - 1;
    }
    return 0;
}
