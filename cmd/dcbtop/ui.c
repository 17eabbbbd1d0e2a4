/* The interactive loop, as htop runs it: draw, then wait for a key no longer than the time to
 * the next refresh (getch with a timeout), single-threaded. */
#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "ui.h"

static volatile sig_atomic_t ui_stop;

static void on_stop(int sig)
{
    (void)sig;
    ui_stop = 1; /* leave through endwin(): the terminal is restored */
}

void ui_build_rows(struct ui *u)
{
    static struct top_iface *ifaces[4096];
    size_t n = view_rows(&u->app->model, &u->app->view, ifaces, 4096);
    u->nrows = 0;
    for (size_t k = 0; k < n && u->nrows < UI_ROWS_MAX; k++) {
        u->rows[u->nrows++] = (struct ui_row){ ifaces[k], -1 };
        if (!ifaces[k]->expanded)
            continue;
        for (int p = 0; p < 8 && u->nrows < UI_ROWS_MAX; p++)
            u->rows[u->nrows++] = (struct ui_row){ ifaces[k], p };
    }
    /* keep the selection on the same interface and priority */
    for (size_t r = 0; r < u->nrows && u->sel_ifname[0]; r++) {
        const struct top_iface *i = u->rows[r].iface;
        if (u->rows[r].prio == u->sel_prio && !strcmp(i->ifname, u->sel_ifname) &&
            !strcmp(i->device, u->sel_device)) {
            u->sel = r;
            break;
        }
    }
    if (u->sel >= u->nrows)
        u->sel = u->nrows ? u->nrows - 1 : 0;
}

struct top_iface *ui_selected(const struct ui *u)
{
    return u->nrows ? u->rows[u->sel].iface : NULL;
}

bool ui_cause_expanded(const struct ui *u, const char *key)
{
    for (size_t k = 0; k < u->nexpanded; k++)
        if (!strcmp(u->expanded[k], key))
            return true;
    return false;
}

/* Enter in the findings view: the places of the cause at the top of the screen, listed or
 * folded again. */
static void toggle_top_cause(struct ui *u)
{
    if (!u->top_cause[0])
        return;
    for (size_t k = 0; k < u->nexpanded; k++)
        if (!strcmp(u->expanded[k], u->top_cause)) {
            memmove(u->expanded[k], u->expanded[k + 1],
                    (u->nexpanded - k - 1) * sizeof(u->expanded[0]));
            u->nexpanded--;
            return;
        }
    if (u->nexpanded == UI_EXPANDED_MAX) {
        snprintf(u->msg, sizeof(u->msg), "%d causes listed already: fold one (Enter)",
                 UI_EXPANDED_MAX);
        return;
    }
    snprintf(u->expanded[u->nexpanded++], sizeof(u->expanded[0]), "%s", u->top_cause);
}

static void remember_selection(struct ui *u)
{
    if (!u->nrows)
        return;
    const struct ui_row *r = &u->rows[u->sel];
    snprintf(u->sel_device, sizeof(u->sel_device), "%s", r->iface->device);
    snprintf(u->sel_ifname, sizeof(u->sel_ifname), "%s", r->iface->ifname);
    u->sel_prio = r->prio;
}

/* A line of input on the bottom row; Enter 1, Esc 0. */
static int prompt(const char *label, char *buf, size_t len)
{
    size_t n = strlen(buf);
    timeout(-1);
    curs_set(1);
    for (;;) {
        move(LINES - 1, 0);
        clrtoeol();
        attron(A_BOLD);
        addstr(label);
        attroff(A_BOLD);
        addnstr(buf, COLS - (int)strlen(label) - 1);
        refresh();
        int ch = getch();
        if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
            curs_set(0);
            return 1;
        }
        if (ch == 27) {
            curs_set(0);
            return 0;
        }
        if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && n > 0)
            buf[--n] = '\0';
        else if (ch >= 0x20 && ch < 0x7f && n + 1 < len) {
            buf[n++] = (char)ch;
            buf[n] = '\0';
        }
    }
}

static void move_sel(struct ui *u, long delta)
{
    if (u->view == V_FINDINGS) {
        long s = (long)u->scroll + delta;
        u->scroll = s < 0 ? 0 : (size_t)s;
        return;
    }
    if (!u->nrows)
        return;
    long s = (long)u->sel + delta;
    if (s < 0)
        s = 0;
    if (s >= (long)u->nrows)
        s = (long)u->nrows - 1;
    u->sel = (size_t)s;
    remember_selection(u);
}

