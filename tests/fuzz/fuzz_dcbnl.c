/* libFuzzer: the attributes of a DCB netlink reply (a driver's answer, parsed blind). */
#include <stdint.h>

#include "dcbnl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct qos_config c;
    qos_config_init(&c);
    struct dcbnl_pfc_counters pfc = { 0 };
    dcbnl_parse_ieee(data, size, &c, &pfc, NULL);
    return 0;
}
