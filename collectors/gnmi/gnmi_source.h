/* gNMI as a source of canonical data: targets, each with a vendor map, turned into samples,
 * source_gap events and QoS config snapshots through callbacks. `dcbkit collect --gnmi`,
 * `--fabric`, and later dcbtop and `dcbkit serve` use this; none of them sees gRPC.
 *
 * Per device, the map's counter paths form one subscription per prefix target (STREAM SAMPLE
 * at the interval by default, or POLL / ONCE), and its config paths are read with Get every
 * config interval. A config snapshot is reported for an interface when it first becomes known
 * and whenever it changes. */
#ifndef DCB_GNMI_SOURCE_H
#define DCB_GNMI_SOURCE_H

#include <signal.h>

#include "fabric.h"
#include "gnmi_client.h"
#include "gnmi_map.h"
#include "qos_config.h"
#include "sample.h"

struct gnmi_source_cb {
    /* key: the leaf as matched ("TARGET:/path") */
    void (*on_sample)(const struct dcb_sample *s, const char *key, void *arg);
    void (*on_event)(const struct dcb_event *e, void *arg);
    void (*on_config)(int64_t time_ns, const char *device, const char *ifname,
                      const struct qos_config *c, void *arg);
    void (*on_round)(const char *device, void *arg); /* a full round of counters arrived */
    /* the switch's LLDP table: the partner on device:ifname (its system name, else chassis ID),
     * its port and chassis ID ("" when not served), when first seen or changed; from the map's
     * config rules whose field is lldp.system_name, lldp.port_id or lldp.chassis_id */
    void (*on_neighbor)(int64_t time_ns, const char *device, const char *ifname, const char *peer,
                        const char *peer_port, const char *chassis, void *arg);
    /* retry_ns: as gnmi_client_cb's (GNMI_NO_RETRY: given up) */
    void (*on_error)(const char *device, const char *address, const char *msg, int64_t retry_ns,
                     void *arg);
    /* a path the target does not serve ("TARGET:path", with the target's words), said once
     * per device, or one it serves again (!missing); the other paths flow meanwhile */
    void (*on_missing)(const char *device, const char *address, const char *path, bool missing,
                       const char *why, void *arg);
    void *arg;
};

/* A path not served asks again every client.path_retry_ns (0: GNMI_PATH_RETRY_NS). */
#define GNMI_PATH_RETRY_NS 300000000000LL

struct gnmi_source_opts {
    struct gnmi_client_opts client;
    enum gnmi_mode mode;         /* counters: STREAM (default), POLL or ONCE */
    enum gnmi_encoding encoding; /* default JSON_IETF */
    int64_t sample_interval_ns;  /* default 1 s */
    int64_t config_interval_ns;  /* 0: config once at start; <0: never */
};

struct gnmi_source_target {
    const char *device; /* the samples' device name */
    struct grpc_endpoint ep;
    const char *map; /* map name: sonic, openconfig, srlinux */
};

struct gnmi_source_stats {
    uint64_t leaves, samples, unmapped, not_numeric, configs, gaps;
};

struct gnmi_source;

int gnmi_source_new(struct gnmi_source **out, const char *maps_dir,
                    const struct gnmi_source_opts *opts, const struct gnmi_source_cb *cb,
                    struct dcb_err *err);
int gnmi_source_add(struct gnmi_source *s, const struct gnmi_source_target *t, struct dcb_err *err);
/* Every device of the fabric whose reach is gNMI, with its own target, TLS files, credentials
 * file and map (base gives the rest of the endpoint, default_map the map a device does not
 * name); *added counts them. */
int gnmi_source_add_fabric(struct gnmi_source *s, const struct fabric *f,
                           const struct grpc_endpoint *base, const char *default_map, size_t *added,
                           struct dcb_err *err);
/* See gnmi_client_run. */
int gnmi_source_run(struct gnmi_source *s, volatile sig_atomic_t *stop, int64_t duration_ns);
const struct gnmi_source_stats *gnmi_source_stats(const struct gnmi_source *s);
/* The paths not served, as one line: "leaf1 lacks CONFIG_DB:PORT_QOS_MAP, ...; leaf2 lacks
 * ..." ("" when every path is served). */
void gnmi_source_missing_text(const struct gnmi_source *s, char *buf, size_t len);
struct gnmi_client *gnmi_source_client(struct gnmi_source *s);
void gnmi_source_free(struct gnmi_source *s);

#endif
