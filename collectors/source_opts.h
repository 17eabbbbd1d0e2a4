/* The options that name sources, parsed once for every command (dcbtop, collect, serve,
 * diagnose, report). A command adds the groups it takes to its getopt table
 * (source_opts_longopts), hands every option it does not know to source_opts_take, checks the
 * result once (source_opts_check) and opens what was named as one source (source_opts_open).
 * The same flags mean the same thing everywhere:
 *
 *   --local [--sysfs-root DIR] [--proc-root DIR] [--ifname PATTERN] [--maps DIR] [--device NAME]
 *           [--no-lldp]
 *   --gnmi HOST:PORT ... [--map NAME] [--gnmi-mode stream|poll|once] [--encoding E]
 *           [--config-interval D] [--plaintext | --insecure | --tls-ca F ...] [--credentials F]
 *           [--timeout D] [--max-message SIZE]     (with --fabric F: every gNMI device of F)
 *   --store DB [--at TIME] [--window DURATION]
 *   --replay SCENARIO | --demo  [--set PATH=VALUE ...] [--replay-speed X]
 *   --pcap FILE [--link-speed SPEED] [--lossless MASK] [--storm-ms MS] [--max-qps N]
 *               [--pcap-speed X]
 *   --prometheus URL [--match LABELS] [--step DURATION]
 *   --fabric FILE     the fabric: intent, devices, links; by itself it never opens a connection
 *
 * Each group's help text is here too (source_opts_docs), so it is written once. */
#ifndef DCB_SOURCE_OPTS_H
#define DCB_SOURCE_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "source.h"

/* The option groups, as bits: a command says which it takes. */
enum source_group {
    SOURCE_G_LOCAL = 1u << SOURCE_LOCAL,
    SOURCE_G_GNMI = 1u << SOURCE_GNMI,
    SOURCE_G_STORE = 1u << SOURCE_STORE,
    SOURCE_G_REPLAY = 1u << SOURCE_REPLAY,
    SOURCE_G_PCAP = 1u << SOURCE_PCAP,
    SOURCE_G_PROMETHEUS = 1u << SOURCE_PROMETHEUS,
    SOURCE_G_FABRIC = 1u << SOURCE_FABRIC,
    SOURCE_G_ALL = (1u << SOURCE_SET) - 1,
};

/* getopt codes of the source options (above every command's own). */
enum source_opt_code {
    SO_LOCAL = 0x2000,
    SO_SYSFS_ROOT,
    SO_PROC_ROOT,
    SO_IFNAME,
    SO_MAPS,
    SO_DEVICE,
    SO_NO_LLDP,
    SO_GNMI,
    SO_MAP,
    SO_GNMI_MODE,
    SO_ENCODING,
    SO_CONFIG_INTERVAL,
    SO_PLAINTEXT,
    SO_INSECURE,
    SO_TLS_CA,
    SO_TLS_CERT,
    SO_TLS_KEY,
    SO_TLS_SERVER_NAME,
    SO_CREDENTIALS,
    SO_TIMEOUT,
    SO_MAX_MESSAGE,
    SO_GNMI_PATH_RETRY,
    SO_STORE,
    SO_AT,
    SO_WINDOW,
    SO_REPLAY,
    SO_DEMO,
    SO_SET,
    SO_REPLAY_SPEED,
    SO_PCAP,
    SO_LINK_SPEED,
    SO_LOSSLESS,
    SO_STORM_MS,
    SO_MAX_QPS,
    SO_PCAP_SPEED,
    SO_PROMETHEUS,
    SO_MATCH,
    SO_STEP,
    SO_FABRIC,
    SO_END
};

struct source_opts {
    unsigned named;  /* bit per source kind the options named */
    unsigned groups; /* the groups the command takes */
    struct source_local_options local;
    struct source_gnmi_options gnmi;
    struct {
        const char *path;
        int64_t at_ns;         /* 0: follow the newest data */
        int64_t before_end_ns; /* --at -DURATION */
        int64_t window_ns;
    } store;
    struct source_replay_options replay;
    bool demo;
    struct source_pcap_options pcap;
    struct source_prometheus_options prometheus;
    const char *fabric;
};

/* Zeroes o and sets the defaults; groups: the enum source_group bits the command takes. */
void source_opts_init(struct source_opts *o, unsigned groups);

/* Appends the getopt entries of the groups to opts[*n] (cap entries in all, the terminator
 * not counted); 0, or -1 when they do not fit. */
int source_opts_longopts(unsigned groups, struct option *opts, size_t *n, size_t cap);

/* A getopt result: 1 taken, 0 not a source option, -1 a bad value (why says which and why,
 * for a usage error). */
int source_opts_take(struct source_opts *o, int code, const char *arg, char *why, size_t len);

/* After parsing: combinations that cannot go together. 0, or -1 with why. */
int source_opts_check(const struct source_opts *o, char *why, size_t len);

/* How a use opens the sources: what it does with finite ones and who reads the store. */
enum source_open_flags {
    SOURCE_OPEN_FAST = 1, /* replay and pcap as fast as possible (else paced) */
};

/* Opens every source the options name (a set when more than one), in place in src, with sink
 * and interval_ns set first. The fabric file is a source of intent only, unless --gnmi is also
 * given without addresses (then its gNMI devices are polled too). 0 or a negative error (err
 * names the source). */
int source_opts_open(const struct source_opts *o, struct dcb_sink sink, int64_t interval_ns,
                     unsigned flags, struct dcb_source *src, struct dcb_err *err);

/* Whether the options name any source at all. */
static inline bool source_opts_any(const struct source_opts *o)
{
    return o->named != 0;
}

/* The help of the groups' options, for help and man pages. */
struct source_option_doc {
    unsigned group;
    const char *flags, *text;
};
extern const struct source_option_doc source_option_docs[]; /* ends with a NULL flags */

#endif
