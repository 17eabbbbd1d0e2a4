/* pcapng blocks (draft-ietf-opsawg-pcapng): Section Header, Interface Description, Enhanced
 * and Simple Packet blocks; the others are skipped. */
#include "pcapng.h"

#include <stdlib.h>
#include <string.h>

#include "reader.h"

#define BLOCK_SHB 0x0A0D0D0Au
#define BLOCK_IDB 1u
#define BLOCK_SPB 3u
#define BLOCK_EPB 6u
#define BYTE_ORDER_MAGIC 0x1A2B3C4Du
#define OPT_END 0
#define OPT_IF_TSRESOL 9
#define USEC_PER_SEC 1000000u

static uint32_t rd_u32_order(struct dcb_reader *r, bool little_endian)
{
    return little_endian ? rd_le32(r) : rd_be32(r);
}

static uint16_t rd_u16_order(struct dcb_reader *r, bool little_endian)
{
    return little_endian ? rd_le16(r) : rd_be16(r);
}

/* Reads one whole block into r->block; *type and *body_len describe it. 0 at a clean end. */
static int read_block(struct pcapng_reader *r, uint32_t *type, size_t *body_len,
                      struct dcb_err *err)
{
    uint8_t head[12];
    size_t got = fread(head, 1, 8, r->fp);
    if (got == 0 && feof(r->fp))
        return 0;
    if (got != 8)
        return dcb_err_set(err, DCB_E_TRUNC, "pcapng: the file ends inside a block header");
    struct dcb_reader hr;
    rd_init(&hr, head, 8);
    *type = rd_u32_order(&hr, r->little_endian);
    if (*type == BLOCK_SHB) {
        /* A new section may change the byte order: its magic follows the length. */
        if (fread(head + 8, 1, 4, r->fp) != 4)
            return dcb_err_set(err, DCB_E_TRUNC, "pcapng: the file ends inside a section header");
        rd_init(&hr, head + 8, 4);
        uint32_t magic = rd_le32(&hr);
        if (magic != BYTE_ORDER_MAGIC && magic != __builtin_bswap32(BYTE_ORDER_MAGIC))
            return dcb_err_set(err, DCB_E_INVAL, "pcapng: bad byte-order magic");
        r->little_endian = magic == BYTE_ORDER_MAGIC;
    }
    rd_init(&hr, head + 4, 4);
    uint32_t total = rd_u32_order(&hr, r->little_endian);
    size_t already = *type == BLOCK_SHB ? 12 : 8;
    if (total < 12 + (already - 8) || total % 4 || total > PCAPNG_MAX_BLOCK)
        return dcb_err_set(err, DCB_E_INVAL, "pcapng: block length %u is not valid", total);
    if (r->block_cap < total) {
        uint8_t *grown = realloc(r->block, total);
        if (!grown)
            return dcb_err_set(err, DCB_E_NOMEM, "pcapng: no memory for a %u-byte block", total);
        r->block = grown;
        r->block_cap = total;
    }
    memcpy(r->block, head + 8, already - 8);
    size_t rest = total - already;
    if (fread(r->block + (already - 8), 1, rest, r->fp) != rest)
        return dcb_err_set(err, DCB_E_TRUNC, "pcapng: the file ends inside a block");
    *body_len = total - 12; /* without type, length and trailing length */
    return 1;
}

static uint64_t ticks_from_tsresol(uint8_t v)
{
    unsigned exp = v & 0x7f;
    if (v & 0x80)
        return exp < 64 ? (uint64_t)1 << exp : 0;
    uint64_t ticks = 1;
    for (unsigned i = 0; i < exp; i++) {
        if (ticks > UINT64_MAX / 10)
            return 0;
        ticks *= 10;
    }
    return ticks;
}

static int parse_idb(struct pcapng_reader *r, struct dcb_reader *body, struct dcb_err *err)
{
    if (r->niface == PCAPNG_MAX_IFACES)
        return dcb_err_set(err, DCB_E_RANGE, "pcapng: more than %d interfaces", PCAPNG_MAX_IFACES);
    struct pcapng_iface *i = &r->iface[r->niface];
    i->linktype = rd_u16_order(body, r->little_endian);
    rd_skip(body, 2);
    i->snaplen = rd_u32_order(body, r->little_endian);
    i->ticks_per_sec = USEC_PER_SEC;
    while (rd_remaining(body) >= 4) {
        uint16_t code = rd_u16_order(body, r->little_endian);
        uint16_t len = rd_u16_order(body, r->little_endian);
        if (code == OPT_END)
            break;
        struct dcb_reader value;
        if (!rd_sub(body, len, &value) || !rd_skip(body, (4u - len % 4) % 4))
            break; /* options cut short: keep what was read */
        if (code == OPT_IF_TSRESOL && len == 1) {
            i->ticks_per_sec = ticks_from_tsresol(rd_u8(&value));
            if (!i->ticks_per_sec)
                return dcb_err_set(err, DCB_E_UNSUPP, "pcapng: unsupported if_tsresol");
        }
    }
    if (!rd_ok(body) && body->fail_off < 8)
        return dcb_err_set(err, DCB_E_INVAL, "pcapng: interface description too short");
    r->niface++;
    return 0;
}

