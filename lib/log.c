#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "out.h"
#include "progress.h"

static const char *log_progname = "dcbkit";
static enum dcb_log_level log_level = DCB_LOG_WARN;

static const char *const level_names[] = { "error", "warn", "info", "debug" };

void dcb_log_init(const char *progname)
{
    if (progname && *progname) {
        const char *slash = strrchr(progname, '/');
        log_progname = slash ? slash + 1 : progname;
    }
    const char *env = getenv("DCBKIT_LOG");
    if (!env)
        return;
    for (size_t i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
        if (strcmp(env, level_names[i]) == 0)
            log_level = (enum dcb_log_level)i;
}

void dcb_log_set_level(enum dcb_log_level level)
{
    log_level = level;
}

enum dcb_log_level dcb_log_get_level(void)
{
    return log_level;
}

const char *dcb_progname(void)
{
    return log_progname;
}

void dcb_log(enum dcb_log_level level, const char *fmt, ...)
{
    if (level > log_level)
        return;
    dcb_progress_wipe();
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: %s: ", log_progname, level_names[level]);
    out_vterm(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void dcb_cmd_verror(const char *what, const char *fmt, va_list ap)
{
    char msg[1024], line[2048];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    dcb_err_line(line, sizeof(line), what, msg);
    dcb_progress_wipe();
    out_term(stderr, "%s: %s\n", log_progname, line);
}

void dcb_cmd_error(const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dcb_cmd_verror(what, fmt, ap);
    va_end(ap);
}
