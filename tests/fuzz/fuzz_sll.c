/* libFuzzer: a frame behind a Linux cooked header (SLL or SLL2, picked by the first byte),
 * through dcb_decode_link_frame. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    if (size < 1)
        return 0;
    int linktype = (data[0] & 1) ? DCB_LINKTYPE_LINUX_SLL2 : DCB_LINKTYPE_LINUX_SLL;
    fuzz_reset(&f);
    bool ok = dcb_decode_link_frame(linktype, data + 1, (uint32_t)(size - 1), (uint32_t)size, &f);
    if (!ok && f.malformed[0] == '\0')
        abort();
    if ((f.layers & DCB_L_SLL) && (f.layers & DCB_L_ETH))
        abort();
    dcb_verify_icrc(data + 1, &f);
    return 0;
}
