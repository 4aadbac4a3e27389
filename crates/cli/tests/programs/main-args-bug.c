// argv[argc] is a null pointer: reading the string it points to is an invalid dereference.
int main(int argc, char **argv) {
  return argv[argc][0];
}
