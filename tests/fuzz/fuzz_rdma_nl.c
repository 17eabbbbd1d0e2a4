/* libFuzzer: an RDMA netlink PORT_GET dump reply (the kernel's answer, parsed blind). */
#include <stdint.h>

#include "rdma_nl.h"

static void count(const struct rdma_nl_port *p, void *arg)
{
    (void)p;
    ++*(unsigned *)arg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned n = 0;
    rdma_nl_parse(data, size, count, &n);
    return 0;
}
