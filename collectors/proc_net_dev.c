#include "proc_net_dev.h"

#include <stdbool.h>
#include <string.h>

#include "reader.h"

const char *const proc_net_dev_names[PROC_NET_DEV_FIELDS] = {
    "rx_bytes",       "rx_packets", "rx_errors",  "rx_drop",       "rx_fifo_errors", "rx_frame",
    "rx_compressed",  "multicast",  "tx_bytes",   "tx_packets",    "tx_errors",      "tx_dropped",
    "tx_fifo_errors", "collisions", "tx_carrier", "tx_compressed",
};

static bool is_space(uint8_t c)
{
    return c == ' ' || c == '\t';
}

static void skip_spaces(struct dcb_reader *r)
{
    while (rd_has(r, 1) && is_space(rd_peek_u8(r, 0)))
        rd_skip(r, 1);
}

/* One unsigned decimal number of at most 20 digits that fits in 64 bits. */
static bool read_u64(struct dcb_reader *r, uint64_t *out)
{
    uint64_t v = 0;
    int digits = 0;
    while (rd_has(r, 1)) {
        uint8_t c = rd_peek_u8(r, 0);
        if (c < '0' || c > '9')
            break;
        if (v > (UINT64_MAX - (uint64_t)(c - '0')) / 10)
            return false;
        v = v * 10 + (uint64_t)(c - '0');
        rd_skip(r, 1);
        digits++;
    }
    *out = v;
    return digits > 0;
}

/* The line in r: "name: 16 numbers". Returns NULL when well-formed, or what is wrong. */
static const char *parse_line(struct dcb_reader *r, struct proc_net_dev_row *row)
{
    skip_spaces(r);
    size_t n = 0;
    while (rd_has(r, 1) && rd_peek_u8(r, 0) != ':' && !is_space(rd_peek_u8(r, 0))) {
        uint8_t c = rd_u8(r);
        if (c < 0x21 || c == 0x7f || c == '/') /* what dev_valid_name() refuses */
            return "a byte no interface name has";
        if (n + 1 >= sizeof(row->ifname))
            return "interface name too long";
        row->ifname[n++] = (char)c;
    }
    row->ifname[n] = '\0';
    if (n == 0)
        return "no interface name";
    if (!rd_has(r, 1) || rd_u8(r) != ':')
        return "no ':' after the interface name";
    for (int i = 0; i < PROC_NET_DEV_FIELDS; i++) {
        skip_spaces(r);
        if (!read_u64(r, &row->values[i]))
            return rd_remaining(r) ? "a counter that is not an unsigned decimal number"
                                   : "fewer than 16 counters";
    }
    skip_spaces(r);
    return rd_remaining(r) ? "more than 16 counters, or junk after them" : NULL;
}

int proc_net_dev_parse(const char *text, size_t len, proc_net_dev_fn fn, void *arg,
                       struct dcb_err *err)
{
    int bad = 0;
    size_t line_no = 0;
    size_t pos = 0;
    while (pos < len) {
        const char *start = text + pos;
        const char *nl = memchr(start, '\n', len - pos);
        size_t line_len = nl ? (size_t)(nl - start) : len - pos;
        pos += line_len + (nl ? 1 : 0);
        line_no++;
        if (line_len && start[line_len - 1] == '\r')
            line_len--;
        if (memchr(start, '|', line_len))
            continue; /* the two header lines */
        struct dcb_reader r;
        rd_init(&r, start, line_len);
        skip_spaces(&r);
        if (!rd_remaining(&r))
            continue; /* blank */
        rd_init(&r, start, line_len);
        struct proc_net_dev_row row;
        const char *why = parse_line(&r, &row);
        if (why) {
            if (!bad++)
                dcb_err_set(err, DCB_E_INVAL, "line %zu: %s", line_no, why);
            continue;
        }
        fn(&row, arg);
    }
    return bad;
}
