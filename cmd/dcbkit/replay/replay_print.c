/* dcbkit replay: a run or a comparison, as text or JSON (one call site per field). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay_cmd.h"
#include "units.h"

static void add(struct figure *f, size_t *n, const char *key, const char *label,
                enum figure_kind kind, double value, bool known)
{
    f[*n] = (struct figure){ key, label, kind, value, known };
    (*n)++;
}

size_t replay_figures(const struct scenario *sc, const struct scenario_result *r, struct figure *f)
{
    const struct replay_summary *s = &r->summary;
    const struct scenario_digest *d = &r->digest;
    size_t n = 0;
    uint64_t pg = 0, q = 0, pfc_sw = 0, pfc_host = 0;
    double goodput = 0;
    for (int i = 0; i < SCENARIO_PRIOS; i++) {
        pg += d->pg_drops[i];
        q += d->queue_drops[i];
        pfc_sw += d->pfc_tx_switch[i];
        pfc_host += d->pfc_tx_host[i];
    }
    for (size_t i = 0; i < s->nflows; i++)
        goodput += (double)s->flows[i].bytes_measured * 8;
    int64_t measured_ns = r->last_pass_ns - s->warmup_ns;
    goodput = measured_ns > 0 ? goodput * 1e9 / (double)measured_ns : 0;
    add(f, &n, "goodput_bps", "goodput (acked bytes / time)", FIG_BPS, goodput, true);
    add(f, &n, "jain", "Jain fairness", FIG_RATIO, s->jain, s->nflows > 0);
    add(f, &n, "jain_window_min", "Jain, lowest of 10 ms windows", FIG_RATIO, s->jain_window_min,
        s->windows > 0);
    add(f, &n, "jain_window_mean", "Jain, mean of 10 ms windows", FIG_RATIO, s->jain_window_mean,
        s->windows > 0);
    add(f, &n, "windows_jain_099", "windows with Jain >= 0.99", FIG_PERCENT, s->windows_jain_099,
        s->windows > 0);
    add(f, &n, "windows_fair", "windows, all within 10 % of fair", FIG_PERCENT, s->windows_fair,
        s->windows > 0);
    add(f, &n, "bottleneck_util", "busiest host link (rx)", FIG_PERCENT, d->bottleneck_util,
        d->nhosts > 0);
    add(f, &n, "drops_pg", "drops, ingress PG (lossless)", FIG_COUNT, (double)pg, true);
    add(f, &n, "drops_queue", "drops, egress queues", FIG_COUNT, (double)q, true);
    add(f, &n, "drops_wred", "drops, WRED (in egress queues)", FIG_COUNT, (double)d->wred_drops,
        true);
    add(f, &n, "drops_watchdog", "drops, PFC watchdog (in egress queues)", FIG_COUNT,
        (double)d->watchdog_drops, true);
    add(f, &n, "drops_oversize", "drops, frames above the MTU", FIG_COUNT,
        (double)d->oversize_drops, true);
    add(f, &n, "drops_fcs", "drops, frames with a bad FCS", FIG_COUNT, (double)d->fcs_errors, true);
    add(f, &n, "pfc_tx_switch", "PFC frames from switches", FIG_COUNT, (double)pfc_sw, true);
    add(f, &n, "pfc_tx_host", "PFC frames from hosts", FIG_COUNT, (double)pfc_host, true);
    add(f, &n, "pause_global_tx", "802.3x PAUSE frames sent", FIG_COUNT, (double)d->pause_global_tx,
        true);
    add(f, &n, "pause_global_rx", "802.3x PAUSE frames received", FIG_COUNT,
        (double)d->pause_global_rx, true);
    add(f, &n, "pause_fraction_max", "pause time, most paused port", FIG_PERCENT,
        s->pause_fraction_max, true);
    add(f, &n, "longest_pause_ns", "longest unbroken pause", FIG_NS, (double)d->longest_pause_ns,
        true);
    add(f, &n, "first_pause_ns", "first XOFF at", FIG_NS, (double)d->first_pause_ns,
        d->first_pause_ns >= 0);
    add(f, &n, "marks_by_first_pause", "ECN marks by the first XOFF", FIG_COUNT,
        (double)d->marks_by_first_pause, d->first_pause_ns >= 0);
    add(f, &n, "ecn_marked", "ECN marks (switch queues)", FIG_COUNT, (double)d->ecn_marked, true);
    add(f, &n, "ce_received", "CE packets received", FIG_COUNT, (double)d->ce_received, true);
    add(f, &n, "cnp_sent", "CNPs sent", FIG_COUNT, (double)d->cnp_sent, true);
    add(f, &n, "cnp_handled", "CNPs the senders' RP acted on", FIG_COUNT, (double)d->cnp_handled,
        true);
    add(f, &n, "cnp_ignored", "CNPs to senders with the RP off", FIG_COUNT, (double)d->cnp_ignored,
        true);
    add(f, &n, "watchdog_storms", "PFC watchdog storms", FIG_COUNT, (double)d->watchdog_storms,
        true);
    add(f, &n, "uplink_ratio", "uplink load / its siblings'", FIG_RATIO, d->uplink_ratio,
        d->uplink_device[0] != 0);
    add(f, &n, "queue_mean_bytes", "queue depth mean", FIG_BYTES, s->queue_mean_bytes, true);
    add(f, &n, "queue_p50_bytes", "queue depth p50", FIG_BYTES, s->queue_p50_bytes, true);
    add(f, &n, "queue_p99_bytes", "queue depth p99", FIG_BYTES, s->queue_p99_bytes, true);
    add(f, &n, "queue_max_bytes", "queue depth max", FIG_BYTES, s->queue_max_bytes, true);
    add(f, &n, "retransmitted", "packets retransmitted", FIG_COUNT, 0, true);
    uint64_t retx = 0;
    for (size_t i = 0; i < s->nflows; i++)
        retx += s->flows[i].retransmitted;
    f[n - 1].value = (double)retx;
    add(f, &n, "out_of_sequence", "packets received out of sequence", FIG_COUNT,
        (double)d->out_of_sequence, true);
    add(f, &n, "naks_received", "NAKs the senders received", FIG_COUNT, (double)d->naks_received,
        true);
    add(f, &n, "ack_timeouts", "retransmit timeouts", FIG_COUNT, (double)d->ack_timeouts, true);
    if (sc->workload.type == WORKLOAD_RING_ALLREDUCE) {
        add(f, &n, "iterations", "all-reduce iterations done", FIG_COUNT, r->iterations.complete,
            true);
        add(f, &n, "iteration_mean_ns", "iteration time, mean", FIG_NS, r->iterations.mean_ns,
            r->iterations.complete > 0);
        add(f, &n, "iteration_p99_ns", "iteration time, p99", FIG_NS, r->iterations.p99_ns,
            r->iterations.complete > 0);
    }
    return n;
}

static char *fmt_figure(const struct figure *f, double v, char *buf, size_t len)
{
    char u[DCB_UNIT_BUF];
    if (!f->known)
        return snprintf(buf, len, "-"), buf;
    switch (f->kind) {
    case FIG_COUNT: snprintf(buf, len, "%.0f", v); break;
    case FIG_PERCENT: snprintf(buf, len, "%.2f %%", v * 100); break;
    case FIG_BYTES: snprintf(buf, len, "%s", dcb_fmt_bytes((uint64_t)fabs(v), u, sizeof(u))); break;
    case FIG_NS: snprintf(buf, len, "%s", dcb_fmt_duration_ns(fabs(v), u, sizeof(u))); break;
    case FIG_RATIO:
        if (isinf(v))
            snprintf(buf, len, "inf");
        else
            snprintf(buf, len, "%.4g", v);
        break;
    case FIG_BPS: snprintf(buf, len, "%s", dcb_fmt_rate((uint64_t)fabs(v), u, sizeof(u))); break;
    }
    if (v < 0 && (f->kind == FIG_BYTES || f->kind == FIG_NS || f->kind == FIG_BPS)) {
        memmove(buf + 1, buf, strnlen(buf, len - 2) + 1);
        buf[0] = '-';
    }
    return buf;
}

static void figure_json(struct dcb_out *o, const struct figure *f)
{
    if (!f->known)
        out_null(o, f->key, NULL);
    else if (f->kind == FIG_COUNT || f->kind == FIG_NS)
        out_i64(o, f->key, NULL, (int64_t)llround(f->value));
    else
        out_dbl(o, f->key, NULL, f->value); /* inf becomes null */
}