static void cycle_sort(struct ui *u, int dir)
{
    int s = u->app->view.sort + dir; /* SORT_NAME (-1) .. TOP_NCOLS-1 */
    if (s < SORT_NAME)
        s = TOP_NCOLS - 1;
    if (s >= TOP_NCOLS)
        s = SORT_NAME;
    u->app->view.sort = s;
    snprintf(u->msg, sizeof(u->msg), "sorted by %s", view_sort_name(s));
}

static void choose_prio(struct ui *u)
{
    move(LINES - 1, 0);
    clrtoeol();
    attron(A_BOLD);
    addstr("priority: 0-7, or l for the lossless set: ");
    attroff(A_BOLD);
    refresh();
    timeout(-1);
    int ch = getch();
    if (ch >= '0' && ch <= '7')
        model_set_prio(&u->app->model, ch - '0');
    else if (ch == 'l')
        model_set_prio(&u->app->model, TOP_PRIO_LOSSLESS);
    else
        return;
    char buf[32];
    snprintf(u->msg, sizeof(u->msg), "columns cover %s",
             view_prio_name(u->app->model.prio, buf, sizeof(buf)));
}

/* 'd': the prompt starts empty (what is typed replaces the interval, never adds to it); an
 * empty line keeps the interval, anything that is not one is refused with the range. */
static void choose_interval(struct ui *u)
{
    char label[96], buf[32] = "";
    snprintf(label, sizeof(label), "refresh interval in seconds, 0.01-3600 (now %gs): ",
             (double)u->app->interval_ns / 1e9);
    if (!prompt(label, buf, sizeof(buf)) || !buf[0]) {
        snprintf(u->msg, sizeof(u->msg), "refreshing every %gs (unchanged)",
                 (double)u->app->interval_ns / 1e9);
        return;
    }
    int64_t ns;
    if (top_parse_delay(buf, &ns) < 0) {
        char safe[64];
        view_sanitize(buf, safe, sizeof(safe), u->app->view.utf8);
        snprintf(u->msg, sizeof(u->msg), "not an interval: '%s' (%s); still every %gs", safe,
                 TOP_DELAY_RANGE, (double)u->app->interval_ns / 1e9);
        return;
    }
    u->app->interval_ns = ns;
    u->retick = true; /* the next refresh is due at the new interval, not the old */
    snprintf(u->msg, sizeof(u->msg), "refreshing every %gs", (double)ns / 1e9);
}

static void seek(struct ui *u, int steps)
{
    struct dcb_source *src = &u->app->src;
    struct dcb_err err;
    if (!src->ops->seek) {
        snprintf(u->msg, sizeof(u->msg), "[ and ] move in time with --store");
        return;
    }
    if (src->ops->seek(src, steps, &err) < 0)
        snprintf(u->msg, sizeof(u->msg), "%s", err.msg);
    else if (top_step(u->app) < 0)
        snprintf(u->msg, sizeof(u->msg), "%s", u->app->error);
}

/* Returns false to quit. */
static bool key(struct ui *u, int ch)
{
    if (u->help && ch != KEY_RESIZE) { /* any key returns, q and F10 too */
        u->help = false;
        return true;
    }
    int page = LINES > 6 ? LINES - 5 : 1;
    switch (ch) {
    case 'q':
    case 'Q':
    case KEY_F(10): return false;
    case KEY_UP:
    case 'k': move_sel(u, -1); break;
    case KEY_DOWN:
    case 'j': move_sel(u, 1); break;
    case KEY_PPAGE: move_sel(u, -page); break;
    case KEY_NPAGE: move_sel(u, page); break;
    case KEY_HOME: move_sel(u, -(long)UI_ROWS_MAX); break;
    case KEY_END: move_sel(u, (long)UI_ROWS_MAX); break;
    case '<': cycle_sort(u, -1); break;
    case '>':
    case KEY_F(6): cycle_sort(u, 1); break;
    case '/': {
        struct top_view *v = &u->app->view;
        char buf[sizeof(v->filter)];
        snprintf(buf, sizeof(buf), "%s", v->filter);
        if (prompt("filter: ", buf, sizeof(buf)))
            snprintf(v->filter, sizeof(v->filter), "%s", buf);
        else
            v->filter[0] = '\0';
        break;
    }
    case 'p': choose_prio(u); break;
    case 'l':
        model_set_prio(&u->app->model, TOP_PRIO_LOSSLESS);
        snprintf(u->msg, sizeof(u->msg), "columns cover the lossless set");
        break;
    case 'd': choose_interval(u); break;
    case ' ':
        u->paused = !u->paused;
        snprintf(u->msg, sizeof(u->msg), u->paused ? "paused (Space resumes)" : "resumed");
        break;
    case '\t':
        u->view = (u->view + 1) % V_COUNT;
        u->scroll = 0;
        break;
    case KEY_BTAB:
        u->view = (u->view + V_COUNT - 1) % V_COUNT;
        u->scroll = 0;
        break;
    case 'f':
        u->view = u->view == V_FINDINGS ? V_MAIN : V_FINDINGS;
        u->scroll = 0;
        break;
    case 'h':
    case '?':
    case KEY_F(1): u->help = true; break;
    case '\n':
    case '\r':
    case KEY_ENTER: {
        struct top_iface *i = ui_selected(u);
        if (u->view == V_FINDINGS)
            toggle_top_cause(u);
        else if (i && u->view == V_MAIN) {
            i->expanded = !i->expanded;
            u->sel_prio = -1; /* stay on the interface row */
            snprintf(u->sel_device, sizeof(u->sel_device), "%s", i->device);
            snprintf(u->sel_ifname, sizeof(u->sel_ifname), "%s", i->ifname);
        }
        break;
    }
    case '[': seek(u, -1); break;
    case ']': seek(u, 1); break;
    case KEY_RESIZE: clear(); break;
    default: break;
    }
    return true;
}

