/* CRC-32 (the RoCE ICRC's) over an MTU-4096 payload and over a 64-byte ACK: the PCLMULQDQ
 * folding path against the portable slicing-by-8 path, in the same process. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "decode.h"

static double ns_per_byte(const uint8_t *buf, size_t len, int portable)
{
    dcb_crc32_force_portable(portable);
    size_t rounds = (64u << 20) / len;
    uint32_t sum = 0;
    int64_t start = bench_now_ns();
    for (size_t i = 0; i < rounds; i++)
        sum += dcb_crc32(0, buf, len);
    int64_t ns = bench_now_ns() - start;
    bench_sink += sum;
    dcb_crc32_force_portable(0);
    return (double)ns / (double)(rounds * len);
}

int main(void)
{
    static uint8_t buf[4096];
    for (size_t i = 0; i < sizeof(buf); i++)
        buf[i] = (uint8_t)(i * 131 + 7);
    static const size_t sizes[] = { 4096, 64 };
    for (size_t i = 0; i < 2; i++) {
        double fast = ns_per_byte(buf, sizes[i], 0), slow = ns_per_byte(buf, sizes[i], 1);
        printf("crc32 %4zu bytes: %.3f ns/byte (%.1f GB/s) with the CPU's best path, %.3f "
               "ns/byte slicing-by-8, %.1fx\n",
               sizes[i], fast, 1 / fast, slow, slow / fast);
    }
    return 0;
}