static void print_flows(struct dcb_out *o, const struct scenario *sc,
                        const struct replay_summary *s)
{
    char a[DCB_UNIT_BUF], b[DCB_UNIT_BUF], c[DCB_UNIT_BUF];
    out_arr_open(o, "flows");
    out_text(o, "\n%5s  %-10s %-10s %10s %11s %11s %7s %7s %8s\n", "FLOW", "SRC", "DST", "ACKED",
             "THROUGHPUT", "FCT", "RETX", "CNPS", "CE");
    size_t shown = 0;
    for (size_t i = 0; i < s->nflows; i++) {
        const struct replay_flow_result *f = &s->flows[i];
        const struct replay_flow *in = &sc->workload.flows[i];
        bool text_row = shown < 20 || i + 1 == s->nflows;
        if (!out_is_json(o) && !text_row) {
            if (shown == 20)
                out_text(o, "%5s  ... %zu more flows (-T json lists them all)\n", "",
                         s->nflows - 21);
            shown++;
            continue;
        }
        shown++;
        out_obj_open(o, NULL);
        out_u64(o, "flow", "%5" PRIu64 "  ", i);
        out_str(o, "src", "%-10s ", in->src);
        out_str(o, "dst", "%-10s ", in->dst);
        out_u64(o, "bytes", NULL, in->bytes);
        out_i64(o, "start_ns", NULL, f->start_ns);
        out_u64(o, "bytes_acked", NULL, f->bytes_acked);
        out_u64(o, "bytes_measured", NULL, f->bytes_measured);
        out_text(o, "%10s ", dcb_fmt_bytes(f->bytes_acked, a, sizeof(a)));
        out_dbl(o, "throughput_bps", NULL, f->throughput_bps);
        snprintf(c, sizeof(c), "%s", dcb_fmt_rate((uint64_t)f->throughput_bps, b, sizeof(b)));
        out_text(o, "%11s ", c);
        if (f->finish_ns > 0) {
            out_i64(o, "fct_ns", NULL, f->finish_ns - f->start_ns);
            out_text(o, "%11s ",
                     dcb_fmt_duration_ns((double)(f->finish_ns - f->start_ns), a, sizeof(a)));
        } else {
            out_null(o, "fct_ns", NULL);
            out_text(o, "%11s ", "running");
        }
        out_u64(o, "packets_sent", NULL, f->packets_sent);
        out_u64(o, "retransmitted", "%7" PRIu64 " ", f->retransmitted);
        out_u64(o, "cnps", "%7" PRIu64 " ", f->cnps);
        out_u64(o, "ce_marked", "%8" PRIu64 "\n", f->ce_marked);
        out_dbl(o, "final_rc_bps", NULL, f->final_rc_bps);
        out_u64(o, "cnps_handled", NULL, f->cnps_handled);
        out_u64(o, "naks", NULL, f->naks);
        out_u64(o, "out_of_sequence", NULL, f->out_of_sequence);
        out_u64(o, "timeouts", NULL, f->timeouts);
        out_obj_close(o);
    }
    out_arr_close(o);
}

