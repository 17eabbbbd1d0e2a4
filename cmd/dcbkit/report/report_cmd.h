/* dcbkit report, the command (the report itself is in report/): parse into report_args, get the
 * evidence into a store (report_evidence.c), build the model over its window and write the
 * files (report_output.c). */
#ifndef DCB_REPORT_CMD_H
#define DCB_REPORT_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "fabric.h"
#include "progress.h"
#include "report.h"
#include "source_opts.h"
#include "store.h"

#define REPORT_HELP_SHOWN (-1)

struct report_args {
    struct source_opts src; /* --fabric, --store, --local, --gnmi, --replay, ... */
    const char *out, *baseline, *from_json, *format, *verify;
    struct cli_rules rules;
    int64_t since_ns;   /* the window: this long before the newest data */
    int64_t collect_ns; /* how long live sources run (0: two intervals) */
    int64_t interval_ns;
    bool collect_given; /* --collect: with no live source, the fabric's devices */
};

/* 0, REPORT_HELP_SHOWN, or 64 after a one-line usage error. */
int report_parse_args(struct cli_ctx *ctx, int argc, char **argv, struct report_args *a);

/* What the report reads, once the evidence is in. */
struct report_evidence {
    struct dcb_store *st;            /* the store the window is read from */
    bool own_st;                     /* st is closed with the evidence */
    struct dcb_store *record;        /* where this report is recorded (NULL: nowhere) */
    bool readonly;                   /* a store was named but cannot take the record */
    const char *store_path;          /* the store file, or NULL (in memory) */
    char label[DCB_SOURCE_NAME_MAX]; /* what the model names as its "store" */
    int64_t data_ns;                 /* the time the sources' data reached (0: read in place) */
    struct report_collect_result *failed; /* devices collection got nothing from */
    size_t nfailed;
    struct dcb_source src; /* the source, open while the store reads in place */
};

/* Fills ev from the sources args name (the fabric's devices with --collect), saying how the
 * collection goes on progress; a failure has been said on stderr and the status for it
 * returned. */
int report_evidence_get(const struct report_args *a, const struct fabric *fab,
                        struct report_evidence *ev, struct dcb_progress *progress);
void report_evidence_free(struct report_evidence *ev);

/* report_output.c: --from-json; the three files and the summary on stdout. */
int report_from_json(const struct report_args *a);
int report_write_files(struct cli_ctx *ctx, const char *out, const cJSON *model);
void report_add_raw_links(cJSON *model, int64_t since_ns, const char *store);

#endif
