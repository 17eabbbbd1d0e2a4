/* The views, drawn from the model: interfaces (with per-priority rows), per-priority detail,
 * QoS config against the link partner's, findings, help. Every string that came from a source
 * goes through view_sanitize before it reaches the terminal. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "qos_text.h"
#include "top_help.h"
#include "ui.h"

/* Text in display cells [x, x+width): cut to fit, padded, right-aligned when asked. */
static void put(int y, int x, int width, const char *s, bool right)
{
    if (width <= 0 || y < 0 || y >= LINES || x >= COLS)
        return;
    if (x + width > COLS)
        width = COLS - x;
    wchar_t w[512];
    w[0] = L'\0';
    mbstate_t st;
    memset(&st, 0, sizeof(st));
    const char *p = s;
    size_t n = mbsrtowcs(w, &p, 511, &st);
    if (n == (size_t)-1) {           /* not valid in this locale (cannot happen after sanitize) */
        w[0] = L'?';
        n = 1;
    }
    w[n] = L'\0';
    int cells = 0;
    size_t k = 0;
    for (; k < n; k++) {
        int cw = wcwidth(w[k]);
        if (cw < 0)
            cw = 1;
        if (cells + cw > width)
            break;
        cells += cw;
    }
    int pad = width - cells;
    move(y, x);
    if (right)
        for (int i = 0; i < pad; i++)
            addch(' ');
    addnwstr(w, (int)k);
    if (!right)
        for (int i = 0; i < pad; i++)
            addch(' ');
}

static void put_net(const struct ui *u, int y, int x, int width, const char *s, bool right)
{
    char safe[1024];
    view_sanitize(s, safe, sizeof(safe), u->app->view.utf8);
    put(y, x, width, safe, right);
}

static attr_t severity_attr(const struct ui *u, int sev)
{
    if (sev < 0)
        return A_NORMAL;
    if (!u->colour)
        return sev == RULE_CRIT ? A_BOLD : A_NORMAL;
    int pair = sev == RULE_CRIT ? PAIR_CRIT : sev == RULE_WARN ? PAIR_WARN : PAIR_INFO;
    return COLOR_PAIR(pair) | (sev == RULE_CRIT ? A_BOLD : 0);
}

static const char *sev_mark(int sev)
{
    return sev == RULE_CRIT ? "!" : sev == RULE_WARN ? "*" : sev == RULE_INFO ? "i" : " ";
}

