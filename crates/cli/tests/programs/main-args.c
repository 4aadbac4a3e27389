// main's first parameter is at least 1 (C11 5.1.2.2.1).
extern void reach_error(void);
int main(int argc, char *argv[]) {
  if (argc < 1)
    reach_error();
  return 0;
}