static int by_mean_desc(const void *x, const void *y)
{
    const struct replay_queue_result *a = *(const struct replay_queue_result *const *)x;
    const struct replay_queue_result *b = *(const struct replay_queue_result *const *)y;
    return (a->mean_bytes < b->mean_bytes) - (a->mean_bytes > b->mean_bytes);
}

static void queue_row(struct dcb_out *o, const struct replay_queue_result *q)
{
    char a[DCB_UNIT_BUF], b[DCB_UNIT_BUF], c[DCB_UNIT_BUF], d[DCB_UNIT_BUF];
    out_obj_open(o, NULL);
    out_str(o, "device", "%-12s ", q->device);
    out_str(o, "ifname", "%-10s ", q->ifname);
    out_i64(o, "tc", "%3" PRId64 " ", q->tc);
    out_dbl(o, "mean_bytes", NULL, q->mean_bytes);
    out_dbl(o, "p50_bytes", NULL, q->p50_bytes);
    out_dbl(o, "p99_bytes", NULL, q->p99_bytes);
    out_dbl(o, "max_bytes", NULL, q->max_bytes);
    out_text(o, "%10s %10s %10s %10s ", dcb_fmt_bytes((uint64_t)q->mean_bytes, a, sizeof(a)),
             dcb_fmt_bytes((uint64_t)q->p50_bytes, b, sizeof(b)),
             dcb_fmt_bytes((uint64_t)q->p99_bytes, c, sizeof(c)),
             dcb_fmt_bytes((uint64_t)q->max_bytes, d, sizeof(d)));
    out_u64(o, "samples", "%8" PRIu64 "\n", q->samples);
    out_obj_close(o);
}

