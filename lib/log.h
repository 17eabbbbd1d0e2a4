/* Logging to stderr. Levels: error, warn, info, debug. The threshold comes from -v/-q on the
 * command line (dcb_log_set_level) or the DCBKIT_LOG environment variable (error|warn|info|debug).
 * Messages are one line: "dcbkit: warn: <message>". */
#ifndef DCB_LOG_H
#define DCB_LOG_H

#include <stdarg.h>

enum dcb_log_level { DCB_LOG_ERROR, DCB_LOG_WARN, DCB_LOG_INFO, DCB_LOG_DEBUG };

void dcb_log_init(const char *progname);
void dcb_log_set_level(enum dcb_log_level level);
enum dcb_log_level dcb_log_get_level(void);
void dcb_log(enum dcb_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "progname: what: why" on stderr, the command-level error line, each part said once
 * (dcb_err_line) and made safe for the terminal. */
void dcb_cmd_error(const char *what, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void dcb_cmd_verror(const char *what, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
const char *dcb_progname(void);

#define dcb_warn(...) dcb_log(DCB_LOG_WARN, __VA_ARGS__)
#define dcb_info(...) dcb_log(DCB_LOG_INFO, __VA_ARGS__)
#define dcb_debug(...) dcb_log(DCB_LOG_DEBUG, __VA_ARGS__)

#endif
