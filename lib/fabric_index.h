/* Hash indices over a fabric's devices (by name) and link ends (by device:ifname), and each
 * device's link ends in link order: loading and lookups in O(1) each instead of a scan of every
 * device or link. Built lazily and extended as devices and links are added (a link is indexed
 * the first time a lookup follows its addition, when its ends are filled in). */
#ifndef DCB_FABRIC_INDEX_H
#define DCB_FABRIC_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "fabric.h"

void fabric_index_free(struct fabric *f);

/* The device's position in f->devices, -1 when there is none; -2 when out of memory for the
 * index (the caller scans instead). */
long fabric_index_device(const struct fabric *f, const char *name);
/* The link ending at device:ifname as 2 * link + end (0: a, 1: b), -1 when none, -2 when out
 * of memory. The first link that names that end wins, as a scan would find it. */
long fabric_index_end(const struct fabric *f, const char *device, const char *ifname);
/* The link ends at device d (its position), as 2 * link + end in link order: *n of them. false
 * when out of memory. Valid until the next device or link is added. */
bool fabric_index_device_ends(const struct fabric *f, size_t d, const unsigned **ends, size_t *n);

#endif
