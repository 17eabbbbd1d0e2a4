/* Counter maps: data files (JSON files in collectors/maps/) that turn a driver's counter names into
 * canonical metrics, so that adding a driver needs no C change:
 *
 *   {"driver": "mlx5_core", "source": "ethtool", "references": ["..."],
 *    "counters": [{"match": "rx_prio([0-7])_pause", "metric": "pfc.rx_pause", "prio": 1},
 *                 {"match": "out_of_sequence", "metric": "roce.out_of_sequence", "bits": 32}]}
 *
 * "match" is a POSIX extended regex anchored at both ends; "prio"/"queue" name the capture group
 * that holds the index; "ifname" the group that holds the interface (switch maps, where one
 * path names many ports); "bits" is the counter's width (64 by default) for wrap handling.
 * A name no rule matches is kept under its raw name by the collectors. */
#ifndef DCB_COUNTER_MAP_H
#define DCB_COUNTER_MAP_H

#include <regex.h>
#include <stdbool.h>

#include "err.h"
#include "metrics.h"

#define COUNTER_MAP_NAME 32

struct counter_rule {
    regex_t re;
    enum metric_id metric;
    int prio_group; /* 0 = none */
    int queue_group;
    int ifname_group; /* 0 = none */
    unsigned bits;
};

struct counter_map {
    char driver[COUNTER_MAP_NAME];
    char source[COUNTER_MAP_NAME]; /* "ethtool" or "rdma" */
    struct counter_rule *rules;
    size_t nrules;
};

struct counter_maps {
    struct counter_map *maps;
    size_t n;
};

/* Loads every *.json in dir. Errors name the file and the JSON path. */
int counter_maps_load_dir(struct counter_maps *maps, const char *dir, struct dcb_err *err);
int counter_map_load_text(struct counter_map *m, const char *text, const char *source_name,
                          struct dcb_err *err);
void counter_map_free(struct counter_map *m);
/* A map file's text (at most 1 MiB), malloc'ed and terminated; NULL with err set. */
char *counter_map_read_file(const char *path, struct dcb_err *err);
void counter_maps_free(struct counter_maps *maps);
const struct counter_map *counter_maps_find(const struct counter_maps *maps, const char *driver,
                                            const char *source);

/* For a device whose driver is unknown or has no map: the map of source that recognises the most
 * of names (the counter files it has), with *matched set; NULL when no map knows any of them.
 * A tie goes to the map loaded first. */
const struct counter_map *counter_maps_guess(const struct counter_maps *maps, const char *source,
                                             const char *const *names, size_t n, size_t *matched);

#define COUNTER_MATCH_IFNAME 48

struct counter_match {
    enum metric_id metric;
    int prio, queue;
    unsigned bits;
    char ifname[COUNTER_MATCH_IFNAME]; /* "" unless the rule has an "ifname" group */
};
/* True and *out filled when a rule maps name. */
bool counter_map_match(const struct counter_map *m, const char *name, struct counter_match *out);

/* The folder holding the maps: $DCBKIT_MAPS, then <binary>/../share/dcbkit/maps, then the source
 * tree's collectors/maps the binary was built from. */
int counter_maps_default_dir(char *buf, size_t len);

#endif
