/* libFuzzer: the Ethernet and VLAN decoder. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    struct dcb_reader r;
    if (!fuzz_begin(&f, &r, data, size, 0))
        return 0;
    bool ok = dcb_decode_eth(&r, &f);
    fuzz_check_result(ok, &r, &f);
    if (ok && rd_offset(&r) != 14u + 4u * f.nvlan)
        abort();
    return 0;
}
