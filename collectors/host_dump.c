/* A saved `ethtool -S` dump into a host source: see host_dump.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethtool_dump.h"
#include "host_dump.h"

#define DUMP_FILE_MAX (16u << 20)

struct dump_add {
    struct host_source *hs;
    const struct counter_map *map;
    const char *ifname;
    int64_t ts;
};

static void add_stat(const char *name, uint64_t value, void *arg)
{
    struct dump_add *a = arg;
    struct host_counter c;
    memset(&c, 0, sizeof(c));
    c.source = "ethtool";
    snprintf(c.raw, sizeof(c.raw), "%s", name);
    c.value = value;
    c.mapped = a->map && counter_map_match(a->map, name, &c.match);
    host_source_counter(a->hs, a->ts, a->ifname, &c);
}

static char *read_dump(const char *path, size_t *len, struct dcb_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        dcb_err_set(err, DCB_E_IO, "%s: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(DUMP_FILE_MAX + 1);
    *len = buf ? fread(buf, 1, DUMP_FILE_MAX + 1, f) : 0;
    bool failed = !buf || ferror(f) || *len > DUMP_FILE_MAX;
    fclose(f);
    if (failed) {
        free(buf);
        dcb_err_set(err, DCB_E_IO, "%s: unreadable or larger than 16 MiB", path);
        return NULL;
    }
    buf[*len] = '\0';
    return buf;
}

int host_dump_feed(struct host_source *hs, const struct counter_maps *maps, const char *path,
                   const char *ifname, const char *driver, int64_t ts, struct dcb_err *err)
{
    size_t len;
    char *text = read_dump(path, &len, err);
    if (!text)
        return -1;
    const char *drv = driver ? driver : ethtool_dump_guess_driver(text, len);
    struct dump_add a = { hs, drv ? counter_maps_find(maps, drv, "ethtool") : NULL, ifname, ts };
    struct dcb_err perr;
    int rc = ethtool_dump_parse(text, len, add_stat, &a, &perr);
    free(text);
    if (rc < 0)
        return dcb_err_set(err, rc, "%s: %s", path, perr.msg);
    if (!a.map && hs->sink.message) {
        char msg[512];
        snprintf(msg, sizeof(msg), "%s: no counter map for driver %s; counters stay raw (see "
                 "--driver)", path, drv ? drv : "(not recognised)");
        hs->sink.message(hs->sink.arg, DCB_LOG_WARN, msg);
    }
    return 0;
}
