/* The C library functions Tracery verifies through their code: the standard's definitions,
   written for the model (no locale: the "C" locale's character classes). A program's own
   definition of one of these names replaces it. Byte functions view objects through
   `unsigned char *`, which the front end accepts only where memory holds characters. */

unsigned long strlen(const char *s) {
  unsigned long n = 0;
  while (s[n] != 0)
    n++;
  return n;
}

unsigned long strnlen(const char *s, unsigned long max) {
  unsigned long n = 0;
  while (n < max && s[n] != 0)
    n++;
  return n;
}

int strcmp(const char *a, const char *b) {
  while (*a != 0 && *a == *b) {
    a++;
    b++;
  }
  return (int)(unsigned char)*a - (int)(unsigned char)*b;
}

int strncmp(const char *a, const char *b, unsigned long n) {
  for (; n > 0; n--, a++, b++) {
    if (*a != *b || *a == 0)
      return (int)(unsigned char)*a - (int)(unsigned char)*b;
  }
  return 0;
}

char *strcpy(char *dst, const char *src) {
  unsigned long k = 0;
  while ((dst[k] = src[k]) != 0)
    k++;
  return dst;
}

char *strncpy(char *dst, const char *src, unsigned long n) {
  unsigned long k = 0;
  for (; k < n && src[k] != 0; k++)
    dst[k] = src[k];
  for (; k < n; k++)
    dst[k] = 0;
  return dst;
}

char *strcat(char *dst, const char *src) {
  strcpy(dst + strlen(dst), src);
  return dst;
}

char *strncat(char *dst, const char *src, unsigned long n) {
  char *end = dst + strlen(dst);
  unsigned long k = 0;
  for (; k < n && src[k] != 0; k++)
    end[k] = src[k];
  end[k] = 0;
  return dst;
}

char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c)
      return (char *)s;
    if (*s == 0)
      return 0;
  }
}

char *strrchr(const char *s, int c) {
  const char *last = 0;
  for (;; s++) {
    if (*s == (char)c)
      last = s;
    if (*s == 0)
      return (char *)last;
  }
}

char *strstr(const char *hay, const char *needle) {
  unsigned long n = strlen(needle);
  for (; *hay != 0; hay++) {
    if (strncmp(hay, needle, n) == 0)
      return (char *)hay;
  }
  return n == 0 ? (char *)hay : 0;
}

void *memset(void *p, int c, unsigned long n) {
  unsigned char *b = p;
  for (unsigned long k = 0; k < n; k++)
    b[k] = (unsigned char)c;
  return p;
}

void *memcpy(void *dst, const void *src, unsigned long n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (unsigned long k = 0; k < n; k++)
    d[k] = s[k];
  return dst;
}

void *memmove(void *dst, const void *src, unsigned long n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (d < s) {
    for (unsigned long k = 0; k < n; k++)
      d[k] = s[k];
  } else {
    for (unsigned long k = n; k > 0; k--)
      d[k - 1] = s[k - 1];
  }
  return dst;
}

int memcmp(const void *p, const void *q, unsigned long n) {
  const unsigned char *a = p;
  const unsigned char *b = q;
  for (unsigned long k = 0; k < n; k++) {
    if (a[k] != b[k])
      return a[k] - b[k];
  }
  return 0;
}

void *memchr(const void *p, int c, unsigned long n) {
  const unsigned char *s = p;
  for (unsigned long k = 0; k < n; k++) {
    if (s[k] == (unsigned char)c)
      return (void *)(s + k);
  }
  return 0;
}

int isdigit(int c) { return c >= '0' && c <= '9'; }
int isupper(int c) { return c >= 'A' && c <= 'Z'; }
int islower(int c) { return c >= 'a' && c <= 'z'; }
int isalpha(int c) { return isupper(c) || islower(c); }
int isalnum(int c) { return isalpha(c) || isdigit(c); }
int isxdigit(int c) { return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
int isprint(int c) { return c >= ' ' && c <= '~'; }
int ispunct(int c) { return isprint(c) && c != ' ' && !isalnum(c); }
int toupper(int c) { return islower(c) ? c - 'a' + 'A' : c; }
int tolower(int c) { return isupper(c) ? c - 'A' + 'a' : c; }

/* stdlib.h: conversions. The value accumulates as unsigned long (no signed overflow in the
   model); out of range, strtol gives LONG_MAX or LONG_MIN (errno is not modelled) and atoi
   the conversion of that value (the standard leaves it undefined). */

long strtol(const char *s, char **end, int base) {
  const long max = sizeof(long) == 4 ? 2147483647L : 9223372036854775807L;
  const char *p = s;
  while (isspace(*p))
    p++;
  int negative = *p == '-';
  if (*p == '-' || *p == '+')
    p++;
  if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit(p[2])) {
    p += 2;
    base = 16;
  } else if (base == 0) {
    base = p[0] == '0' ? 8 : 10;
  }
  unsigned long limit = negative ? (unsigned long)max + 1 : (unsigned long)max;
  unsigned long v = 0;
  int digits = 0, over = 0;
  for (;; p++) {
    int d = isdigit(*p) ? *p - '0' : islower(*p) ? *p - 'a' + 10 : isupper(*p) ? *p - 'A' + 10 : 36;
    if (d >= base)
      break;
    digits = 1;
    if (v > (limit - d) / base)
      over = 1;
    else
      v = v * base + d;
  }
  if (end != 0)
    *end = (char *)(digits ? p : s);
  if (over)
    return negative ? -max - 1 : max;
  return negative ? (long)(0 - v) : (long)v;
}

