// A packed struct has no padding: its layout is not modelled, so the program is UNKNOWN
// (never verified with the padded layout).
extern void reach_error(void);
struct __attribute__((packed)) header { char kind; int length; };
struct frame { char kind; int length; } __attribute__((packed));
int main(void) {
  if (sizeof(struct frame) != 5) reach_error();
  return 0;
}
