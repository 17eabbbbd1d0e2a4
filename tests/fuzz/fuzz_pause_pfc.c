/* libFuzzer: the MAC Control (PAUSE and PFC) decoder; the first 6 bytes are the destination
 * address it checks. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    struct dcb_reader r;
    if (!fuzz_begin(&f, &r, data, size, 6))
        return 0;
    memcpy(f.eth.dst, data, 6);
    bool ok = dcb_decode_macctl(&r, &f);
    fuzz_check_result(ok, &r, &f);
    if ((f.layers & DCB_L_PFC) && f.pfc.reserved_bits != ((f.pfc.enable_vector & 0xff00) != 0))
        abort();
    return 0;
}