static void header(struct ui *u, const char *view_name)
{
    struct top_app *app = u->app;
    struct top_model *m = &app->model;
    char when[40] = "no data yet", prio[32], line[512], src[200];
    if (m->data_ns) {
        time_t t = (time_t)(m->data_ns / 1000000000LL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%SZ", &tm);
    }
    view_sanitize(app->src.name, src, sizeof(src), app->view.utf8);
    snprintf(line, sizeof(line), "dcbtop - %s - %s - every %gs - %s - sort %s%s", src, when,
             (double)app->interval_ns / 1e9, view_prio_name(m->prio, prio, sizeof(prio)),
             view_sort_name(app->view.sort), u->paused ? " - PAUSED" : "");
    attron(A_BOLD);
    put(0, 0, COLS, line, false);
    attroff(A_BOLD);
    size_t crit = 0, warn = 0, info = 0;
    for (size_t f = 0; f < m->nfindings; f++) {
        enum rule_severity s = m->findings[f].rule->severity;
        crit += s == RULE_CRIT;
        warn += s == RULE_WARN;
        info += s == RULE_INFO;
    }
    size_t shown = 0;
    for (size_t r = 0; r < u->nrows; r++)
        shown += u->rows[r].prio < 0;
    char filter[160] = "";
    if (app->view.filter[0]) {
        char safe[100];
        view_sanitize(app->view.filter, safe, sizeof(safe), app->view.utf8);
        snprintf(filter, sizeof(filter), " - filter \"%s\": %zu of %zu", safe, shown, m->n);
    }
    snprintf(line, sizeof(line), "[%s] %zu interfaces - findings: %zu crit, %zu warn, %zu info%s",
             view_name, m->n, crit, warn, info, filter);
    put(1, 0, COLS, line, false);
}

static void status_line(struct ui *u)
{
    struct top_app *app = u->app;
    const char *text = u->msg[0] ? u->msg : app->error[0] ? app->error : app->src.status;
    char safe[400];
    attr_t a = A_REVERSE;
    if (text[0]) {
        view_sanitize(text, safe, sizeof(safe), app->view.utf8);
    } else {
        snprintf(safe, sizeof(safe), "h help  Tab views  Enter expand  </> sort  / filter  "
                 "p prio  d interval  Space pause  f findings  q quit");
        a = A_NORMAL;
    }
    attron(a);
    put(LINES - 1, 0, COLS, safe, false);
    attroff(a);
}

/* ---- the interfaces ----------------------------------------------------------------------- */

struct layout {
    int cw;                      /* cell width of a value column */
    int name_w, spark_w, spark_x;
};

static struct layout layout_for(int cols)
{
    struct layout l;
    l.cw = (cols - 2 - 16 - 61) / TOP_NCOLS;
    if (l.cw < 6)
        l.cw = 6;
    if (l.cw > 9)
        l.cw = 9;
    int rest = cols - 2 - TOP_NCOLS * l.cw;
    l.spark_w = rest - 12 - 1;
    if (l.spark_w > TOP_HIST)
        l.spark_w = TOP_HIST;
    if (l.spark_w < 8)
        l.spark_w = 0;
    l.name_w = rest - (l.spark_w ? l.spark_w + 1 : 0);
    if (l.name_w > 32) {
        l.name_w = 32;
    }
    if (l.name_w < 4)
        l.name_w = 4;
    l.spark_x = 2 + l.name_w + TOP_NCOLS * l.cw + 1;
    return l;
}

static void draw_cells(struct ui *u, int y, const struct layout *l, const struct top_val *vals,
                       bool port)
{
    for (int c = 0; c < TOP_NCOLS; c++) {
        char v[32] = "";
        if (port || (c != COL_CNP_SENT && c != COL_CNP_HANDLED && c != COL_OOS))
            view_format(v, sizeof(v), vals[c], top_cols[c].unit, u->app->view.utf8);
        put(y, 2 + l->name_w + c * l->cw, l->cw, v, true);
    }
}

static void draw_main_heading(struct ui *u, const struct layout *l, int sort)
{
    attron(u->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE);
    move(2, 0);
    clrtoeol();
    put(2, 0, 2 + l->name_w, "  INTERFACE", false);
    for (int c = 0; c < TOP_NCOLS; c++) {
        if (c == sort)
            attron(A_BOLD | A_UNDERLINE);
        put(2, 2 + l->name_w + c * l->cw, l->cw, top_cols[c].title, true);
        if (c == sort)
            attroff(A_BOLD | A_UNDERLINE);
    }
    if (l->spark_w) {
        char t[64];
        snprintf(t, sizeof(t), " last %d: %s", l->spark_w,
                 sort == SORT_NAME ? top_cols[COL_RX].title : top_cols[sort].title);
        put(2, l->spark_x - 1, COLS - l->spark_x + 1, t, false);
    } else {
        put(2, 2 + l->name_w + TOP_NCOLS * l->cw, COLS - (2 + l->name_w + TOP_NCOLS * l->cw), "",
            false);
    }
    attroff(u->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE);
}

/* Line y of the main view: row r, an interface or one of its priorities. */
static void draw_main_row(struct ui *u, int y, size_t r, const struct layout *l, bool one_device)
{
    struct top_app *app = u->app;
    int sort = app->view.sort;
    const struct ui_row *row = &u->rows[r];
    const struct top_iface *i = row->iface;
    attr_t a = severity_attr(u, i->severity);
    if (i->stale_ns > 0)                /* out of reach: greyed, and said so */
        a = u->colour ? COLOR_PAIR(PAIR_STALE) | A_DIM : A_DIM;
    if (r == u->sel)
        a |= A_REVERSE;
    attron(a);
    char label[2 * DCB_DEVICE_MAX + 16];
    if (row->prio < 0) {
        put(y, 0, 2, sev_mark(i->severity), false);
        if (one_device)
            snprintf(label, sizeof(label), "%s%s", i->expanded ? "-" : "+", i->ifname);
        else
            snprintf(label, sizeof(label), "%s%s/%s", i->expanded ? "-" : "+", i->device,
                     i->ifname);
        put_net(u, y, 2, l->name_w, label, false);
        draw_cells(u, y, l, i->col, true);
        if (i->stale_ns > 0) {
            char stale[40];
            snprintf(stale, sizeof(stale), " stale %llds",
                     (long long)(i->stale_ns / 1000000000LL));
            put(y, 2 + l->name_w + TOP_NCOLS * l->cw, COLS - (2 + l->name_w + TOP_NCOLS * l->cw),
                stale, false);
        } else if (l->spark_w) {
            char spark[TOP_HIST * 3 + 1];
            view_sparkline(i, sort == SORT_NAME ? COL_RX : sort, l->spark_w, spark,
                           sizeof(spark), app->view.utf8);
            if (u->colour && r != u->sel)
                attron(COLOR_PAIR(PAIR_SPARK));
            put(y, l->spark_x, l->spark_w, spark, false);
            if (u->colour && r != u->sel)
                attroff(COLOR_PAIR(PAIR_SPARK));
        }
    } else {
        unsigned mask = model_prio_mask(&app->model, i);
        snprintf(label, sizeof(label), "   prio %d%s", row->prio,
                 mask & (1u << row->prio) ? " L" : "");
        put(y, 0, 2 + l->name_w, label, false);
        struct top_val pc[TOP_NCOLS];
        model_prio_cols(i, row->prio, pc);
        draw_cells(u, y, l, pc, false);
    }
    attroff(a);
}

static void draw_main(struct ui *u)
{
    struct top_app *app = u->app;
    struct layout l = layout_for(COLS);
    draw_main_heading(u, &l, app->view.sort);
    int body = LINES - 4;
    if (body < 1)
        return;
    if (u->sel < u->top)
        u->top = u->sel;
    if (u->sel >= u->top + (size_t)body)
        u->top = u->sel - (size_t)body + 1;
    bool one_device = true;
    for (size_t k = 1; k < app->model.n && one_device; k++)
        one_device = !strcmp(app->model.ifaces[k]->device, app->model.ifaces[0]->device);
    for (int y = 0; y < body; y++) {
        size_t r = u->top + (size_t)y;
        move(3 + y, 0);
        clrtoeol();
        if (r < u->nrows)
            draw_main_row(u, 3 + y, r, &l, one_device);
    }
}

/* ---- per-priority detail ------------------------------------------------------------------ */

static void draw_prio(struct ui *u)
{
    struct top_iface *i = ui_selected(u);
    if (!i) {
        put(3, 0, COLS, "no interface selected", false);
        return;
    }
    char title[200], mask_text[32];
    unsigned mask = model_prio_mask(&u->app->model, i);
    view_mask(mask, mask_text, sizeof(mask_text));
    snprintf(title, sizeof(title), "Priorities of %s/%s (columns cover %s)", i->device, i->ifname,
             mask_text);
    attron(A_BOLD);
    put_net(u, 2, 0, COLS, title, false);
    attroff(A_BOLD);
    static const char *const heads[] = { "PRIO", "RXb/s", "TXb/s", "PFCrx/s", "PFCtx/s",
                                         "Paused%", "Pausing%", "ECN/s", "Drop/s" };
    int w = COLS / 9 < 12 ? COLS / 9 : 12;
    if (w < 6)
        w = 6;
    attron(u->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE);
    move(3, 0);
    clrtoeol();
    for (int h = 0; h < 9; h++)
        put(3, h * w, w, heads[h], h > 0);
    attroff(u->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE);
    for (int p = 0; p < 8; p++) {
        struct top_val pc[TOP_NCOLS];
        model_prio_cols(i, p, pc);
        struct top_val tx_paused = { NAN, VAL_ABSENT };
        if (i->seen[METRIC_PFC_TX_PAUSE_US][p]) {
            double r = i->rate[METRIC_PFC_TX_PAUSE_US][p];
            tx_paused = isnan(r) ? (struct top_val){ NAN, VAL_PENDING }
                                 : (struct top_val){ r > 1e6 ? 100 : r * 1e-4, VAL_KNOWN };
        }
        const struct top_val cells[8] = { pc[COL_RX], pc[COL_TX], pc[COL_PFC_RX], pc[COL_PFC_TX],
                                          pc[COL_PAUSED], tx_paused, pc[COL_ECN], pc[COL_DROPS] };
        static const enum top_col_unit units[8] = { UNIT_BPS, UNIT_BPS, UNIT_PER_S, UNIT_PER_S,
                                                    UNIT_PCT, UNIT_PCT, UNIT_PER_S, UNIT_PER_S };
        char label[16];
        snprintf(label, sizeof(label), "%d%s", p, mask & (1u << p) ? " L" : "");
        move(4 + p, 0);
        clrtoeol();
        if (mask & (1u << p))
            attron(A_BOLD);
        put(4 + p, 0, w, label, false);
        for (int c = 0; c < 8; c++) {
            char v[32];
            view_format(v, sizeof(v), cells[c], units[c], u->app->view.utf8);
            put(4 + p, (c + 1) * w, w, v, true);
        }
        if (mask & (1u << p))
            attroff(A_BOLD);
    }
    put(13, 0, COLS, "L: a priority the columns of the main view cover (p chooses)", false);
}

/* ---- QoS config ------------------------------------------------------------------------ */

static void draw_qos(struct ui *u)
{
    struct top_iface *i = ui_selected(u);
    if (!i) {
        put(3, 0, COLS, "no interface selected", false);
        return;
    }
    char line[600];
    qos_title(i, line, sizeof(line));
    attron(A_BOLD);
    put_net(u, 2, 0, COLS, line, false);
    attroff(A_BOLD);
    qos_partner(i, line, sizeof(line));
    put_net(u, 3, 0, COLS, line, false);
    int lw = 14, vw = (COLS - lw - 12) / 2;
    if (vw < 10)
        vw = 10;
    attron(u->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE);
    move(4, 0);
    clrtoeol();
    put(4, 0, lw, "FIELD", false);
    put(4, lw, vw, "HERE", false);
    put(4, lw + vw + 1, vw, "LINK PARTNER", false);
    put(4, lw + 2 * vw + 1, COLS - lw - 2 * vw - 1, "", false);
    attroff(u->colour ? COLOR_PAIR(PAIR_HEAD) : A_REVERSE);
    int y = 5;
    for (size_t r = 0; r < QOS_NROWS && y < LINES - 1; r++, y++) {
        char here[512], there[512];
        bool mismatch = qos_row_text(i, r, here, there, sizeof(here), u->app->view.utf8);
        attr_t a = mismatch ? (u->colour ? COLOR_PAIR(PAIR_MISMATCH) | A_BOLD : A_REVERSE)
                            : A_NORMAL;
        move(y, 0);
        clrtoeol();
        attron(a);
        put(y, 0, lw, qos_rows[r].label, false);
        put_net(u, y, lw, vw, here, false);
        put(y, lw + vw, 1, mismatch ? "\xe2\x89\xa0" : " ", false);
        put_net(u, y, lw + vw + 1, vw, there, false);
        if (mismatch)
            put(y, lw + 2 * vw + 2, COLS - lw - 2 * vw - 2, "MISMATCH", false);
        attroff(a);
    }
}

/* ---- findings ----------------------------------------------------------------------------- */

/* Lines of the findings view, wrapped to width; drawn from line u->scroll. */
static void draw_findings(struct ui *u)
{
    struct top_model *m = &u->app->model;
    int y = 2, skip = (int)u->scroll;
    char line[1400], safe[4200];
#define EMIT(attr, ...) do { \
        snprintf(line, sizeof(line), __VA_ARGS__); \
        view_sanitize(line, safe, sizeof(safe), u->app->view.utf8); \
        if (skip > 0) { skip--; } else if (y < LINES - 1) { \
            attron(attr); move(y, 0); clrtoeol(); put(y, 0, COLS, safe, false); attroff(attr); \
            y++; } \
    } while (0)
    if (m->rules_error[0])
        EMIT(A_BOLD, "rules not loaded: %s", m->rules_error);
    else if (!m->nfindings)
        EMIT(A_NORMAL, "No findings: %zu rules found nothing over %zu interfaces.", m->rules.n,
             m->n);
    for (size_t f = 0; f < m->nfindings; f++) {
        const struct finding *fd = &m->findings[f];
        attr_t a = severity_attr(u, (int)fd->rule->severity);
        char where[200];
        if (fd->device[0])
            snprintf(where, sizeof(where), "%s/%s", fd->device, fd->ifname);
        else
            snprintf(where, sizeof(where), "the fabric");
        if (fd->prio >= 0)
            snprintf(where + strlen(where), sizeof(where) - strlen(where), " prio %d", fd->prio);
        EMIT(a | A_BOLD, "%s %-5s %s  %s", sev_mark((int)fd->rule->severity),
             rule_severity_name(fd->rule->severity), fd->rule->id, where);
        /* the summary, wrapped */
        const char *s = fd->summary;
        int width = COLS - 4 > 20 ? COLS - 4 : 20;
        while (*s) {
            int n = (int)strlen(s);
            if (n > width) {
                n = width;
                while (n > width / 2 && s[n] != ' ')
                    n--;
            }
            EMIT(A_NORMAL, "    %.*s", n, s);
            s += n;
            while (*s == ' ')
                s++;
        }
        for (size_t e = 0; e < fd->nevidence; e++)
            EMIT(A_NORMAL, "    evidence: %s = %s", fd->evidence[e].name, fd->evidence[e].value);
        if (fd->knob[0])
            EMIT(A_BOLD, "    knob: %s%s%s%s%s%s", fd->knob, fd->proposed[0] ? " -> " : "",
                 fd->proposed, fd->rule->direction[0] ? "  (" : "", fd->rule->direction,
                 fd->rule->direction[0] ? ")" : "");
    }
#undef EMIT
    for (; y < LINES - 1; y++) {
        move(y, 0);
        clrtoeol();
    }
}

