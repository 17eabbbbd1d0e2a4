/* A map from a (device, name) pair of strings to an index: the report's ports, devices and
 * QPs. Open addressing, FNV-1a, grows by doubling; keys are copied. */
#ifndef DCB_REPORT_MAP_H
#define DCB_REPORT_MAP_H

#include <stddef.h>
#include <stdint.h>

struct report_map {
    char **keys; /* by slot: "a\x1fb", NULL = empty */
    int64_t *values;
    size_t cap, count;
};

void report_map_init(struct report_map *m);
void report_map_free(struct report_map *m);
/* The value of (a, b), or -1. */
int64_t report_map_get(const struct report_map *m, const char *a, const char *b);
/* 0, or -1 out of memory. An existing key gets the new value. */
int report_map_put(struct report_map *m, const char *a, const char *b, int64_t value);

#endif
