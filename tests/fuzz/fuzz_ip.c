/* libFuzzer: the IPv4/IPv6 decoder; the first byte picks the EtherType it was reached by. The
 * payload reader it returns must lie inside the input. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    struct dcb_reader r, payload;
    if (!fuzz_begin(&f, &r, data, size, 1))
        return 0;
    f.eth.type = (data[0] & 1) ? DCB_ETHERTYPE_IPV6 : DCB_ETHERTYPE_IPV4;
    bool ok = dcb_decode_ip(&r, &f, &payload);
    fuzz_check_result(ok, &r, &f);
    if (ok && payload.len && (payload.base < data || payload.base + payload.len > data + size))
        abort();
    if (ok && (f.ip.dscp > 63 || f.ip.ecn > 3))
        abort();
    return 0;
}