static void draw_help(struct ui *u)
{
    (void)u;
    erase();
    attron(A_BOLD);
    put(0, 0, COLS, "dcbtop - top for lossless fabrics - keys (any key returns)", false);
    attroff(A_BOLD);
    const char *text;
    const char *flags;
    int y = 2;
    for (size_t k = 0; (flags = top_doc_key(k, &text)) && y < LINES - 4; k++, y++) {
        put(y, 2, 32, flags, false);
        put(y, 34, COLS - 34, text, false);
    }
    y++;
    put(y++, 0, COLS, "Columns: bits/s in and out; PFC frames/s received and sent and % of time "
        "paused on the chosen priorities;", false);
    put(y++, 0, COLS, "ECN marks/s; CNPs sent and handled/s; out-of-sequence/s; drops/s. "
        "\xe2\x80\xa6 waits for a second sample, - is not provided.", false);
    put(y, 0, COLS, "Marks: ! crit, * warn, i info. See dcbtop(1).", false);
}

void ui_draw(struct ui *u)
{
    if (u->help) {
        draw_help(u);
        refresh();
        return;
    }
    static const char *const names[V_COUNT] = { "interfaces", "priorities", "QoS config",
                                                "findings" };
    erase();
    header(u, names[u->view]);
    switch (u->view) {
    case V_MAIN: draw_main(u); break;
    case V_PRIO: draw_prio(u); break;
    case V_QOS: draw_qos(u); break;
    case V_FINDINGS: draw_findings(u); break;
    case V_COUNT: break;
    }
    status_line(u);
    refresh();
}
