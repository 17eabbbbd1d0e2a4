/* A small pcapng reader for what libpcap 1.10 refuses: a section whose interfaces have different
 * link types. dcbkit decode reads files through libpcap and switches to this reader only after
 * libpcap stops at such an interface (see cmd_decode.c). The file is untrusted: every block is
 * parsed through the bounded reader, and blocks are capped in size. */
#ifndef DCB_PCAPNG_H
#define DCB_PCAPNG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "err.h"

#define PCAPNG_MAX_IFACES 256
#define PCAPNG_MAX_BLOCK (16u << 20)

struct pcapng_iface {
    uint16_t linktype;
    uint32_t snaplen;
    uint64_t ticks_per_sec; /* from if_tsresol; 1,000,000 by default */
};

struct pcapng_reader {
    FILE *fp;
    bool little_endian;
    uint8_t *block; /* the current block, reused */
    size_t block_cap;
    unsigned niface;
    struct pcapng_iface iface[PCAPNG_MAX_IFACES];
};

struct pcapng_packet {
    unsigned iface;
    uint16_t linktype;
    int64_t ts_sec;
    uint32_t ts_usec;
    uint32_t ts_nsec; /* the same fraction of the second in nanoseconds */
    uint32_t caplen, len;
    const uint8_t *data; /* valid until the next pcapng_next */
};

/* Starts reading fp (positioned at a Section Header Block); 0 or a negative DCB_E_* code. */
int pcapng_open(struct pcapng_reader *r, FILE *fp, struct dcb_err *err);
/* 1 with *p filled, 0 at the end of the file, or a negative DCB_E_* code with err set. */
int pcapng_next(struct pcapng_reader *r, struct pcapng_packet *p, struct dcb_err *err);
/* Frees the block buffer; does not close fp. */
void pcapng_close(struct pcapng_reader *r);

#endif
