/* The bounded reader against raw unchecked pointer reads, on the same PFC frames, in the same
 * process: frames/s for each and the ratio. The frames are synthetic 60-byte PFC frames with
 * the layout of decoders.md section 2.1. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "reader.h"

#define FRAME_LEN 60
#define NFRAMES 4096
#define ROUNDS 2000

static uint8_t frames[NFRAMES][FRAME_LEN];

static void make_frames(void)
{
    static const uint8_t head[] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01, /* DA */
                                    0x02, 0x00, 0x00, 0x00, 0x00, 0x01, /* SA */
                                    0x88, 0x08, 0x01, 0x01 };           /* MAC control, PFC */
    for (int i = 0; i < NFRAMES; i++) {
        memset(frames[i], 0, FRAME_LEN);
        memcpy(frames[i], head, sizeof(head));
        frames[i][16] = 0;
        frames[i][17] = (uint8_t)(1u << (i % 8)); /* enable vector */
        for (int p = 0; p < 8; p++) {
            frames[i][18 + 2 * p] = (uint8_t)(i >> 8);
            frames[i][19 + 2 * p] = (uint8_t)i;
        }
    }
}

/* What a PFC decoder reads: addresses, type, opcode, vector and eight quanta. */
static uint64_t parse_checked(const uint8_t *f, size_t len)
{
    struct dcb_reader r;
    rd_init(&r, f, len);
    const uint8_t *da = rd_bytes(&r, 6);
    rd_skip(&r, 6);
    uint16_t type = rd_be16(&r);
    uint16_t opcode = rd_be16(&r);
    uint16_t vector = rd_be16(&r);
    uint64_t sum = 0;
    for (int p = 0; p < 8; p++)
        sum += rd_be16(&r);
    if (!rd_ok(&r) || !da)
        return 0;
    return sum + type + opcode + vector + da[5];
}

static uint64_t parse_raw(const uint8_t *f, size_t len)
{
    (void)len;
    uint16_t type = (uint16_t)(f[12] << 8 | f[13]);
    uint16_t opcode = (uint16_t)(f[14] << 8 | f[15]);
    uint16_t vector = (uint16_t)(f[16] << 8 | f[17]);
    uint64_t sum = 0;
    for (int p = 0; p < 8; p++)
        sum += (uint16_t)(f[18 + 2 * p] << 8 | f[19 + 2 * p]);
    return sum + type + opcode + vector + f[5];
}

static double run(uint64_t (*parse)(const uint8_t *, size_t), uint64_t *check)
{
    uint64_t sum = 0;
    int64_t start = bench_now_ns();
    for (int round = 0; round < ROUNDS; round++)
        for (int i = 0; i < NFRAMES; i++)
            sum += parse(frames[i], FRAME_LEN);
    int64_t ns = bench_now_ns() - start;
    *check = sum;
    bench_sink += sum;
    return (double)NFRAMES * ROUNDS * 1e9 / (double)ns;
}

int main(void)
{
    make_frames();
    uint64_t c1, c2;
    run(parse_checked, &c1); /* warm up */
    double raw = run(parse_raw, &c2);
    double checked = run(parse_checked, &c1);
    if (c1 != c2) {
        fprintf(stderr,
                "bench_reader: checked and raw parses disagree (%" PRIu64 " vs %" PRIu64 ")\n", c1,
                c2);
        return 1;
    }
    printf("reader: %.1f M PFC frames/s bounded, %.1f M frames/s raw pointer reads, ratio %.2f\n",
           checked / 1e6, raw / 1e6, checked / raw);
    return 0;
}
