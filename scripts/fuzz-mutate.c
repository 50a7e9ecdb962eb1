/* fuzz-mutate SEED_FILE OUT_FILE NUMBER: writes SEED_FILE with a few random mutations chosen by
 * NUMBER (the same NUMBER gives the same file, so a finding can be made again). The mutations
 * are the ones that break parsers: flipped bits, "interesting" bytes and 32-bit values (0, -1,
 * sign edges, the file's size), a duplicated or removed chunk, a truncation. Written in C because
 * the run is a loop of thousands of files and a shell cannot edit bytes cheaply. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state;
static uint32_t next(void) { /* xorshift64*: fast, reproducible, good enough to pick offsets */
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return (uint32_t)((state * 2685821657736338717ULL) >> 32);
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: fuzz-mutate SEED OUT NUMBER\n"); return 2; }
    FILE *in = fopen(argv[1], "rb");
    if (!in) { perror(argv[1]); return 1; }
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    size_t capacity = (size_t)size * 2 + 65536, length = (size_t)size;
    uint8_t *data = malloc(capacity);
    if (!data || fread(data, 1, length, in) != length) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    fclose(in);
    state = strtoull(argv[3], NULL, 10) * 0x9E3779B97F4A7C15ULL + 1;
    int mutations = 1 + (int)(next() % 8);
    for (int m = 0; m < mutations && length > 8; m++) {
        size_t at = next() % length;
        switch (next() % 7) {
        case 0: data[at] ^= (uint8_t)(1u << (next() % 8)); break;
        case 1: { static const uint8_t bytes[] = { 0, 0xff, 0x7f, 0x80, 0x01, 0xfe };
                  data[at] = bytes[next() % sizeof bytes]; break; }
        case 2: if (at + 4 <= length) {
                    const uint32_t values[] = { 0, 0xffffffffu, 0x7fffffffu, 0x80000000u, (uint32_t)length, 1 };
                    uint32_t v = values[next() % 6];
                    if (next() % 2) v = __builtin_bswap32(v); /* big-endian boxes and little-endian chunks */
                    memcpy(data + at, &v, 4);
                } break;
        case 3: data[at] = (uint8_t)next(); break;
        case 4: { size_t n = 1 + next() % 512; /* duplicate a chunk in place */
                  if (at + n <= length && length + n <= capacity) {
                      memmove(data + at + n, data + at, length - at); length += n;
                  } } break;
        case 5: { size_t n = 1 + next() % 512; /* remove a chunk */
                  if (at + n <= length) { memmove(data + at, data + at + n, length - at - n); length -= n; } } break;
        case 6: if (next() % 4 == 0) length = at; break; /* truncate, now and then */
        }
    }
    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(data, 1, length, out) != length || fclose(out) != 0) { perror(argv[2]); return 1; }
    free(data);
    return 0;
}