/* The egress queues that carried traffic, sampled at the series interval after the warm-up;
 * in text the twenty deepest by mean. */
static void print_queues(struct dcb_out *o, const struct replay_summary *s)
{
    const struct replay_queue_result **order = malloc((s->nqueues + 1) * sizeof(*order));
    if (!order)
        return;
    for (size_t i = 0; i < s->nqueues; i++)
        order[i] = &s->queues[i];
    size_t shown = s->nqueues;
    if (!out_is_json(o)) {
        qsort(order, s->nqueues, sizeof(*order), by_mean_desc);
        shown = shown > 20 ? 20 : shown;
    }
    out_arr_open(o, "queues");
    if (s->nqueues)
        out_text(o, "\n%-12s %-10s %3s %10s %10s %10s %10s %8s\n", "QUEUE", "IFNAME", "TC", "MEAN",
                 "P50", "P99", "MAX", "SAMPLES");
    for (size_t k = 0; k < shown; k++)
        queue_row(o, order[k]);
    if (s->nqueues > shown)
        out_text(o, "... %zu more queues (-T json lists them all)\n", s->nqueues - shown);
    out_arr_close(o);
    free(order);
}

static void print_hosts(struct dcb_out *o, const struct scenario_digest *d)
{
    out_arr_open(o, "hosts");
    out_text(o, "\n%-12s %-10s %9s %9s %9s\n", "HOST", "IFNAME", "RX UTIL", "TX UTIL", "PFC TX");
    for (size_t i = 0; i < d->nhosts; i++) {
        const struct scenario_host *h = &d->hosts[i];
        out_obj_open(o, NULL);
        out_str(o, "device", "%-12s ", h->device);
        out_str(o, "ifname", "%-10s ", h->ifname);
        out_dbl(o, "rx_util", NULL, h->rx_util);
        out_dbl(o, "tx_util", NULL, h->tx_util);
        out_text(o, "%7.1f %% %7.1f %% ", h->rx_util * 100, h->tx_util * 100);
        out_u64(o, "pfc_tx", "%9" PRIu64 "\n", h->pfc_tx);
        out_obj_close(o);
    }
    out_arr_close(o);
}

static void print_by_prio(struct dcb_out *o, const char *key, const char *label, const uint64_t *v)
{
    bool any = false;
    for (int i = 0; i < SCENARIO_PRIOS; i++)
        any = any || v[i];
    out_arr_open(o, key);
    for (int i = 0; i < SCENARIO_PRIOS; i++)
        out_u64(o, NULL, NULL, v[i]);
    out_arr_close(o);
    if (!any)
        return;
    out_text(o, "  %-32s", label);
    for (int i = 0; i < SCENARIO_PRIOS; i++)
        if (v[i])
            out_text(o, " %d:%" PRIu64, i, v[i]);
    out_text(o, "\n");
}

