/* Vendor maps for gNMI targets (collectors/maps/NAME_gnmi.json, "source": "gnmi"): what to
 * subscribe to, which leaf paths are which canonical counters, and which are QoS config.
 *
 *   "subscribe": [{"target": "COUNTERS_DB", "path": "COUNTERS/Ethernet*"},
 *                 {"target": "CONFIG_DB", "path": "PORT_QOS_MAP", "config": true}]
 *   "counters":  [{"match":
 * "COUNTERS_DB:/COUNTERS/(Ethernet[0-9]+)/SAI_PORT_STAT_PFC_([0-7])_RX_PKTS", "metric":
 * "pfc.rx_pause", "ifname": 1, "prio": 2}] "config":    [{"match":
 * "CONFIG_DB:/PORT_QOS_MAP/(Ethernet[0-9]+)/pfc_enable", "ifname": 1, "field": "pfc.enabled",
 * "format": "prio_list"}]
 *
 * A leaf is matched as "TARGET:/path" when its prefix names a target, else as "/path".
 * Config "field" is a QoS config path (lib/qos_config.h) where {N} is capture group N; a
 * field without a dot is relative: it applies only through a "ref" rule, whose leaf value names
 * another table entry ("ref": "CONFIG_DB:/BUFFER_PROFILE/{value}/") whose relative fields land
 * under the ref rule's field (switch.buffer.3 + xoff). "range_end": N names a group "-M" that
 * extends {first group} to a range (SONiC BUFFER_PG "3-4"). Formats: "text" (default),
 * "prio_list" ("3,4" -> mask 0x18), "sonic_ecn" (ecn_none -> 0, any other ecn_* -> 1). */
#ifndef DCB_GNMI_MAP_H
#define DCB_GNMI_MAP_H

#include <regex.h>
#include <stdbool.h>

#include "counter_map.h"
#include "err.h"
#include "match_cache.h"
#include "qos_config.h"

#define GNMI_MAP_SUBS 32
#define GNMI_MAP_CONFIG_RULES 64

#define GNMI_MAP_GIVES 240

struct gnmi_map_sub {
    char target[32];
    char path[256];
    bool config;
    /* the canonical metrics and config fields its leaves give ("pfcwd.storm_detected,..."),
     * for saying what a path the target does not serve leaves undecided */
    char gives[GNMI_MAP_GIVES];
};

enum gnmi_cfg_format { GNMI_FMT_TEXT, GNMI_FMT_PRIO_LIST, GNMI_FMT_SONIC_ECN, GNMI_FMT_REF };

struct gnmi_config_rule {
    regex_t re;
    int ifname_group;
    int range_end_group;
    char field[64];
    char ref[128];
    enum gnmi_cfg_format format;
};

struct gnmi_map {
    char name[32];
    struct counter_map counters;
    struct gnmi_map_sub subs[GNMI_MAP_SUBS];
    size_t nsubs;
    struct gnmi_config_rule cfg[GNMI_MAP_CONFIG_RULES];
    size_t ncfg;
    struct match_cache cache;
};

int gnmi_map_load_text(struct gnmi_map *m, const char *text, const char *source_name,
                       struct dcb_err *err);
/* DIR/NAME_gnmi.json */
int gnmi_map_load(struct gnmi_map *m, const char *dir, const char *name, struct dcb_err *err);
void gnmi_map_free(struct gnmi_map *m);

/* Fills every subscription's gives from the map's "counters" and "config" rules (root: the
 * map's JSON): a rule belongs to the most specific subscription whose path leads to it. */
void gnmi_map_fill_gives(struct gnmi_map *m, const void *root);
/* The subscription whose key (gnmi_map_key) is key, or NULL. */
const struct gnmi_map_sub *gnmi_map_sub_of(const struct gnmi_map *m, const char *key);

/* "TARGET:/path" or "/path" into buf. */
const char *gnmi_map_key(char *buf, size_t len, const char *target, const char *path);
/* A counter leaf: true and *out filled. */
bool gnmi_map_counter(struct gnmi_map *m, const char *key, struct counter_match *out);

/* Config leaves of one round are gathered, then applied together (refs need the whole round). */
struct gnmi_cfg_leaf {
    char *key;
    char *value;
};
struct gnmi_cfg_round {
    struct gnmi_cfg_leaf *leaves;
    size_t n, cap;
};
/* True when key matches a config rule (and was kept). */
bool gnmi_cfg_round_add(const struct gnmi_map *m, struct gnmi_cfg_round *r, const char *key,
                        const char *value);
/* Calls fn(ifname, field, value) for every resolved setting ("" ifname: the whole device). */
typedef void (*gnmi_cfg_fn)(const char *ifname, const char *field, const char *value, void *arg);
void gnmi_cfg_round_apply(const struct gnmi_map *m, const struct gnmi_cfg_round *r, gnmi_cfg_fn fn,
                          void *arg);
void gnmi_cfg_round_clear(struct gnmi_cfg_round *r);

#endif