int atoi(const char *s) { return (int)strtol(s, 0, 10); }

long atol(const char *s) { return strtol(s, 0, 10); }

/* stdio.h's streams: a stream is an object of the library (neither heap nor stack: a stream
   left open is no leak), stdin, stdout and stderr three of them. Each function that takes a
   stream accesses it (a null or dangling stream is an invalid access); fopen may fail; reads
   give arbitrary input and may end or fail at any point. */

struct __tracery_stream {
  int used;
};

void *__tracery_object(unsigned long long size);

void __tracery_use_stream(void *stream) { ((struct __tracery_stream *)stream)->used = 1; }

void *fopen(const char *path, const char *mode) {
  char first = *path + *mode; /* both must be strings: their first characters are read */
  if (__VERIFIER_nondet_int())
    return 0;
  return __tracery_object(sizeof(struct __tracery_stream));
}

int fclose(void *stream) {
  __tracery_use_stream(stream);
  return __VERIFIER_nondet_int() ? 0 : -1;
}

int fgetc(void *stream) {
  __tracery_use_stream(stream);
  int c = __VERIFIER_nondet_int();
  __VERIFIER_assume(c >= -1 && c <= 255);
  return c;
}

int getc(void *stream) { return fgetc(stream); }

int feof(void *stream) {
  __tracery_use_stream(stream);
  return __VERIFIER_nondet_int() ? 1 : 0;
}

int ferror(void *stream) { return feof(stream); }

unsigned long fread(void *p, unsigned long size, unsigned long n, void *stream) {
  __tracery_use_stream(stream);
  unsigned long items = __VERIFIER_nondet_ulong();
  __VERIFIER_assume(items <= n);
  unsigned char *bytes = p;
  for (unsigned long i = 0; i < items * size; i++)
    bytes[i] = __VERIFIER_nondet_uchar();
  return items;
}

/* a line of input, each character arbitrary; the input may end (or fail) before any
   character is read (NULL, the buffer untouched) or after any of them. */

char *fgets(char *s, int n, void *stream) {
  __tracery_use_stream(stream);
  if (n <= 0 || __VERIFIER_nondet_int())
    return 0;
  int k = 0;
  while (k < n - 1) {
    char c = __VERIFIER_nondet_char();
    s[k++] = c;
    if (c == '\n' || __VERIFIER_nondet_int())
      break;
  }
  s[k] = 0;
  return s;
}

/* strings.h: the position (from 1) of the least significant bit set, 0 for none (a narrower
   argument extends to the same lowest bit). */

int ffsll(long long i) {
  unsigned long long u = (unsigned long long)i;
  if (u == 0)
    return 0;
  int r = 1;
  while ((u & 1) == 0) {
    u = u >> 1;
    r++;
  }
  return r;
}

int ffsl(long i) { return ffsll(i); }

int ffs(int i) { return ffsll(i); }

/* stdlib.h: sorting and searching through the program's comparison function. qsort is an
   insertion sort (stable, one of the orders the standard allows for equal elements); bsearch
   a binary search (which of several equal elements it finds is one the standard allows). */

void qsort(void *base, unsigned long n, unsigned long size, int (*cmp)(const void *, const void *)) {
  unsigned char *b = base;
  for (unsigned long i = 1; i < n; i++) {
    for (unsigned long j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--) {
      for (unsigned long k = 0; k < size; k++) {
        unsigned char t = b[(j - 1) * size + k];
        b[(j - 1) * size + k] = b[j * size + k];
        b[j * size + k] = t;
      }
    }
  }
}

void *bsearch(const void *key, const void *base, unsigned long n, unsigned long size, int (*cmp)(const void *, const void *)) {
  const unsigned char *b = base;
  unsigned long lo = 0, hi = n;
  while (lo < hi) {
    unsigned long mid = lo + (hi - lo) / 2;
    int c = cmp(key, b + mid * size);
    if (c == 0)
      return (void *)(b + mid * size);
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return 0;
}

/* stdlib.h: the functions atexit registers, called in the reverse order of their registration
   when the program ends by exit or by returning from main (C11 7.22.4.2, 7.22.4.4), not by
   abort or _Exit. The standard requires room for 32; a further registration fails. The
   front end calls __tracery_exit_handlers at those ends of a program that names atexit. */

struct __tracery_handlers {
  int count;
  void (*f[32])(void);
};

struct __tracery_handlers *__tracery_handler_list(void) {
  static struct __tracery_handlers list;
  return &list;
}

int atexit(void (*f)(void)) {
  struct __tracery_handlers *h = __tracery_handler_list();
  if (h->count == 32)
    return -1;
  h->f[h->count++] = f;
  return 0;
}

void __tracery_exit_handlers(void) {
  struct __tracery_handlers *h = __tracery_handler_list();
  while (h->count > 0)
    h->f[--h->count]();
}

/* main's arguments as the hosted environment passes them (C11 5.1.2.2.1): `n` strings that
   live until the program ends, of any length and contents, and a null pointer after them.
   __tracery_object allocates an object that is neither heap nor stack (its size in 64 bits:
   under ILP32, (n + 1) * 4 does not fit an unsigned long for n near INT_MAX). */

char **__tracery_strings(int n) {
  char **v = __tracery_object(((unsigned long long)n + 1) * sizeof(char *));
  for (int i = 0; i < n; i++) {
    unsigned long size = __VERIFIER_nondet_ulong();
    __VERIFIER_assume(size >= 1);
    char *s = __tracery_object(size);
    s[size - 1] = 0;
    v[i] = s;
  }
  v[n] = 0;
  return v;
}
