/* Error codes and messages. Library functions return 0 or a negative DCB_E* code and, when given
 * a struct dcb_err, fill its message. Commands print "dcbkit: <what failed>: <why>". */
#ifndef DCB_ERR_H
#define DCB_ERR_H

#include <stdarg.h>
#include <stddef.h>

enum dcb_errcode {
    DCB_OK = 0,
    DCB_E_INVAL = -1, /* malformed input or argument */
    DCB_E_RANGE = -2, /* value out of range */
    DCB_E_TRUNC = -3, /* input ended early */
    DCB_E_NOMEM = -4,
    DCB_E_IO = -5, /* read/write failed; errno-style detail in the message */
    DCB_E_PERM = -6,
    DCB_E_NOTFOUND = -7,
    DCB_E_UNSUPP = -8,
    DCB_E_TIMEOUT = -9,
};

#define DCB_ERR_MSG_MAX 256

struct dcb_err {
    int code;
    char msg[DCB_ERR_MSG_MAX];
};

/* Sets err (when non-NULL) and returns code, so callers can write `return dcb_err_set(...)`. */
int dcb_err_set(struct dcb_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void dcb_err_clear(struct dcb_err *err);
/* The command-level error text "what: msg" into out (always terminated), each ": "-separated
 * part said once: a library message names its file ("/x.pcap: No such file or directory"), so
 * a caller that names it too, as what ("/x.pcap") or in its own words ("store /x.db"), does not
 * print the path twice. A part is dropped when it equals the one before it or ends it after a
 * space. */
void dcb_err_line(char *out, size_t len, const char *what, const char *msg);
const char *dcb_strerror(int code);

#endif
