#include "ethtool_dump.h"

#include <string.h>

#include "reader.h"

#define DUMP_NAME_MAX 128

static bool is_space(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* One line as a sub-reader (without its newline). */
static bool next_line(struct dcb_reader *r, struct dcb_reader *line)
{
    if (!rd_remaining(r))
        return false;
    const uint8_t *start = r->base + r->off;
    size_t n = rd_remaining(r);
    const uint8_t *nl = memchr(start, '\n', n);
    size_t len = nl ? (size_t)(nl - start) : n;
    rd_sub(r, len, line);
    if (nl)
        rd_skip(r, 1);
    return true;
}

int ethtool_dump_parse(const char *text, size_t len, ethtool_dump_fn fn, void *arg,
                       struct dcb_err *err)
{
    struct dcb_reader r, line;
    rd_init(&r, text, len);
    int lineno = 0, count = 0;
    bool header = false;
    while (next_line(&r, &line)) {
        lineno++;
        size_t n = rd_remaining(&line);
        const uint8_t *p = rd_bytes(&line, n);
        size_t b = 0, e = n;
        while (b < e && is_space(p[b]))
            b++;
        while (e > b && is_space(p[e - 1]))
            e--;
        if (b == e)
            continue;
        if (!header) {
            static const char head[] = "NIC statistics:";
            if (e - b != sizeof(head) - 1 || memcmp(p + b, head, sizeof(head) - 1) != 0)
                return dcb_err_set(err, DCB_E_INVAL,
                                   "line %d: not an ethtool -S dump (expected \"NIC statistics:\")",
                                   lineno);
            header = true;
            continue;
        }
        /* the value follows the last ':' */
        size_t colon = e;
        while (colon > b && p[colon - 1] != ':')
            colon--;
        if (colon == b)
            return dcb_err_set(err, DCB_E_INVAL, "line %d: not a \"name: value\" line", lineno);
        size_t name_end = colon - 1;
        while (name_end > b && is_space(p[name_end - 1]))
            name_end--;
        size_t v = colon;
        while (v < e && is_space(p[v]))
            v++;
        if (name_end == b || v == e || name_end - b >= DUMP_NAME_MAX)
            return dcb_err_set(err, DCB_E_INVAL, "line %d: not a \"name: value\" line", lineno);
        uint64_t value = 0;
        for (size_t i = v; i < e; i++) {
            if (p[i] < '0' || p[i] > '9' || value > (UINT64_MAX - (uint64_t)(p[i] - '0')) / 10)
                return dcb_err_set(err, DCB_E_INVAL,
                                   "line %d: the value is not an unsigned 64-bit number", lineno);
            value = value * 10 + (uint64_t)(p[i] - '0');
        }
        char name[DUMP_NAME_MAX];
        memcpy(name, p + b, name_end - b);
        name[name_end - b] = '\0';
        if (memchr(name, '\0', name_end - b))
            return dcb_err_set(err, DCB_E_INVAL, "line %d: a NUL byte in the name", lineno);
        fn(name, value, arg);
        count++;
    }
    if (!header)
        return dcb_err_set(err, DCB_E_INVAL, "empty: not an ethtool -S dump");
    return count;
}

static bool contains(const char *text, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(text + i, needle, n) == 0)
            return true;
    return false;
}

const char *ethtool_dump_guess_driver(const char *text, size_t len)
{
    if (contains(text, len, "_phy:"))
        return "mlx5_core";
    if (contains(text, len, ".nic:"))
        return "ice";
    if (contains(text, len, "rx_pfc_ena_frames_pri") || contains(text, len, "_cos0:"))
        return "bnxt_en";
    return NULL;
}
