/* Internal: the store's back-end interface and the series map both back ends share. */
#ifndef DCB_STORE_IMPL_H
#define DCB_STORE_IMPL_H

#include "store.h"

struct store_ops {
    int (*close)(struct dcb_store *st, struct dcb_err *err);
    int (*put_sample)(struct dcb_store *st, const struct dcb_sample *s, struct dcb_err *err);
    int (*put_event)(struct dcb_store *st, const struct dcb_event *e, struct dcb_err *err);
    int64_t (*flush)(struct dcb_store *st, struct dcb_err *err);
    int64_t (*pending)(const struct dcb_store *st);
    int (*put_config)(struct dcb_store *st, const struct store_config_row *c, struct dcb_err *err);
    int (*begin_run)(struct dcb_store *st, const char *command, const char *source, int64_t time_ns,
                     int64_t *run_id, struct dcb_err *err);
    int (*end_run)(struct dcb_store *st, int64_t run_id, int64_t time_ns, struct dcb_err *err);
    int (*put_finding)(struct dcb_store *st, const struct store_finding_row *f,
                       struct dcb_err *err);
    int (*latest)(struct dcb_store *st, const struct store_filter *f, store_sample_cb cb, void *arg,
                  struct dcb_err *err);
    int (*range)(struct dcb_store *st, const struct store_filter *f, store_sample_cb cb, void *arg,
                 struct dcb_err *err);
    /* NULL: not offered */
    int (*range_runs)(struct dcb_store *st, const struct store_filter *f, store_run_cb cb,
                      void *arg, struct store_samples *out, struct dcb_err *err);
    int (*events)(struct dcb_store *st, const struct store_filter *f, const char *kind,
                  store_event_cb cb, void *arg, struct dcb_err *err);
    int (*findings)(struct dcb_store *st, int64_t run_id, store_finding_cb cb, void *arg,
                    struct dcb_err *err);
    int (*last_run)(struct dcb_store *st, const char *command, const char *source,
                    int64_t before_ns, int64_t *run_id, int64_t *started_ns, struct dcb_err *err);
    int (*aggregate)(struct dcb_store *st, const struct store_filter *f, enum store_agg agg,
                     double *out, struct dcb_err *err);
    int (*configs)(struct dcb_store *st, const char *device, const char *ifname, int64_t t1,
                   store_config_cb cb, void *arg, struct dcb_err *err);
    int (*info)(struct dcb_store *st, struct store_info *info, struct dcb_err *err);
    /* NULL: reads are consistent without (the ring) */
    int (*snapshot_begin)(struct dcb_store *st, struct dcb_err *err);
    void (*snapshot_end)(struct dcb_store *st);
    int (*set_series_width)(struct dcb_store *st, const struct dcb_sample *s, unsigned bits,
                            struct dcb_err *err);
    unsigned (*series_width)(struct dcb_store *st, const char *device, const char *ifname,
                             enum metric_id metric, int prio, int queue);
    int64_t (*prune)(struct dcb_store *st, int64_t cutoff_ns, struct dcb_err *err);
};

struct dcb_store {
    const struct store_ops *ops;
};

/* Interning of series keys: (device, ifname, metric, prio, queue) -> a dense index 0..n-1.
 * Open addressing; grows by doubling. */
struct series_key {
    char device[DCB_DEVICE_MAX];
    char ifname[DCB_IFNAME_MAX];
    enum metric_id metric;
    int16_t prio;
    int16_t queue;
    uint8_t bits; /* a counter's width; 0: never said (64) */
};

struct series_map {
    struct series_key *keys; /* by index */
    /* hash slots: the key's hash in the high 32 bits, its index + 1 in the low (0 = empty), so a
     * probe touches a key only when the hashes agree */
    uint64_t *slots;
    size_t count, key_cap, slot_cap;
};

void series_map_init(struct series_map *m);
void series_map_free(struct series_map *m);
/* Index of the sample's series, adding it if new (*added set). -1 on allocation failure. */
int64_t series_map_intern(struct series_map *m, const struct dcb_sample *s, bool *added);
/* The index of an existing series, -1 when there is none. */
int64_t series_map_find(const struct series_map *m, const char *device, const char *ifname,
                        enum metric_id metric, int prio, int queue);
bool series_key_matches(const struct series_key *k, const struct store_filter *f);
void series_key_to_sample(const struct series_key *k, struct dcb_sample *s);

#endif
