/* libFuzzer: a whole Ethernet frame through dcb_decode_frame, with a capture length that may be
 * shorter than the wire length. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    fuzz_reset(&f);
    bool ok = dcb_decode_frame(data, (uint32_t)size, (uint32_t)size + (size & 7), &f);
    if (!ok && f.malformed[0] == '\0')
        abort();
    if ((f.layers & DCB_L_ICRC) && !(f.layers & DCB_L_BTH))
        abort();
    if (dcb_verify_icrc(data, &f) && !f.icrc.checked)
        abort();
    if (f.nvlan > DCB_MAX_VLAN || f.lldp.napp > DCB_MAX_IEEE_APP ||
        f.lldp.cee.napp > DCB_MAX_CEE_APP)
        abort();
    return 0;
}
