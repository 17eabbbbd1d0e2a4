/* dcbkit analyze: one pass over a capture through the decoders and the trackers, then findings
 * and a report. cmd_analyze.c reads; analyze_findings.c judges; analyze_print*.c prints. */
#ifndef DCB_ANALYZE_H
#define DCB_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>

#include "out.h"
#include "track_set.h"

#define ANALYZE_FINDINGS_MAX 64
#define ANALYZE_SUMMARY_MAX 240

enum analyze_severity { SEV_INFO, SEV_WARNING, SEV_ERROR };

struct analyze_finding {
    enum analyze_severity severity;
    const char *kind;
    char summary[ANALYZE_SUMMARY_MAX];
    uint64_t count;           /* how many classes / flows / links it covers */
};

struct analyze_options {
    const char *file;
    uint64_t link_bps;
    bool link_speed_assumed;
    int lossless_mask;        /* -1: not given */
    int64_t storm_ns;
    uint32_t max_qps;
    long top;                 /* flows listed in text output */
    bool verbose;
};

struct analysis {
    struct analyze_options opt;
    uint64_t frames, malformed, other_linktype;
    int64_t first_ns, last_ns;
    struct track_set t;
    /* filled by analyze_judge */
    int lossless_mask;        /* -1: unknown */
    const char *lossless_source;
    struct analyze_finding findings[ANALYZE_FINDINGS_MAX];
    unsigned nfindings;
    uint64_t findings_dropped;
    long peak_rss_kb;
    double elapsed_s;
};

/* Derives the lossless set and the findings, worst first. */
void analyze_judge(struct analysis *a);
enum analyze_severity analyze_verdict(const struct analysis *a);
const char *analyze_severity_name(enum analyze_severity s);
/* duration of the capture in seconds (0 for one frame). */
double analyze_duration_s(const struct analysis *a);

void analyze_print(struct dcb_out *o, struct analysis *a);
/* The sections, one per file. */
void analyze_print_pauses(struct dcb_out *o, const struct analysis *a);
void analyze_print_flows(struct dcb_out *o, struct analysis *a);
void analyze_print_dcbx(struct dcb_out *o, const struct analysis *a);
/* Writes "a,b,c" for the set bits of mask (or "none") into buf. */
char *analyze_mask_str(uint64_t mask, unsigned bits, char *buf, size_t len);
void analyze_print_bits(struct dcb_out *o, const char *key, uint64_t mask, unsigned bits);

#endif
