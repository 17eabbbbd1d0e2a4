/* libFuzzer: the CEE / CIN DCBX sub-TLV decoder alone; the first byte picks the flavour. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    struct dcb_reader r;
    if (!fuzz_begin(&f, &r, data, size, 1))
        return 0;
    bool ok = dcb_decode_cee_dcbx(&r, (uint8_t)(1 + (data[0] & 1)), &f.lldp.cee, &f);
    fuzz_check_result(ok, &r, &f);
    for (int i = 0; i < f.lldp.cee.napp; i++) {
        if (f.lldp.cee.app[i].sel > 3)
            abort();
    }
    return 0;
}
