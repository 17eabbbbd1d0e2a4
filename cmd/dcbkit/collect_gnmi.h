/* dcbkit collect --gnmi HOST:PORT ... / --fabric fabric.json: switch counters and QoS config
 * over gNMI (collectors/gnmi/gnmi_source.h) into the store and the output. The options live
 * here; cmd_collect.c only forwards them. */
#ifndef DCB_COLLECT_GNMI_H
#define DCB_COLLECT_GNMI_H

#include <signal.h>
#include <stdint.h>

#include "cli.h"
#include "gnmi_cli.h"
#include "gnmi_msg.h"

#define COLLECT_GNMI_MAX 1024

enum { CG_GNMI = 0x3200, CG_FABRIC, CG_MAP, CG_GNMI_MODE, CG_CONFIG_INTERVAL, CG_ENCODING };

#define COLLECT_GNMI_LONGOPTS \
    { "gnmi", required_argument, NULL, CG_GNMI }, \
    { "fabric", required_argument, NULL, CG_FABRIC }, \
    { "map", required_argument, NULL, CG_MAP }, \
    { "gnmi-mode", required_argument, NULL, CG_GNMI_MODE }, \
    { "config-interval", required_argument, NULL, CG_CONFIG_INTERVAL }, \
    { "encoding", required_argument, NULL, CG_ENCODING }, \
    GNMI_CLI_LONGOPTS

#define COLLECT_GNMI_OPTION_DOCS \
    { "--gnmi HOST:PORT", "Collect a switch over gNMI instead of this host (repeat for more " \
      "switches; one thread drives them all). Counters are subscribed to with the vendor " \
      "map's paths, config is read with Get; --device names the switch (default HOST:PORT)." }, \
    { "--fabric FILE", "Collect every device of a fabric file whose reach is gNMI, with its own " \
      "TLS, credentials file and map (docs/fabric.md)." }, \
    { "--map NAME", "Vendor map for --gnmi targets: sonic, openconfig (default; also Arista " \
      "and Cumulus), srlinux (collectors/maps/NAME_gnmi.json)." }, \
    { "--gnmi-mode stream|poll|once", "How counters come: a SAMPLE stream at --interval " \
      "(default), a POLL every --interval on one long-lived call, or a ONCE subscription every " \
      "--interval. A target that answers UNIMPLEMENTED to Subscribe is polled with Get." }, \
    { "--config-interval DURATION", "Read QoS config again this often (default: once at " \
      "start; 0 never)." }, \
    { "--encoding json|json_ietf|proto", "Encoding asked of the target (default json_ietf)." }, \
    GNMI_CLI_OPTION_DOCS

struct collect_gnmi_opts {
    const char *addresses[COLLECT_GNMI_MAX];
    size_t naddresses;
    const char *fabric;
    const char *map;
    enum gnmi_mode mode;
    enum gnmi_encoding encoding;
    int64_t config_interval_ns;      /* -1 never, 0 once */
    struct gnmi_cli conn;
};

void collect_gnmi_init(struct collect_gnmi_opts *g);
/* -1 when opt is not one of these; else 0 or a usage exit status. */
int collect_gnmi_option(struct cli_ctx *ctx, struct collect_gnmi_opts *g, int opt,
                        const char *arg);
bool collect_gnmi_wanted(const struct collect_gnmi_opts *g);
/* Runs until stopped or for count intervals / duration. Exit status. */
int collect_gnmi_cmd(struct cli_ctx *ctx, struct collect_gnmi_opts *g, const char *store_path,
                     const char *device, int64_t interval_ns, long count, int64_t duration_ns,
                     volatile sig_atomic_t *stop);

#endif
