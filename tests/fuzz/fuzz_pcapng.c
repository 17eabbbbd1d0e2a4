/* libFuzzer: the pcapng reader (collectors/pcapng) over a whole file held in memory. Every packet
 * it returns must lie inside its block and name a declared interface. */
#include <stdio.h>
#include <stdlib.h>

#include "pcapng.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    FILE *fp = fmemopen((void *)data, size, "rb");
    if (!fp)
        return 0;
    struct pcapng_reader r;
    struct pcapng_packet p;
    struct dcb_err err;
    if (pcapng_open(&r, fp, &err) == 0) {
        for (int n = 0; n < 10000 && pcapng_next(&r, &p, &err) == 1; n++) {
            if (p.iface >= r.niface || p.caplen > r.block_cap ||
                (p.caplen && (p.data < r.block || p.data + p.caplen > r.block + r.block_cap)))
                abort();
            if (p.ts_usec >= 1000000)
                abort();
        }
    }
    pcapng_close(&r);
    fclose(fp);
    return 0;
}
