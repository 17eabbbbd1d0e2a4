/* libFuzzer: what dcbkit serve takes from outside. The request's method and URL (as
 * libmicrohttpd hands them over) through the router, --listen text through its parser, and
 * arbitrary bytes as label values (interface and device names come from drivers, LLDP peers
 * and stores): the escaped value must hold no raw quote or newline, only known escapes, and
 * valid UTF-8, and a rendered page must end every line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "prom.h"

static void check_escaped(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\') {
            if (i + 1 >= n || (s[i + 1] != '\\' && s[i + 1] != '"' && s[i + 1] != 'n'))
                abort();
            i += 2;
        } else if (c == '"' || c == '\n' || c == '\0') {
            abort();
        } else {
            size_t k = dcb_utf8_seq_len((const unsigned char *)s + i, NULL);
            if (!k)
                abort();
            i += k;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[512];
    size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
    memcpy(text, data, n);
    text[n] = '\0';

    /* method SP url */
    char *sp = strchr(text, ' ');
    if (sp) {
        *sp = '\0';
        enum prom_route r = prom_route(text, sp + 1);
        if (r != PROM_ROUTE_BAD_METHOD && strcmp(text, "GET") && strcmp(text, "HEAD"))
            abort();
        *sp = ' ';
    }
    struct prom_listen l;
    struct dcb_err err;
    if (prom_parse_listen(text, &l, &err) == 0 && !l.addrlen)
        abort();

    struct prom_buf b;
    prom_buf_init(&b);
    prom_put_label_value(&b, text);
    if (b.len)
        check_escaped(b.data, b.len);

    struct dcb_sample s;
    dcb_sample_set(&s, 1, text, sp ? sp + 1 : "", METRIC_PFC_RX_PAUSE_US, 3, -1);
    s.value.counter = size;
    struct prom_finding f = { text, "warn", text, text, -1, "victim" };
    static struct prom_config_value cv;
    static struct prom_event_count ec;
    snprintf(cv.device, sizeof(cv.device), "%s", text);
    snprintf(cv.field, sizeof(cv.field), "%s", sp ? sp + 1 : "");
    cv.value = (int64_t)size - 100;
    snprintf(ec.ifname, sizeof(ec.ifname), "%s", text);
    ec.prio = (int)(size % 9) - 1;
    ec.kind = (enum dcb_event_kind)(size % EVENT_KIND_COUNT);
    ec.count = size;
    static struct prom_topology tp;
    snprintf(tp.device, sizeof(tp.device), "%s", text);
    snprintf(tp.peer_ifname, sizeof(tp.peer_ifname), "%s", sp ? sp + 1 : "");
    snprintf(tp.role, sizeof(tp.role), "%s", size % 2 ? "host" : "");
    struct prom_page page = { &s, 1, &f, 1, NULL, 0, text, &cv, 1, &ec, 1, &tp, 1, NULL, 0 };
    if (prom_render_page(&b, &page, &err) == 0 && (!b.len || b.data[b.len - 1] != '\n'))
        abort();
    prom_buf_free(&b);
    return 0;
}
