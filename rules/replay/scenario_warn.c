/* The config paths the replay engine does not model, and which of them a scenario sets: its
 * fabric's intent, a config fault or --set (docs/scenario.md, "Not modelled"). Every other path
 * `dcbkit fabric paths` lists changes the run (tests/integration/replay_knobs.py checks both). */
#include <string.h>

#include "scenario.h"

/* None today: the DCBX exchange (rules/replay/dcbx.c) made pfc.willing, dcbx.mode and app the
 * last ones to change a run. A path listed here gets its warning and its row in the docs. */
const char *const scenario_not_modelled[] = { NULL };

struct count_ctx {
    const struct fabric *f;
    const char *device;
    size_t counts[8];
};

static void count_iface(const char *ifname, void *arg)
{
    struct count_ctx *c = arg;
    struct qos_config q;
    if (fabric_effective_config(c->f, c->device, ifname, &q, NULL) < 0)
        return;
    char buf[256];
    for (size_t k = 0; scenario_not_modelled[k]; k++)
        if (qos_get(&q, scenario_not_modelled[k], buf, sizeof(buf), NULL) == 0)
            c->counts[k]++;
}

size_t scenario_unmodelled(const struct scenario *sc, struct scenario_unmodelled_path *out,
                           size_t max)
{
    struct count_ctx c = { .f = &sc->fabric };
    for (size_t i = 0; i < sc->fabric.ndevices; i++) {
        c.device = sc->fabric.devices[i].name;
        fabric_each_iface(&sc->fabric, &sc->fabric.devices[i], count_iface, &c);
    }
    size_t n = 0;
    for (size_t k = 0; scenario_not_modelled[k] && n < max; k++)
        if (c.counts[k])
            out[n++] = (struct scenario_unmodelled_path){ scenario_not_modelled[k], c.counts[k] };
    return n;
}
