/* libFuzzer: the fabric file loader (JSON users write) with generators, validation and the
 * effective config of every interface; whatever loads must print and load again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "fabric_json.h"

static void touch_iface(const char *ifname, void *arg)
{
    const struct fabric_device *d = ((const void **)arg)[1];
    const struct fabric *f = ((const void **)arg)[0];
    struct qos_config c;
    if (fabric_effective_config(f, d->name, ifname, &c, NULL) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    struct fabric f;
    struct dcb_err err;
    if (fabric_load_text(&f, (const char *)data, size, "fuzz", &err) != 0)
        return 0;
    if (f.nlinks > 2000 || f.ndevices > 2000) { /* keep each run quick */
        fabric_free(&f);
        return 0;
    }
    for (size_t i = 0; i < f.ndevices; i++) {
        const void *arg[2] = { &f, &f.devices[i] };
        fabric_each_iface(&f, &f.devices[i], touch_iface, arg);
    }
    cJSON *j = fabric_to_json(&f);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    struct fabric again;
    if (!text || fabric_load_text(&again, text, strlen(text), "again", &err) != 0)
        abort();
    if (again.ndevices != f.ndevices || again.nlinks != f.nlinks)
        abort();
    fabric_free(&again);
    free(text);
    fabric_free(&f);
    return 0;
}
