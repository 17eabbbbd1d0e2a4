/* dcbkit analyze: a capture read through the capture source into a ring and judged by the rule
 * catalog, as dcbkit diagnose --pcap does (the same source, the same flags, the same rule run),
 * then a report of what the trackers kept and the catalog's findings. cmd_analyze.c reads and
 * judges; analyze_findings.c lists the findings; analyze_print*.c prints. Nothing here decides
 * what is wrong. */
#ifndef DCB_ANALYZE_H
#define DCB_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>

#include "diagnose/diagnose_cmd.h"
#include "out.h"
#include "track_set.h"

struct analyze_options {
    struct diagnose_opts judge; /* the capture and its flags, as diagnose --pcap takes them */
    const char *file;
    const char *store_path; /* --store DB: also record there */
    uint64_t link_bps;
    bool link_speed_assumed;
    int64_t storm_ns;
    long top; /* flows listed in text output */
    bool verbose;
};

struct analysis {
    struct analyze_options opt;
    const struct dcb_source *src; /* the capture source, for the QP a finding names */
    uint64_t frames, malformed, other_linktype;
    int64_t first_ns, last_ns;
    struct track_set *t; /* the trackers' records (latencies sort as they print) */
    int lossless_mask;   /* -1: unknown */
    const char *lossless_source;
    const struct diagnose_result *judged; /* the catalog's findings, ranked */
    long peak_rss_kb;
    double elapsed_s;
};

/* The worst severity of the findings ("ok", "warn" or "crit"), as diagnose's verdict. */
const char *analyze_verdict(const struct analysis *a);
/* duration of the capture in seconds (0 for one frame). */
double analyze_duration_s(const struct analysis *a);

void analyze_print(struct dcb_out *o, struct analysis *a);
/* The sections, one per file. */
void analyze_print_findings(struct dcb_out *o, const struct analysis *a);
void analyze_print_pauses(struct dcb_out *o, const struct analysis *a);
void analyze_print_flows(struct dcb_out *o, struct analysis *a);
void analyze_print_dcbx(struct dcb_out *o, const struct analysis *a);
/* Writes "a,b,c" for the set bits of mask (or "none") into buf. */
char *analyze_mask_str(uint64_t mask, unsigned bits, char *buf, size_t len);
void analyze_print_bits(struct dcb_out *o, const char *key, uint64_t mask, unsigned bits);
/* "192.168.10.1 -> 192.168.10.2 QP 0x11", the flow a finding's QP names, into buf; "" when it
 * names none. */
const char *analyze_qp_name(const struct analysis *a, int qp, char *buf, size_t len);

#endif
