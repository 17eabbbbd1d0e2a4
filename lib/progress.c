#include "progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "out.h"
#include "units.h"

/* The one progress line a process shows at a time: what dcb_progress_wipe wipes. */
static struct dcb_progress *active;

void dcb_progress_start(struct dcb_progress *p, bool wanted)
{
    p->on = wanted && isatty(STDERR_FILENO);
    p->shown = false;
    p->start_ns = p->last_ns = dcb_monotonic_ns();
    if (p->on)
        active = p;
}

static void wipe(struct dcb_progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = false;
}

void dcb_progress_wipe(void)
{
    if (active)
        wipe(active);
}

bool dcb_progress_due(struct dcb_progress *p)
{
    if (!p->on)
        return false;
    int64_t now = dcb_monotonic_ns();
    if (now - p->start_ns < DCB_PROGRESS_AFTER_NS ||
        (p->shown && now - p->last_ns < DCB_PROGRESS_EVERY_NS))
        return false;
    p->last_ns = now;
    return true;
}

static void vshow(struct dcb_progress *p, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static void vshow(struct dcb_progress *p, const char *fmt, va_list ap)
{
    /* the control bytes go out as they are: out_vterm would show them as \xNN */
    fputc('\r', stderr);
    out_vterm(stderr, fmt, ap);
    fputs("\033[K", stderr);
    fflush(stderr);
    p->shown = true;
}

void dcb_progress_show(struct dcb_progress *p, const char *fmt, ...)
{
    if (!p->on)
        return;
    va_list ap;
    va_start(ap, fmt);
    vshow(p, fmt, ap);
    va_end(ap);
}

void dcb_progress_stage(struct dcb_progress *p, const char *fmt, ...)
{
    if (!p->on || dcb_monotonic_ns() - p->start_ns < DCB_PROGRESS_AFTER_NS)
        return;
    p->last_ns = dcb_monotonic_ns();
    va_list ap;
    va_start(ap, fmt);
    vshow(p, fmt, ap);
    va_end(ap);
}

double dcb_progress_elapsed(const struct dcb_progress *p)
{
    return (double)(dcb_monotonic_ns() - p->start_ns) / 1e9;
}

void dcb_progress_end(struct dcb_progress *p)
{
    wipe(p);
    if (active == p)
        active = NULL;
}
