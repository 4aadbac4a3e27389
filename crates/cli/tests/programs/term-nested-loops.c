// Terminates: the inner loop runs up to x after each outer iteration. Its lassos enter the inner
// loop again after the outer loop went around, where the rank saved the last time it ran is stale.
extern int __VERIFIER_nondet_int(void);
int main() {
    int x = __VERIFIER_nondet_int();
    int y = 0;
    int c = 0;
    while (x > 0) {
        y = 0;
        while (y < x) {
            y = y + 1;
            c = c + 1;
        }
        x = x - 1;
    }
    return c;
}
