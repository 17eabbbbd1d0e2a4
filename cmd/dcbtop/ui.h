/* The interactive screen: state (ui.c runs the loop and the keys) and the views (ui_draw.c). */
#ifndef DCBTOP_UI_H
#define DCBTOP_UI_H

#include <stdbool.h>
#include <stddef.h>

#include "top.h"

enum ui_view { V_MAIN, V_PRIO, V_QOS, V_FINDINGS, V_COUNT };

/* A line of the main view: an interface, or one of its priorities when expanded. */
struct ui_row {
    struct top_iface *iface;
    int prio; /* -1: the interface row */
};

#define UI_ROWS_MAX (4096 * 9)
#define UI_EXPANDED_MAX 64
#define UI_CAUSE_KEY_MAX 160

struct ui {
    struct top_app *app;
    enum ui_view view;
    bool help, paused, colour;
    bool retick; /* refresh at once (the interval changed) */
    struct ui_row *rows;
    size_t nrows;
    size_t sel, top; /* selected row, first row on screen */
    size_t scroll;   /* findings view: first line (the drawing keeps it on a page
                      * that has lines) */
    /* findings view: the causes whose places are listed one by one (Enter), and the cause at
     * the top of the screen, which Enter expands or folds (set by each drawing) */
    char expanded[UI_EXPANDED_MAX][UI_CAUSE_KEY_MAX];
    size_t nexpanded;
    char top_cause[UI_CAUSE_KEY_MAX];
    char sel_device[DCB_DEVICE_MAX], sel_ifname[DCB_IFNAME_MAX];
    int sel_prio;
    char msg[320]; /* a passing remark for the status line */
};

/* Rebuilds the rows (filter, sort, expansion) and keeps the selection on the same line. */
void ui_build_rows(struct ui *u);
/* The interface the selection is on, NULL when there is none. */
struct top_iface *ui_selected(const struct ui *u);
/* Whether the findings view lists the places of the cause with this key one by one. */
bool ui_cause_expanded(const struct ui *u, const char *key);
void ui_draw(struct ui *u);

/* Colour pairs. */
enum { PAIR_CRIT = 1, PAIR_WARN, PAIR_INFO, PAIR_HEAD, PAIR_SPARK, PAIR_MISMATCH, PAIR_STALE };

#endif
