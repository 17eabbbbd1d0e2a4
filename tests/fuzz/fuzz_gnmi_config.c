/* libFuzzer: config and LLDP-table leaves a gNMI target sends ("KEY\tVALUE" lines), through the
 * shipped sonic and openconfig maps' config rules: the round gathers them and resolves refs,
 * ranges and formats into settings, including the lldp.* neighbour fields. Every setting names
 * a field and a value, both NUL-terminated and bounded. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "counter_map.h"
#include "gnmi_map.h"

static struct gnmi_map maps[2];
static int loaded = -1;

static void load(void)
{
    char dir[4096];
    struct dcb_err err;
    loaded = counter_maps_default_dir(dir, sizeof(dir)) == 0 &&
             gnmi_map_load(&maps[0], dir, "sonic", &err) == 0 &&
             gnmi_map_load(&maps[1], dir, "openconfig", &err) == 0;
    if (!loaded)
        abort(); /* the shipped maps must load: run from the checkout */
}

static void setting(const char *ifname, const char *field, const char *value, void *arg)
{
    (void)arg;
    if (!field[0] || strlen(ifname) > 4096 || strlen(value) > 1 << 20)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (loaded < 0)
        load();
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct gnmi_cfg_round rounds[2] = { { 0 }, { 0 } };
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        *tab = '\0';
        for (int m = 0; m < 2; m++)
            gnmi_cfg_round_add(&maps[m], &rounds[m], line, tab + 1);
    }
    for (int m = 0; m < 2; m++) {
        gnmi_cfg_round_apply(&maps[m], &rounds[m], setting, NULL);
        gnmi_cfg_round_clear(&rounds[m]);
    }
    free(text);
    return 0;
}
