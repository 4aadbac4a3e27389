// A table-driven checksum without inputs (2,048 rounds of bitwise operators to build the
// table): CRC-32 of "123456789" is 0xcbf43926, as gcc computes it; asserted to be one more.
extern void reach_error(void);
unsigned table[256];
int main(void) {
    for (unsigned i = 0; i < 256; i++) {
        unsigned c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        table[i] = c;
    }
    const char *s = "123456789";
    unsigned crc = 0xFFFFFFFFu;
    for (int i = 0; s[i]; i++)
        crc = (crc >> 8) ^ table[(crc ^ (unsigned char)s[i]) & 0xFF];
    if ((crc ^ 0xFFFFFFFFu) != 0xcbf43927u)
        reach_error();
    return 0;
}
