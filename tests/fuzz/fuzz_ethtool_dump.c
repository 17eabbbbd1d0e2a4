/* libFuzzer: saved `ethtool -S` text from support bundles, and the counter maps applied to
 * whatever names it yields. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "counter_map.h"
#include "ethtool_dump.h"

static struct counter_maps maps;
static int maps_loaded;

static void check_stat(const char *name, uint64_t value, void *arg)
{
    (void)value;
    (void)arg;
    if (!name[0] || strlen(name) >= 128)
        abort();
    struct counter_match m;
    for (size_t i = 0; i < maps.n; i++)
        if (counter_map_match(&maps.maps[i], name, &m) && !metric_info(m.metric))
            abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!maps_loaded) {
        char dir[4096];
        maps_loaded = 1;
        if (counter_maps_default_dir(dir, sizeof(dir)) == 0)
            counter_maps_load_dir(&maps, dir, NULL);
    }
    struct dcb_err err;
    ethtool_dump_parse((const char *)data, size, check_stat, NULL, &err);
    ethtool_dump_guess_driver((const char *)data, size);
    return 0;
}
