/* The fabric file: devices (hosts and switches), how each is reached, the links between them and
 * the intended QoS config (defaults under per-device and per-interface overrides). Standard
 * topologies (star, leaf-spine, fat-tree) are generated into explicit devices and links on load.
 * The JSON schema is documented in docs/fabric.md. */
#ifndef DCB_FABRIC_H
#define DCB_FABRIC_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "qos_config.h"
#include "sample.h"

#define FABRIC_PATH_MAX 256
#define FABRIC_MAX_DEVICES 100000
#define FABRIC_MAX_LINKS 1000000
#define FABRIC_FILE_MAX (64u << 20)

enum fabric_role { FABRIC_HOST, FABRIC_SWITCH };
enum fabric_reach { REACH_NONE, REACH_LOCAL, REACH_GNMI };

struct fabric_gnmi {
    char target[FABRIC_PATH_MAX]; /* host:port */
    char tls_ca[FABRIC_PATH_MAX];
    char tls_cert[FABRIC_PATH_MAX];
    char tls_key[FABRIC_PATH_MAX];
    bool insecure;                     /* plain-text h2c */
    char credentials[FABRIC_PATH_MAX]; /* a file holding username and password */
    char map[32];                      /* vendor map (collectors/maps/MAP_gnmi.json) */
};

struct fabric_iface {
    char name[DCB_IFNAME_MAX];
    struct qos_config config; /* this interface's overrides */
};

#define FABRIC_ALIASES_MAX 8

struct fabric_device {
    char name[DCB_DEVICE_MAX];
    /* other names it goes by: its LLDP system name or chassis ID where they differ */
    char aliases[FABRIC_ALIASES_MAX][DCB_DEVICE_MAX];
    size_t naliases;
    enum fabric_role role;
    enum fabric_reach reach;
    struct fabric_gnmi gnmi;
    struct qos_config config; /* this device's overrides */
    struct fabric_iface *ifaces;
    size_t nifaces, ifaces_cap;
};

struct fabric_end {
    char device[DCB_DEVICE_MAX];
    char ifname[DCB_IFNAME_MAX];
};

struct fabric_link {
    struct fabric_end a, b;
    uint64_t speed_bps; /* 0 = unknown */
    uint64_t cable_mm;
    bool cable_set;
};

struct fabric {
    char name[DCB_DEVICE_MAX];
    struct qos_config defaults;
    struct qos_config role_defaults[2]; /* by enum fabric_role: host_defaults, switch_defaults */
    struct fabric_device *devices;
    size_t ndevices, devices_cap;
    struct fabric_link *links;
    size_t nlinks, links_cap;
    struct fabric_index *index; /* lookups by name (fabric_index.c); NULL until used */
};

void fabric_init(struct fabric *f);
void fabric_free(struct fabric *f);
/* Errors name the JSON path: 'links[3].b: no device "host9"'. */
int fabric_load_json(struct fabric *f, const cJSON *root, struct dcb_err *err);
/* text need not be NUL-terminated; parse errors give line and column. */
int fabric_load_text(struct fabric *f, const char *text, size_t len, const char *source,
                     struct dcb_err *err);
int fabric_load_file(struct fabric *f, const char *path, struct dcb_err *err);

const struct fabric_device *fabric_find_device(const struct fabric *f, const char *name);
/* The link that ends at device:ifname, or NULL. */
const struct fabric_link *fabric_find_link(const struct fabric *f, const char *device,
                                           const char *ifname, const struct fabric_end **peer);
/* defaults <- host_/switch_defaults <- device <- interface <- link (speed, cable length). */
int fabric_effective_config(const struct fabric *f, const char *device, const char *ifname,
                            struct qos_config *out, struct dcb_err *err);

/* Every interface a device has: named in a link or in its "interfaces". fn gets each once. */
void fabric_each_iface(const struct fabric *f, const struct fabric_device *d,
                       void (*fn)(const char *ifname, void *arg), void *arg);

const char *fabric_role_name(enum fabric_role role);
/* The store's "topology" row of device:ifname, where the port sits as LLDP would tell:
 * {"role", "peer": {"device", "ifname", "role"}} (no peer when no link ends there). Malloc'd
 * JSON text, or NULL when out of memory. peer_prefix (NULL: none) goes before the peer's device
 * name, as `replay --device-prefix` renames every device it stores. */
char *fabric_topology_json(const struct fabric *f, const char *device, const char *ifname,
                           const char *peer_prefix);
const char *fabric_reach_name(enum fabric_reach reach);

/* Generators (fabric_gen.c), also reachable from the file's "generate" section. */
struct fabric_gen {
    enum { GEN_STAR, GEN_LEAF_SPINE, GEN_FAT_TREE } type;
    int hosts;                          /* star */
    int leaves, spines, hosts_per_leaf; /* leaf-spine; fat-tree: leaves and spines per pod */
    int pods, super_spines;             /* fat-tree */
    uint64_t host_speed_bps, uplink_speed_bps;
    uint64_t host_cable_mm, uplink_cable_mm;
    bool host_cable_set, uplink_cable_set;
};
int fabric_generate(struct fabric *f, const struct fabric_gen *g, struct dcb_err *err);

/* Internal helpers shared by the loader and the generators. */
struct fabric_device *fabric_add_device(struct fabric *f, const char *name, enum fabric_role role,
                                        struct dcb_err *err);
struct fabric_link *fabric_add_link(struct fabric *f, struct dcb_err *err);

#endif
