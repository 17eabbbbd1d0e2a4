/* Prints one decoded frame through the text/JSON writer: a JSON object per frame (JSON Lines)
 * with the keys documented in `dcbkit help decode`, or one tcpdump-style text line, with the
 * decoded layers underneath when verbose. */
#ifndef DCB_DECODE_PRINT_H
#define DCB_DECODE_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "decode.h"
#include "out.h"

struct decode_frame_meta {
    uint64_t number; /* 1-based */
    int64_t ts_sec;
    uint32_t ts_usec;
    bool decoded; /* a link type the decoders know: f holds a decode */
    int linktype;
};

struct decode_print_opts {
    uint64_t link_bps; /* for quanta -> ns */
    bool verbose;
};

void decode_print_frame(struct dcb_out *o, const struct decode_frame_meta *m,
                        const struct dcb_frame *f, const struct decode_print_opts *opts);

#endif
