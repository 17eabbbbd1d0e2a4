/* One decoded frame as a JSON object or a tcpdump-style line; see decode_print.h. */
#include <inttypes.h>
#include <stdio.h>

#include "decode_print.h"
#include "decode_print_layers.h"

void decode_print_frame(struct dcb_out *o, const struct decode_frame_meta *m,
                        const struct dcb_frame *f, const struct decode_print_opts *opts)
{
    char ts[32];
    snprintf(ts, sizeof(ts), "%" PRId64 ".%06" PRIu32, m->ts_sec, m->ts_usec);
    out_obj_open(o, NULL);
    out_u64(o, "frame", opts->verbose ? "%" PRIu64 " " : NULL, m->number);
    out_number(o, "ts", "%s", ts);
    out_u64(o, "caplen", NULL, f->caplen);
    out_u64(o, "len", NULL, f->len);
    if (!m->decoded) {
        out_u64(o, "linktype", ", link type %" PRIu64 " not decoded", (uint64_t)m->linktype);
    } else {
        if (f->layers & (DCB_L_ETH | DCB_L_SLL))
            print_eth(o, f, opts->verbose);
        if (f->layers & DCB_L_PAUSE)
            print_pause(o, f, opts->link_bps);
        if (f->layers & DCB_L_PFC)
            print_pfc(o, f, opts->link_bps);
        if (f->layers & DCB_L_MACCTL)
            out_u64(o, "macctl_opcode", ", MAC Control opcode 0x%04" PRIx64, f->macctl_opcode);
        if (f->layers & DCB_L_IP)
            print_ip_udp(o, f, opts->verbose);
        if (f->layers & DCB_L_BTH)
            print_roce(o, f, opts->verbose);
        if (f->layers & DCB_L_LLDP)
            print_lldp(o, f, opts->verbose);
        if (f->malformed[0])
            out_str(o, "malformed", ", malformed: %s", f->malformed);
    }
    out_text(o, ", length %" PRIu32 "\n", f->len);
    out_obj_close(o);
}
