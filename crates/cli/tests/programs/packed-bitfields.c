// GCC packs bit-fields of a packed struct across their units: that layout is not modelled, so
// the program is UNKNOWN (never verified with the unpacked layout).
extern void reach_error(void);
struct flags { unsigned char kind : 4; unsigned short length : 12; } __attribute__((packed));
int main(void) {
  if (sizeof(struct flags) != 2) reach_error();
  return 0;
}