/* Home and End as the common terminals send them, whatever the terminfo entry of TERM says
 * (xterm's \EOH under tmux, which sends \E[1~): otherwise they arrive as Esc and a '[' that
 * would move the store back in time. */
static void define_home_end(void)
{
    static const char *const home[] = { "\033[1~", "\033[7~", "\033[H", "\033OH" };
    static const char *const end[] = { "\033[4~", "\033[8~", "\033[F", "\033OF" };
    for (size_t k = 0; k < sizeof(home) / sizeof(home[0]); k++) {
        if (key_defined(home[k]) == 0)
            define_key(home[k], KEY_HOME);
        if (key_defined(end[k]) == 0)
            define_key(end[k], KEY_END);
    }
}

int ui_run(struct top_app *app)
{
    static struct ui u;
    u.app = app;
    u.sel_prio = -1;
    u.rows = calloc(UI_ROWS_MAX, sizeof(*u.rows));
    if (!u.rows) {
        out_term(stderr, "dcbtop: out of memory\n");
        return 1;
    }
    if (!newterm(NULL, stdout, stdin)) {
        out_term(stderr, "dcbtop: cannot use this terminal (TERM=%s)\n",
                 getenv("TERM") ? getenv("TERM") : "");
        free(u.rows);
        return 1;
    }
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    define_home_end();
    curs_set(0);
    set_escdelay(25);
    u.colour = has_colors() && !getenv("NO_COLOR") && start_color() == OK;
    if (u.colour) {
        use_default_colors();
        init_pair(PAIR_CRIT, COLOR_RED, -1);
        init_pair(PAIR_WARN, COLOR_YELLOW, -1);
        init_pair(PAIR_INFO, COLOR_CYAN, -1);
        init_pair(PAIR_HEAD, COLOR_BLACK, COLOR_GREEN);
        init_pair(PAIR_SPARK, COLOR_GREEN, -1);
        init_pair(PAIR_MISMATCH, COLOR_WHITE, COLOR_RED);
        init_pair(PAIR_STALE, COLOR_WHITE, -1); /* with A_DIM: grey */
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    if (top_step(app) < 0)
        snprintf(u.msg, sizeof(u.msg), "%s", app->error);
    int64_t next = dcb_monotonic_ns() + app->interval_ns;
    while (!ui_stop) {
        ui_build_rows(&u);
        ui_draw(&u);
        int64_t now = dcb_monotonic_ns();
        int wait_ms = u.paused ? 1000 : next > now ? (int)((next - now) / 1000000) : 0;
        timeout(wait_ms);
        int ch = getch();
        if (ch != ERR) {
            u.msg[0] = ch == KEY_RESIZE ? u.msg[0] : '\0';
            if (!key(&u, ch))
                break;
            if (u.retick) {
                u.retick = false;
                next = dcb_monotonic_ns();
            }
            continue;
        }
        now = dcb_monotonic_ns();
        if (u.paused || now < next)
            continue;
        if (top_step(app) < 0)
            snprintf(u.msg, sizeof(u.msg), "%s", app->error);
        next += app->interval_ns;
        if (next < now)
            next = now + app->interval_ns;
    }
    endwin();
    free(u.rows);
    return 0;
}
