/* The answers an evidence source gave for metric windows, kept for the source's life: rules ask
 * for the same window of the same series many times over (the catalog's rules share selectors,
 * and ports_* functions ask for every port of a device from each of its ports), and a window
 * walked in the ring costs a cache miss a sample. */
#ifndef DCB_EVIDENCE_MEMO_H
#define DCB_EVIDENCE_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No padding: keys are compared bytewise. */
struct window_key {
    uint32_t port; /* the source's own index of the port */
    int32_t metric;
    int16_t prio, queue;
    int32_t agg;
    int64_t t0, t1;
};

struct memo_entry;

struct evidence_memo {
    struct memo_entry *slots;
    size_t nslots, n;
};

/* Whether k was answered; *rc (0 unknown, 1 known) and *out as then. */
bool evidence_memo_get(const struct evidence_memo *m, const struct window_key *k, int *rc,
                       double *out);
/* Keeps an answer (rc 0 or 1); out of memory, it is not kept and will be asked for again. */
void evidence_memo_put(struct evidence_memo *m, const struct window_key *k, int rc, double out);
void evidence_memo_free(struct evidence_memo *m);

#endif
