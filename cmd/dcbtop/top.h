/* dcbtop: `top` for lossless fabrics. One thread: the main loop ticks the source every refresh
 * interval (the model takes in what it gives, the rules run every few seconds), and either
 * draws the screen and waits for a key up to the next tick (ui.c), or prints a frame (batch.c). */
#ifndef DCBTOP_TOP_H
#define DCBTOP_TOP_H

#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "out.h"
#include "source.h"
#include "view.h"

#define RULES_EVERY_NS (5LL * 1000000000LL)

/* What a batch frame shows (--view). */
enum top_batch_view { TOP_BATCH_INTERFACES, TOP_BATCH_QOS };

struct top_app {
    struct dcb_source src;
    struct top_model model;
    struct top_view view;
    enum out_format format;
    enum top_batch_view batch_view;
    int64_t interval_ns;
    int64_t rules_wall_ns; /* wall time of the last rules run, 0: never */
    bool source_ended;     /* the source gave all it has (the rules ran over it) */
    char error[300];       /* the last tick's error, for the status line */
};

/* One refresh: tick the source, settle the model, run the rules when due. 0, DCB_SOURCE_END
 * (the source has nothing more to give), or -1 (app->error says why). */
int top_step(struct top_app *app);
/* "1", "0.5" (seconds, as top takes them) or a duration ("500ms"), 10 ms to 1 h. 0 or -1. */
int top_parse_delay(const char *text, int64_t *ns);
#define TOP_DELAY_MIN_NS 10000000LL
#define TOP_DELAY_MAX_NS 3600000000000LL
#define TOP_DELAY_RANGE "seconds from 0.01 to 3600, such as 0.5 or 2, or a duration (500ms)"

/* One batch frame of app->batch_view on stdout, flushed: 0, or -1 when writing failed. */
int batch_frame(struct top_app *app);
/* The QoS view's frame (batch_qos.c). */
void batch_qos_json(struct top_app *app, struct top_iface **rows, size_t n);
void batch_qos_text(struct top_app *app, struct top_iface **rows, size_t n);
/* The interactive screen until q. 0, or 1 when the terminal could not be used. */
int ui_run(struct top_app *app);

#endif
