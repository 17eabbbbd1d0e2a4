/* libFuzzer: the LLDP TLV walk, with the IEEE and CEE DCBX decoders behind it. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    struct dcb_reader r;
    if (!fuzz_begin(&f, &r, data, size, 0))
        return 0;
    bool ok = dcb_decode_lldp(&r, &f);
    fuzz_check_result(ok, &r, &f);
    const struct dcb_lldp *l = &f.lldp;
    const struct dcb_bytes *views[] = { &l->chassis_id, &l->port_id, &l->port_desc, &l->sysname,
                                        &l->mgmt_addr };
    for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
        const struct dcb_bytes *b = views[i];
        if (b->ptr && (b->ptr < data || b->ptr + b->len > data + size))
            abort();
    }
    return 0;
}