static void print_header(struct dcb_out *o, const struct scenario *sc,
                         const struct scenario_result *r)
{
    char a[DCB_UNIT_BUF];
    out_str(o, "scenario", "scenario %s: ", sc->name);
    out_str(o, "source", NULL, sc->source);
    out_str(o, "workload", "workload %s", workload_type_name(sc->workload.type));
    out_u64(o, "nflows", ", %" PRIu64 " flows", sc->workload.nflows);
    const cJSON *faults = cJSON_GetObjectItemCaseSensitive(sc->doc, "faults");
    out_u64(o, "faults", ", %" PRIu64 " faults", (uint64_t)cJSON_GetArraySize(faults));
    out_u64(o, "seed", ", seed %" PRIu64 "\n", sc->options.seed);
    out_i64(o, "simulated_ns", NULL, r->simulated_ns);
    out_text(o, "  %s simulated", dcb_fmt_duration_ns((double)r->simulated_ns, a, sizeof(a)));
    out_u64(o, "passes", " in %" PRIu64 " pass(es)", r->passes);
    out_dbl(o, "wall_s", ", %.3f s wall", r->wall_s);
    out_dbl(o, "cpu_s", " (%.3f s cpu)", r->cpu_s);
    out_u64(o, "events", ", %" PRIu64 " events", r->events);
    double eps = r->cpu_s > 0 ? (double)r->events / r->cpu_s : 0;
    out_dbl(o, "events_per_cpu_s", NULL, eps);
    out_text(o, ", %.2f M events/s of cpu\n", eps / 1e6);
    out_u64(o, "packet_hops", NULL, r->packet_hops);
    out_bool(o, "stopped", NULL, r->stopped);
    out_i64(o, "warmup_ns", NULL, r->warmup_ns);
    out_i64(o, "measured_from_ns", NULL, r->measured_from_ns);
    if (r->warmup_ns > 0) {
        char b[DCB_UNIT_BUF];
        out_text(o, "  measured after a warm-up of %s (counters from the sample at %s)\n",
                 dcb_fmt_duration_ns((double)r->warmup_ns, a, sizeof(a)),
                 dcb_fmt_duration_ns((double)r->measured_from_ns, b, sizeof(b)));
    }
}

static void print_body(struct dcb_out *o, const struct scenario *sc,
                       const struct scenario_result *r)
{
    struct figure f[FIGURES_MAX];
    size_t n = replay_figures(sc, r, f);
    char buf[64];
    out_obj_open(o, "figures");
    out_text(o, "\n");
    for (size_t i = 0; i < n; i++) {
        figure_json(o, &f[i]);
        out_text(o, "  %-32s %s\n", f[i].label, fmt_figure(&f[i], f[i].value, buf, sizeof(buf)));
    }
    out_obj_close(o);
    const struct scenario_digest *d = &r->digest;
    print_by_prio(o, "pg_drops", "drops by PG", d->pg_drops);
    print_by_prio(o, "queue_drops", "drops by egress TC", d->queue_drops);
    print_by_prio(o, "pfc_tx_switch", "PFC frames from switches, by prio", d->pfc_tx_switch);
    print_by_prio(o, "pfc_tx_host", "PFC frames from hosts, by prio", d->pfc_tx_host);
    if (d->longest_pause_prio >= 0) {
        out_str(o, "longest_pause_port", "  %-32s", d->longest_pause_port);
        out_i64(o, "longest_pause_prio", " prio %" PRId64 "\n", d->longest_pause_prio);
    }
    if (d->uplink_device[0]) {
        out_text(o, "  %-32s ", "most uneven uplinks on");
        out_str(o, "uplink_device", "%s", d->uplink_device);
        out_u64(o, "uplink_max_bytes", " (%" PRIu64 " bytes", d->uplink_max_bytes);
        out_dbl(o, "uplink_siblings_bytes", " against %.0f)\n", d->uplink_siblings_bytes);
    }
    print_flows(o, sc, &r->summary);
    print_queues(o, &r->summary);
    print_hosts(o, d);
}