/* A coarse if_tsresol (1 tick a second, say) turns a 64-bit tick count into more seconds than an
 * int64_t holds: those saturate at INT64_MAX, which capture_file refuses as out of range. */
static void set_time(const struct pcapng_iface *i, uint64_t ticks, struct pcapng_packet *p)
{
    uint64_t sec = ticks / i->ticks_per_sec;
    p->ts_sec = sec > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)sec;
    unsigned __int128 frac = ticks % i->ticks_per_sec;
    p->ts_usec = (uint32_t)(frac * USEC_PER_SEC / i->ticks_per_sec);
    p->ts_nsec = (uint32_t)(frac * 1000000000u / i->ticks_per_sec);
}

static int parse_epb(struct pcapng_reader *r, struct dcb_reader *body, struct pcapng_packet *p,
                     struct dcb_err *err)
{
    p->iface = rd_u32_order(body, r->little_endian);
    uint64_t hi = rd_u32_order(body, r->little_endian);
    uint64_t lo = rd_u32_order(body, r->little_endian);
    p->caplen = rd_u32_order(body, r->little_endian);
    p->len = rd_u32_order(body, r->little_endian);
    p->data = rd_bytes(body, p->caplen);
    if (!rd_ok(body))
        return dcb_err_set(err, DCB_E_INVAL, "pcapng: packet block shorter than its packet");
    if (p->iface >= r->niface)
        return dcb_err_set(err, DCB_E_INVAL, "pcapng: packet on undeclared interface %u", p->iface);
    p->linktype = r->iface[p->iface].linktype;
    set_time(&r->iface[p->iface], hi << 32 | lo, p);
    return 1;
}

static int parse_spb(struct pcapng_reader *r, struct dcb_reader *body, struct pcapng_packet *p,
                     struct dcb_err *err)
{
    if (r->niface == 0)
        return dcb_err_set(err, DCB_E_INVAL, "pcapng: simple packet before any interface");
    p->iface = 0;
    p->len = rd_u32_order(body, r->little_endian);
    uint32_t have = (uint32_t)rd_remaining(body);
    uint32_t snap = r->iface[0].snaplen ? r->iface[0].snaplen : UINT32_MAX;
    p->caplen = p->len < have ? p->len : have;
    if (p->caplen > snap)
        p->caplen = snap;
    p->data = rd_bytes(body, p->caplen);
    if (!rd_ok(body))
        return dcb_err_set(err, DCB_E_INVAL, "pcapng: simple packet block too short");
    p->linktype = r->iface[0].linktype;
    p->ts_sec = 0;
    p->ts_usec = 0;
    p->ts_nsec = 0;
    return 1;
}

int pcapng_open(struct pcapng_reader *r, FILE *fp, struct dcb_err *err)
{
    memset(r, 0, sizeof(*r));
    r->fp = fp;
    uint8_t first[4];
    if (fread(first, 1, 4, fp) != 4 || memcmp(first, "\x0a\x0d\x0d\x0a", 4) != 0)
        return dcb_err_set(err, DCB_E_INVAL, "not a pcapng file");
    return fseek(fp, -4, SEEK_CUR) == 0
               ? 0
               : dcb_err_set(err, DCB_E_IO, "pcapng: cannot seek in the file");
}

int pcapng_next(struct pcapng_reader *r, struct pcapng_packet *p, struct dcb_err *err)
{
    for (;;) {
        uint32_t type = 0;
        size_t body_len = 0;
        int rc = read_block(r, &type, &body_len, err);
        if (rc <= 0)
            return rc;
        struct dcb_reader body;
        rd_init(&body, r->block, body_len);
        if (type == BLOCK_SHB) {
            r->niface = 0; /* interfaces are numbered per section */
        } else if (type == BLOCK_IDB) {
            if ((rc = parse_idb(r, &body, err)) < 0)
                return rc;
        } else if (type == BLOCK_EPB) {
            return parse_epb(r, &body, p, err);
        } else if (type == BLOCK_SPB) {
            return parse_spb(r, &body, p, err);
        }
    }
}

void pcapng_close(struct pcapng_reader *r)
{
    free(r->block);
    r->block = NULL;
    r->block_cap = 0;
}
