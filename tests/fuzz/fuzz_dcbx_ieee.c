/* libFuzzer: the IEEE 802.1Qaz DCBX TLV decoder alone; the first byte picks the subtype. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    struct dcb_reader r;
    if (!fuzz_begin(&f, &r, data, size, 1))
        return 0;
    bool ok = dcb_decode_ieee_dcbx(&r, (uint8_t)(8 + data[0] % 6), &f.lldp, &f);
    fuzz_check_result(ok, &r, &f);
    if (f.lldp.ets_cfg.present && (f.lldp.ets_cfg.max_tcs == 0 || f.lldp.ets_cfg.max_tcs > 8))
        abort();
    return 0;
}
