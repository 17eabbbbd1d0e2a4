/* Batch frames of the QoS view (--view qos): for each interface, each row of the view as the
 * screen shows it, this end against the link partner. JSON (docs/dcbtop.md):
 *   {"time", "source", "status", "view": "qos", "interfaces": [{"device", "ifname",
 *    "config_source", "partner": {"name", "port", "via"} | null,
 *    "fields": [{"field", "label", "here", "partner", "mismatch"}]}]}
 * with null where a value is unknown. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "qos_text.h"
#include "top.h"

static void put_text(struct dcb_out *o, const char *key, const char *v)
{
    if (strcmp(v, "-"))
        out_str(o, key, NULL, v);
    else
        out_null(o, key, NULL);
}

static void json_partner(struct dcb_out *o, const struct top_iface *i)
{
    if (!i->peer_name[0] && !i->peer) {
        out_null(o, "partner", NULL);
        return;
    }
    out_obj_open(o, "partner");
    put_text(o, "name", i->peer_name[0] ? i->peer_name : "-");
    put_text(o, "port", i->peer_port[0] ? i->peer_port : "-");
    put_text(o, "via", i->peer_via[0] ? i->peer_via : "-");
    out_obj_close(o);
}

static void json_iface(struct dcb_out *o, const struct top_iface *i, bool utf8)
{
    out_obj_open(o, NULL);
    out_str(o, "device", NULL, i->device);
    out_str(o, "ifname", NULL, i->ifname);
    put_text(o, "config_source", i->config_source[0] ? i->config_source : "-");
    json_partner(o, i);
    out_arr_open(o, "fields");
    for (size_t r = 0; r < QOS_NROWS; r++) {
        char here[512], there[512];
        bool mismatch = qos_row_text(i, r, here, there, sizeof(here), utf8);
        out_obj_open(o, NULL);
        out_str(o, "field", NULL, qos_rows[r].path);
        out_str(o, "label", NULL, qos_rows[r].label);
        put_text(o, "here", here);
        put_text(o, "partner", there);
        out_bool(o, "mismatch", NULL, mismatch);
        out_obj_close(o);
    }
    out_arr_close(o);
    out_obj_close(o);
}

void batch_qos_json(struct top_app *app, struct top_iface **rows, size_t n)
{
    struct dcb_out o;
    out_init(&o, stdout, OUT_JSON);
    out_obj_open(&o, NULL);
    out_i64(&o, "time", NULL, app->model.data_ns);
    out_str(&o, "source", NULL, app->src.name);
    put_text(&o, "status", app->src.status[0] ? app->src.status : "-");
    out_str(&o, "view", NULL, "qos");
    out_arr_open(&o, "interfaces");
    for (size_t r = 0; r < n; r++)
        json_iface(&o, rows[r], app->view.utf8);
    out_arr_close(&o);
    out_obj_close(&o);
}

/* A line of text from the network after prefix, made safe for a terminal. */
static void print_safe(const char *prefix, const char *text, bool utf8)
{
    char safe[2048];
    view_sanitize(text, safe, sizeof(safe), utf8);
    printf("%s%s\n", prefix, safe);
}

void batch_qos_text(struct top_app *app, struct top_iface **rows, size_t n)
{
    bool utf8 = app->view.utf8;
    char when[64], line[1400];
    time_t t = (time_t)(app->model.data_ns / 1000000000LL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(line, sizeof(line), "dcbtop %s  %s  %zu interfaces  QoS config", when, app->src.name,
             n);
    print_safe("", line, utf8);
    if (app->src.status[0])
        print_safe("note: ", app->src.status, utf8);
    for (size_t k = 0; k < n; k++) {
        const struct top_iface *i = rows[k];
        qos_title(i, line, sizeof(line));
        print_safe("\n", line, utf8);
        qos_partner(i, line, sizeof(line));
        print_safe("", line, utf8);
        out_term(stdout, "%-14s %-32s   %s\n", "FIELD", "HERE", "LINK PARTNER");
        for (size_t r = 0; r < QOS_NROWS; r++) {
            char here[512], there[512], safe_here[2048], safe_there[2048];
            bool mismatch = qos_row_text(i, r, here, there, sizeof(here), utf8);
            view_sanitize(here, safe_here, sizeof(safe_here), utf8);
            view_sanitize(there, safe_there, sizeof(safe_there), utf8);
            out_term(stdout, "%-14s %-32s %s %s%s\n", qos_rows[r].label, safe_here,
                     mismatch ? "!=" : "  ", safe_there, mismatch ? "  MISMATCH" : "");
        }
    }
    printf("\n");
}
