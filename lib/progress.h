/* A progress line on stderr for work that runs long (report --collect, a long replay, a large
 * capture): nothing for the first DCB_PROGRESS_AFTER_NS, so short work stays quiet; then one
 * line, rewritten in place at most every DCB_PROGRESS_EVERY_NS, and wiped when the work ends.
 * Only when stderr is a terminal and the command is not quiet (-q): a pipe, a file or a cron
 * mail never gets one. A message on stderr through dcb_log or dcb_cmd_error wipes the line
 * first (dcb_progress_wipe), so it starts at the left margin; the next due line comes back.
 *
 *     struct dcb_progress p;
 *     dcb_progress_start(&p, ctx->verbosity >= 0);
 *     while (working)
 *         if (dcb_progress_due(&p))
 *             dcb_progress_show(&p, "replay: %.1f s simulated", t);
 *     dcb_progress_end(&p);
 */
#ifndef DCB_PROGRESS_H
#define DCB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#define DCB_PROGRESS_AFTER_NS 2000000000LL
#define DCB_PROGRESS_EVERY_NS 500000000LL

struct dcb_progress {
    bool on;    /* stderr is a terminal and the command may speak */
    bool shown; /* a line is on the screen */
    int64_t start_ns, last_ns;
};

/* Starts the clock; wanted false (-q) keeps it silent whatever stderr is. */
void dcb_progress_start(struct dcb_progress *p, bool wanted);
/* Whether a line is due now (on, past the first 2 s, half a second after the last one); the
 * caller then formats and shows it. Cheap: one clock read. */
bool dcb_progress_due(struct dcb_progress *p);
/* Writes the line in place ("\r<text>", the rest of the line cleared); text is made safe for
 * the terminal (out_term). */
void dcb_progress_show(struct dcb_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A stage of the work ("report: running the rules"), shown at once when the work has already
 * run past the first 2 s, whatever the last line's age. */
void dcb_progress_stage(struct dcb_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Wipes the line of the progress running now, if one is shown (before any other stderr text). */
void dcb_progress_wipe(void);
/* Seconds since dcb_progress_start. */
double dcb_progress_elapsed(const struct dcb_progress *p);
/* Wipes the line if one was shown, so what follows starts on a clean line. */
void dcb_progress_end(struct dcb_progress *p);

#endif
