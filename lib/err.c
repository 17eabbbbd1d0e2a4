#include "err.h"

#include <stdio.h>

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
