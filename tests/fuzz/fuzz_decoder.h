/* Shared by the per-decoder libFuzzer targets: runs one decoder over the input and checks what
 * every decoder promises: the reader never passes its end (ASan checks the reads), a false
 * result always comes with a reason, and the reason is a terminated string. */
#ifndef DCB_FUZZ_DECODER_H
#define DCB_FUZZ_DECODER_H

#include <stdlib.h>
#include <string.h>

#include "decode.h"

static inline void fuzz_check_result(bool ok, const struct dcb_reader *r, const struct dcb_frame *f)
{
    if (r->off > r->len)
        abort();
    if (memchr(f->malformed, '\0', sizeof(f->malformed)) == NULL)
        abort();
    if (!ok && f->malformed[0] == '\0')
        abort();
}

static inline void fuzz_reset(struct dcb_frame *f)
{
    memset(f, 0, sizeof(*f));
}

/* Resets f and points r past the first `selector` bytes of the input, which the target reads
 * itself; false when the input is shorter than that. */
static inline bool fuzz_begin(struct dcb_frame *f, struct dcb_reader *r, const uint8_t *data,
                              size_t size, size_t selector)
{
    if (size < selector)
        return false;
    fuzz_reset(f);
    rd_init(r, data + selector, size - selector);
    return true;
}

#endif
