#include "err.h"

#include <stdio.h>
#include <string.h>

int dcb_err_set(struct dcb_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

void dcb_err_clear(struct dcb_err *err)
{
    if (err) {
        err->code = DCB_OK;
        err->msg[0] = '\0';
    }
}

/* Whether part b (nb bytes) says again what part a (na bytes) said: equal, or a's end after a
 * space ("store /x.db" then "/x.db"). */
static int says_again(const char *a, size_t na, const char *b, size_t nb)
{
    if (nb == 0 || nb > na || memcmp(a + na - nb, b, nb) != 0)
        return 0;
    return na == nb || a[na - nb - 1] == ' ';
}

void dcb_err_line(char *out, size_t len, const char *what, const char *msg)
{
    char joined[2048];
    if (what && *what)
        snprintf(joined, sizeof(joined), "%s: %s", what, msg ? msg : "");
    else
        snprintf(joined, sizeof(joined), "%s", msg ? msg : "");
    if (!len)
        return;
    size_t n = 0;
    const char *prev = NULL, *p = joined;
    size_t nprev = 0;
    for (;;) {
        const char *sep = strstr(p, ": ");
        size_t np = sep ? (size_t)(sep - p) : strlen(p);
        if (!prev || !says_again(prev, nprev, p, np)) {
            int w = snprintf(out + n, len - n, "%s%.*s", prev ? ": " : "", (int)np, p);
            n += w > 0 ? (size_t)w : 0;
            if (n >= len)
                return; /* truncated; snprintf terminated it */
            prev = p;
            nprev = np;
        }
        if (!sep)
            break;
        p = sep + 2;
    }
}

const char *dcb_strerror(int code)
{
    switch (code) {
    case DCB_OK: return "success";
    case DCB_E_INVAL: return "invalid input";
    case DCB_E_RANGE: return "value out of range";
    case DCB_E_TRUNC: return "truncated input";
    case DCB_E_NOMEM: return "out of memory";
    case DCB_E_IO: return "input/output error";
    case DCB_E_PERM: return "permission denied";
    case DCB_E_NOTFOUND: return "not found";
    case DCB_E_UNSUPP: return "not supported";
    case DCB_E_TIMEOUT: return "timed out";
    default: return "unknown error";
    }
}
