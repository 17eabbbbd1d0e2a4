/* A saved `ethtool -S` dump into a host source: see host_dump.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethtool_dump.h"
#include "file_text.h"
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

int host_dump_feed(struct host_source *hs, const struct counter_maps *maps, const char *path,
                   const char *ifname, const char *driver, int64_t ts, struct dcb_err *err)
{
    size_t len;
    char *text;
    if (dcb_read_text_file(path, DUMP_FILE_MAX, &text, &len, err) < 0)
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
        snprintf(msg, sizeof(msg),
                 "%s: no counter map for driver %s; counters stay raw (see "
                 "--driver)",
                 path, drv ? drv : "(not recognised)");
        hs->sink.message(hs->sink.arg, DCB_LOG_WARN, msg);
    }
    return 0;
}