/* JSON only (the text run has said it on stderr): the config paths the scenario sets that the
 * engine does not model. */
static void print_warnings(struct dcb_out *o, const struct scenario *sc)
{
    struct scenario_unmodelled_path u[16];
    size_t n = scenario_unmodelled(sc, u, sizeof(u) / sizeof(u[0]));
    out_arr_open(o, "warnings");
    for (size_t i = 0; i < n; i++) {
        char text[160];
        snprintf(text, sizeof(text),
                 "%s is set (%zu interfaces) but not modelled: the run "
                 "ignores it",
                 u[i].path, u[i].ifaces);
        out_str(o, NULL, NULL, text);
    }
    out_arr_close(o);
}

void replay_print_run(struct dcb_out *o, const struct scenario *sc, const struct scenario_result *r)
{
    out_obj_open(o, NULL);
    out_u64(o, "schema", NULL, 1);
    print_header(o, sc, r);
    print_warnings(o, sc);
    print_body(o, sc, r);
    out_obj_close(o);
}

void replay_print_compare(struct dcb_out *o, const struct scenario *base,
                          const struct scenario_result *rb, const struct scenario *var,
                          const struct scenario_result *rv, const char *const *changes,
                          size_t nchanges)
{
    struct figure fb[FIGURES_MAX], fv[FIGURES_MAX];
    size_t nb = replay_figures(base, rb, fb), nv = replay_figures(var, rv, fv);
    char b1[64], b2[64], b3[64];
    out_obj_open(o, NULL);
    out_u64(o, "schema", NULL, 1);
    out_str(o, "scenario", "scenario %s: baseline against", base->name);
    out_arr_open(o, "changes");
    for (size_t i = 0; i < nchanges; i++)
        out_str(o, NULL, " %s", changes[i]);
    out_arr_close(o);
    out_text(o, "\n\n  %-32s %14s %14s %14s\n", "", "BASELINE", "VARIANT", "DELTA");
    out_arr_open(o, "compare");
    for (size_t i = 0; i < nb && i < nv; i++) {
        struct figure delta = fb[i];
        delta.known = fb[i].known && fv[i].known;
        double dv = fv[i].value - fb[i].value;
        if (isinf(fv[i].value) || isinf(fb[i].value))
            dv = NAN, delta.known = false;
        out_obj_open(o, NULL);
        out_str(o, "key", NULL, fb[i].key);
        out_text(o, "  %-32s %14s %14s ", fb[i].label,
                 fmt_figure(&fb[i], fb[i].value, b1, sizeof(b1)),
                 fmt_figure(&fv[i], fv[i].value, b2, sizeof(b2)));
        struct figure jb = fb[i], jv = fv[i];
        jb.key = "baseline";
        jv.key = "variant";
        figure_json(o, &jb);
        figure_json(o, &jv);
        delta.key = "delta";
        delta.value = dv;
        figure_json(o, &delta);
        if (!delta.known) {
            out_text(o, "%14s\n", "-");
        } else {
            char signed_text[72];
            fmt_figure(&delta, dv, b3, sizeof(b3));
            snprintf(signed_text, sizeof(signed_text), "%s%s", dv > 0 ? "+" : "", b3);
            out_text(o, "%14s\n", signed_text);
        }
        out_obj_close(o);
    }
    out_arr_close(o);
    out_obj_open(o, "baseline");
    out_text(o, "\nbaseline: ");
    print_header(o, base, rb);
    out_obj_close(o);
    out_obj_open(o, "variant");
    out_text(o, "variant:  ");
    print_header(o, var, rv);
    print_by_prio(o, "pg_drops", "drops by PG", rv->digest.pg_drops);
    print_by_prio(o, "queue_drops", "drops by egress TC", rv->digest.queue_drops);
    out_obj_close(o);
    out_obj_close(o);
}
