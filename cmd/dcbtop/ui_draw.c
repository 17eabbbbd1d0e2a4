/* The views, drawn from the model: interfaces (with per-priority rows), per-priority detail,
 * QoS config against the link partner's, findings, help. Every string that came from a source
 * goes through view_sanitize before it reaches the terminal. */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "qos_text.h"
#include "top_help.h"
#include "cite.h"
#include "place_ranges.h"
#include "ui.h"
#include "value_units.h"

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
    if (n == (size_t)-1) { /* not valid in this locale (cannot happen after sanitize) */
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
    char behind[48] = "";
    if (app->src.behind_ns > 0)
        snprintf(behind, sizeof(behind), " - BEHIND %.1fs", (double)app->src.behind_ns / 1e9);
    snprintf(line, sizeof(line), "dcbtop - %s - %s%s - every %gs - %s - sort %s%s", src, when,
             behind, (double)app->interval_ns / 1e9, view_prio_name(m->prio, prio, sizeof(prio)),
             view_sort_name(app->view.sort), u->paused ? " - PAUSED" : "");
    attron(A_BOLD);
    put(0, 0, COLS, line, false);
    attroff(A_BOLD);
    size_t crit = 0, warn = 0, info = 0;
    for (size_t f = 0; f < m->nfindings; f++) {
        enum rule_severity s = m->findings[f].severity;
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
    char behind[300] = "";
    if (app->src.behind_ns > 0)
        view_behind(&app->src, behind, sizeof(behind));
    const char *text = u->msg[0]       ? u->msg
                       : app->error[0] ? app->error
                       : behind[0]     ? behind
                                       : app->src.status;
    char safe[400];
    attr_t a = A_REVERSE;
    if (text[0]) {
        view_sanitize(text, safe, sizeof(safe), app->view.utf8);
    } else {
        snprintf(safe, sizeof(safe),
                 "h help  Tab views  Enter expand  </> sort  / filter  "
                 "p prio  d interval  Space pause  f findings  q quit");
        a = A_NORMAL;
    }
    attron(a);
    put(LINES - 1, 0, COLS, safe, false);
    attroff(a);
}

/* ---- the interfaces ----------------------------------------------------------------------- */

struct layout {
    int cw; /* cell width of a value column */
    int name_w, spark_w, spark_x;
};

#define NAME_MIN 9 /* "INTERFACE" */
#define NAME_MAX 32
#define SPARK_MIN 8

/* Names come first: the name column is as wide as the longest name (up to NAME_MAX), and the
 * sparkline takes what is left, or nothing when that is under SPARK_MIN. A name that still does
 * not fit is cut in the middle (put_name), so that ports of one device stay apart. */
static struct layout layout_for(int cols, int longest_name)
{
    struct layout l;
    l.cw = (cols - 2 - 16 - 61) / TOP_NCOLS;
    if (l.cw < 6)
        l.cw = 6;
    if (l.cw > 9)
        l.cw = 9;
    int rest = cols - 2 - TOP_NCOLS * l.cw;
    int want = longest_name < NAME_MIN   ? NAME_MIN
               : longest_name > NAME_MAX ? NAME_MAX
                                         : longest_name;
    l.name_w = want < rest ? want : rest;
    l.spark_w = rest - l.name_w - 1;
    if (l.spark_w > TOP_HIST)
        l.spark_w = TOP_HIST;
    if (l.spark_w < SPARK_MIN)
        l.spark_w = 0;
    /* what the sparkline leaves goes to the names, up to NAME_MAX */
    int spare = rest - l.name_w - (l.spark_w ? l.spark_w + 1 : 0);
    if (spare > 0)
        l.name_w = l.name_w + spare > NAME_MAX ? NAME_MAX : l.name_w + spare;
    if (l.name_w < 4)
        l.name_w = 4;
    l.spark_x = 2 + l.name_w + TOP_NCOLS * l.cw + 1;
    return l;
}

/* Display cells of a string valid in the locale (1 per character otherwise). */
static int cells_of(const char *s)
{
    wchar_t w[512];
    mbstate_t st;
    memset(&st, 0, sizeof(st));
    const char *p = s;
    /* cppcheck-suppress legacyUninitvar ; mbsrtowcs writes w, it does not read it */
    size_t n = mbsrtowcs(w, &p, 511, &st);
    if (n == (size_t)-1)
        return (int)strlen(s);
    int c = wcswidth(w, n);
    return c < 0 ? (int)n : c;
}

/* Wide characters of a sanitized string (one cell each: names are sanitized, and put() cuts
 * whatever is still too wide). */
static size_t wide(const char *s, wchar_t *w, size_t max)
{
    mbstate_t st;
    memset(&st, 0, sizeof(st));
    const char *p = s;
    size_t n = mbsrtowcs(w, &p, max - 1, &st);
    if (n == (size_t)-1)
        n = 0;
    w[n] = L'\0';
    return n;
}

/* Appends s cut to at most cells, its start and its end kept around an ellipsis (the end gets
 * the odd cell: "Ethernet12" in 5 is "Et…12"). */
static size_t put_cut(wchar_t *out, size_t used, const wchar_t *s, size_t n, size_t cells,
                      wchar_t ellipsis)
{
    if (n <= cells || cells < 3) {
        size_t k = n < cells ? n : cells;
        wmemcpy(out + used, s, k);
        return used + k;
    }
    size_t head = (cells - 1) / 2, tail = cells - 1 - head;
    wmemcpy(out + used, s, head);
    out[used + head] = ellipsis;
    wmemcpy(out + used + head + 1, s + n - tail, tail);
    return used + cells;
}

/* An interface row's label (its fold mark, device and name) in [x, x+width). Too wide, it is
 * cut where it tells least: the middle of the interface name first, keeping its start and end
 * ("+leaf1/E…4"), then the middle of the device name ("+sp…e1/E…0"), so that the ports of a
 * device and the devices stay apart. */
static void put_name(const struct ui *u, int y, int x, int width, const struct top_iface *i,
                     bool one_device)
{
    bool utf8 = u->app->view.utf8;
    char dev_safe[4 * DCB_DEVICE_MAX], if_safe[4 * DCB_IFNAME_MAX];
    view_sanitize(one_device ? "" : i->device, dev_safe, sizeof(dev_safe), utf8);
    view_sanitize(i->ifname, if_safe, sizeof(if_safe), utf8);
    wchar_t dev[4 * DCB_DEVICE_MAX], ifn[4 * DCB_IFNAME_MAX], out[8 * DCB_DEVICE_MAX];
    size_t nd = wide(dev_safe, dev, sizeof(dev) / sizeof(dev[0]));
    size_t ni = wide(if_safe, ifn, sizeof(ifn) / sizeof(ifn[0]));
    size_t sep = nd ? 1 : 0; /* the '/' */
    size_t cells = width > 4 ? (size_t)width : 4;
    size_t fixed = 1 + sep; /* the fold mark and the '/' */
    size_t if_cells = ni, dev_cells = nd;
    if (fixed + nd + ni > cells) {
        size_t room = cells - fixed; /* for both names */
        if_cells = room > nd + 3 ? room - nd : (ni < 3 ? ni : 3);
        dev_cells = room > if_cells && room - if_cells < nd ? room - if_cells : nd;
        if (nd && dev_cells < 3)
            dev_cells = nd < 3 ? nd : 3; /* put() cuts what is left over */
    }
    wchar_t ellipsis = utf8 ? L'\u2026' : L'~';
    size_t used = 0;
    out[used++] = i->expanded ? L'-' : L'+';
    used = put_cut(out, used, dev, nd, dev_cells, ellipsis);
    if (sep)
        out[used++] = L'/';
    used = put_cut(out, used, ifn, ni, if_cells, ellipsis);
    out[used] = L'\0';
    char text[4 * sizeof(out) / sizeof(out[0])];
    if (wcstombs(text, out, sizeof(text)) == (size_t)-1)
        snprintf(text, sizeof(text), "?");
    put(y, x, width, text, false);
}

/* The label of an interface row: its fold mark and its name (the device too when there are
 * several). */
static void row_label(const struct top_iface *i, bool one_device, char *buf, size_t len)
{
    if (one_device)
        snprintf(buf, len, "%s%s", i->expanded ? "-" : "+", i->ifname);
    else
        snprintf(buf, len, "%s%s/%s", i->expanded ? "-" : "+", i->device, i->ifname);
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
    if (i->stale_ns > 0) /* out of reach: greyed, and said so */
        a = u->colour ? COLOR_PAIR(PAIR_STALE) | A_DIM : A_DIM;
    if (r == u->sel)
        a |= A_REVERSE;
    attron(a);
    char label[2 * DCB_DEVICE_MAX + 16];
    if (row->prio < 0) {
        put(y, 0, 2, sev_mark(i->severity), false);
        put_name(u, y, 2, l->name_w, i, one_device);
        draw_cells(u, y, l, i->col, true);
        if (i->stale_ns > 0) {
            char stale[40];
            snprintf(stale, sizeof(stale), " stale %llds", (long long)(i->stale_ns / 1000000000LL));
            put(y, 2 + l->name_w + TOP_NCOLS * l->cw, COLS - (2 + l->name_w + TOP_NCOLS * l->cw),
                stale, false);
        } else if (l->spark_w) {
            char spark[TOP_HIST * 3 + 1];
            view_sparkline(i, sort == SORT_NAME ? COL_RX : sort, l->spark_w, spark, sizeof(spark),
                           app->view.utf8);
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
    bool one_device = true;
    for (size_t k = 1; k < app->model.n && one_device; k++)
        one_device = !strcmp(app->model.ifaces[k]->device, app->model.ifaces[0]->device);
    int longest = 0;
    for (size_t r = 0; r < u->nrows; r++) {
        if (u->rows[r].prio >= 0)
            continue;
        char label[2 * DCB_DEVICE_MAX + 16], safe[1024];
        row_label(u->rows[r].iface, one_device, label, sizeof(label));
        view_sanitize(label, safe, sizeof(safe), app->view.utf8);
        int c = cells_of(safe);
        if (c > longest)
            longest = c;
    }
    struct layout l = layout_for(COLS, longest);
    draw_main_heading(u, &l, app->view.sort);
    int body = LINES - 4;
    if (body < 1)
        return;
    if (u->sel < u->top)
        u->top = u->sel;
    if (u->sel >= u->top + (size_t)body)
        u->top = u->sel - (size_t)body + 1;
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
    static const char *const heads[] = { "PRIO",    "RXb/s",    "TXb/s", "PFCrx/s", "PFCtx/s",
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
        if (i->series[METRIC_PFC_TX_PAUSE_US][p]) {
            double r = model_rate(i, METRIC_PFC_TX_PAUSE_US, p);
            tx_paused = isnan(r) ? (struct top_val){ NAN, VAL_PENDING }
                                 : (struct top_val){ r > 1e6 ? 100 : r * 1e-4, VAL_KNOWN };
        }
        const struct top_val cells[8] = { pc[COL_RX],     pc[COL_TX],     pc[COL_PFC_RX],
                                          pc[COL_PFC_TX], pc[COL_PAUSED], tx_paused,
                                          pc[COL_ECN],    pc[COL_DROPS] };
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

/* The findings view's lines go through one emitter: a first pass only counts them, so that
 * the scroll stays on a page that has lines (PgDn past the end shows the last page, and Up or
 * PgUp from there moves at once); the second draws from line u->scroll. */
struct emitter {
    const struct ui *u;
    bool counting;
    size_t total; /* lines counted */
    size_t skip;  /* lines above the screen still to pass */
    int y;
    size_t top_line;                  /* counting: find the cause whose entry holds this line */
    char top_cause[UI_CAUSE_KEY_MAX]; /* ... found here */
};

static void emit(struct emitter *e, attr_t attr, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void emit(struct emitter *e, attr_t attr, const char *fmt, ...)
{
    if (e->counting) {
        e->total++;
        return;
    }
    if (e->skip > 0) {
        e->skip--;
        return;
    }
    if (e->y >= LINES - 1)
        return;
    char line[1400], safe[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    view_sanitize(line, safe, sizeof(safe), e->u->app->view.utf8);
    attron(attr);
    move(e->y, 0);
    clrtoeol();
    put(e->y, 0, COLS, safe, false);
    attroff(attr);
    e->y++;
}

static bool same_cause(const struct finding *a, const struct finding *b)
{
    return a->rule == b->rule && a->severity == b->severity && a->cause == b->cause &&
           !strcmp(a->knob, b->knob);
}

static void cause_key(const struct finding *f, char *key, size_t len)
{
    snprintf(key, len, "%s|%d|%d|%s", f->rule->id, (int)f->severity, (int)f->cause, f->knob);
}

static void place_of(const struct finding *f, char *where, size_t len)
{
    if (f->device[0])
        snprintf(where, len, "%s/%s", f->device, f->ifname);
    else
        snprintf(where, len, "the fabric");
    if (f->prio >= 0)
        snprintf(where + strlen(where), len - strlen(where), " prio %d", f->prio);
}

/* An expanded cause: each place on a line of its own, with its first evidence and its own
 * proposed value. */
static void emit_places(struct emitter *e, const struct top_model *m, size_t first)
{
    const struct finding *fd = &m->findings[first];
    for (size_t f = first; f < m->nfindings; f++) {
        const struct finding *g = &m->findings[f];
        if (!same_cause(fd, g))
            continue;
        char where[200], value[96] = "", unit[96] = "";
        place_of(g, where, sizeof(where));
        if (g->nevidence)
            value_with_unit(g->evidence[0].name, g->evidence[0].value, value, sizeof(value));
        if (g->proposed[0])
            value_unit_note(g->knob, g->proposed, unit, sizeof(unit));
        emit(e, A_NORMAL, "      %s%s%s%s%s%s%s%s%s%s", where, g->nevidence ? ": " : "",
             g->nevidence ? g->evidence[0].name : "", g->nevidence ? " = " : "", value,
             g->proposed[0] ? "  -> " : "", g->proposed, unit[0] ? " (" : "", unit,
             unit[0] ? ")" : "");
    }
}

/* The documents a rule cites, as anchors into the shipped list (the full citation is in
 * diagnose's "see:" line): "see: /usr/share/dcbkit/docs/rules-references.md#qbb #nvidia-roce". */
static void emit_citation(struct emitter *e, const char *ref)
{
    char ids[8][CITE_ID_MAX], doc[1024], line[1024];
    size_t n = ref ? cite_anchors(ref, ids, 8) : 0;
    if (!n)
        return;
    int len = snprintf(line, sizeof(line), "    see: %s",
                       cite_doc_path(doc, sizeof(doc)) == 0 ? doc : CITE_DOC);
    for (size_t i = 0; i < n && i < 8 && len > 0 && (size_t)len < sizeof(line); i++)
        len += snprintf(line + len, sizeof(line) - (size_t)len, "%s#%s", i ? " " : "", ids[i]);
    emit(e, A_DIM, "%s", line);
}

/* One entry per cause (rule, severity, knob), at its first finding's place in the one order:
 * the first finding's summary, evidence and knob stand for the group, its places compacted;
 * Enter lists them one by one. */
static void emit_finding(struct emitter *e, const struct top_model *m, size_t first)
{
    const struct finding *fd = &m->findings[first];
    attr_t a = severity_attr(e->u, (int)fd->severity);
    char key[UI_CAUSE_KEY_MAX];
    cause_key(fd, key, sizeof(key));
    if (e->counting && e->total <= e->top_line)
        snprintf(e->top_cause, sizeof(e->top_cause), "%s", key);
    bool expanded = ui_cause_expanded(e->u, key);
    bool on_top = !strcmp(key, e->u->top_cause);
    char where[600];
    size_t count = 0;
    bool varies = false;
    struct place_ref refs[256];
    for (size_t f = first; f < m->nfindings; f++) {
        const struct finding *g = &m->findings[f];
        if (!same_cause(fd, g))
            continue;
        if (count < sizeof(refs) / sizeof(refs[0]))
            refs[count] = (struct place_ref){ g->device, g->ifname, g->prio };
        count++;
        varies |= strcmp(g->proposed, fd->proposed) != 0;
    }
    place_ranges(refs, count < 256 ? count : 256, where, sizeof(where));
    if (count == 1) /* one place: dcbtop's own device/ifname, as in every view */
        place_of(fd, where, sizeof(where));
    if (on_top)
        a |= A_REVERSE;
    if (count > 1)
        emit(e, a | A_BOLD, "%s %-5s %s  %zu places: %s%s", sev_mark((int)fd->severity),
             rule_severity_name(fd->severity), fd->rule->id, count, where,
             on_top ? (expanded ? "  [Enter folds]" : "  [Enter lists each]") : "");
    else
        emit(e, a | A_BOLD, "%s %-5s %s  %s", sev_mark((int)fd->severity),
             rule_severity_name(fd->severity), fd->rule->id, where);
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
        emit(e, A_NORMAL, "    %.*s", n, s);
        s += n;
        while (*s == ' ')
            s++;
    }
    for (size_t k = 0; k < fd->nevidence; k++) {
        char shown[96];
        emit(e, A_NORMAL, "    evidence%s%s%s%s: %s = %s", count > 1 ? " at " : "",
             count > 1 ? fd->device : "", count > 1 && fd->ifname[0] ? "/" : "",
             count > 1 ? fd->ifname : "", fd->evidence[k].name,
             value_with_unit(fd->evidence[k].name, fd->evidence[k].value, shown, sizeof(shown)));
    }
    if (fd->knob[0]) {
        char shown[96] = "";
        if (fd->proposed[0])
            value_unit_note(fd->knob, fd->proposed, shown, sizeof(shown));
        bool unit = shown[0] != '\0';
        emit(e, A_BOLD, "    knob: %s%s%s%s%s%s%s%s%s%s", fd->knob, fd->proposed[0] ? " -> " : "",
             fd->proposed, unit ? " (" : "", unit ? shown : "", unit ? ")" : "",
             varies ? " (here; other places differ)" : "", fd->rule->direction[0] ? "  (" : "",
             fd->rule->direction, fd->rule->direction[0] ? ")" : "");
    }
    if (expanded && count > 1)
        emit_places(e, m, first);
    emit_citation(e, fd->rule->reference);
}

static void emit_findings(struct emitter *e, const struct top_model *m)
{
    if (m->rules_error[0])
        emit(e, A_BOLD, "rules not loaded: %s", m->rules_error);
    else if (!m->nfindings)
        emit(e, A_NORMAL, "No findings: %zu rules found nothing over %zu interfaces.", m->rules.n,
             m->n);
    for (size_t f = 0; f < m->nfindings; f++) {
        bool seen = false;
        for (size_t g = 0; g < f && !seen; g++)
            seen = same_cause(&m->findings[g], &m->findings[f]);
        if (!seen)
            emit_finding(e, m, f);
    }
}

static void draw_findings(struct ui *u)
{
    size_t body = LINES > 4 ? (size_t)LINES - 3 : 1; /* rows 2 .. LINES-2 */
    struct emitter e = { u, true, 0, 0, 2, 0, "" };
    emit_findings(&e, &u->app->model);
    size_t last = e.total > body ? e.total - body : 0;
    if (u->scroll > last)
        u->scroll = last;
    e.total = 0; /* count again to find the cause at the top of the screen */
    e.top_line = u->scroll;
    e.top_cause[0] = '\0';
    emit_findings(&e, &u->app->model);
    snprintf(u->top_cause, sizeof(u->top_cause), "%s", e.top_cause);
    e.counting = false;
    e.skip = u->scroll;
    emit_findings(&e, &u->app->model);
    for (int y = e.y; y < LINES - 1; y++) {
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
    put(y++, 0, COLS,
        "Columns: bits/s in and out; PFC frames/s received and sent and % of time "
        "paused on the chosen priorities;",
        false);
    put(y++, 0, COLS,
        "ECN marks/s; CNPs sent and handled/s; out-of-sequence/s; drops/s. "
        "\xe2\x80\xa6 waits for a second sample, - is not provided.",
        false);
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
