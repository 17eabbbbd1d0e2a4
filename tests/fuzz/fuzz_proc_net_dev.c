/* libFuzzer: /proc/net/dev text (from a --proc-root tree, or a support bundle). Every row the
 * parser hands out has a terminated, non-empty interface name of at most IFNAMSIZ - 1 bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proc_net_dev.h"

static void check_row(const struct proc_net_dev_row *row, void *arg)
{
    (void)arg;
    size_t n = strnlen(row->ifname, sizeof(row->ifname));
    if (n == 0 || n == sizeof(row->ifname) || strchr(row->ifname, ':'))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct dcb_err err;
    int bad = proc_net_dev_parse((const char *)data, size, check_row, NULL, &err);
    if (bad < 0 || (bad > 0 && !err.msg[0]))
        abort();
    return 0;
}
