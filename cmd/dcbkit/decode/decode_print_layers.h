/* The per-layer printers behind decode_print_frame (decode_print_*.c). */
#ifndef DCB_DECODE_PRINT_LAYERS_H
#define DCB_DECODE_PRINT_LAYERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "out.h"

void fmt_mac(const uint8_t *mac, char *buf, size_t len);
void print_eth(struct dcb_out *o, const struct dcb_frame *f, bool verbose);
void print_pause(struct dcb_out *o, const struct dcb_frame *f, uint64_t link_bps);
void print_pfc(struct dcb_out *o, const struct dcb_frame *f, uint64_t link_bps);
void print_ip_udp(struct dcb_out *o, const struct dcb_frame *f, bool verbose);
void print_roce(struct dcb_out *o, const struct dcb_frame *f, bool verbose);
void print_lldp(struct dcb_out *o, const struct dcb_frame *f, bool verbose);

#endif
