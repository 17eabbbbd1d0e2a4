/* A fabric file's intended config as config snapshots: "fabric" for each interface,
 * "peer:fabric" for its link partner's and "topology" for where it sits (its role, its
 * partner's), so the configuration rules see what a collected fabric
 * would show and dcbkit_qos_config carries the intent next to what was measured. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "qos_json.h"
#include "serve.h"
#include "units.h"

struct config_walk {
    struct serve_source *src;
    const struct fabric *fab;
    const char *device;
    int64_t now;
    int rc;
    struct dcb_err *err;
};

static int put_config(struct config_walk *w, const char *ifname, const char *source,
                      const char *of_device, const char *of_ifname)
{
    struct qos_config c;
    if (fabric_effective_config(w->fab, of_device, of_ifname, &c, w->err) < 0)
        return -1;
    cJSON *j = qos_to_json(&c);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    if (!text)
        return dcb_err_set(w->err, DCB_E_NOMEM, "out of memory");
    struct store_config_row row = { w->now, w->device, ifname, source, text };
    int rc = serve_put_config(w->src, &row, w->err);
    free(text);
    return rc;
}

static int put_topology(struct config_walk *w, const char *ifname)
{
    char *text = fabric_topology_json(w->fab, w->device, ifname, NULL);
    if (!text)
        return dcb_err_set(w->err, DCB_E_NOMEM, "out of memory");
    struct store_config_row row = { w->now, w->device, ifname, "topology", text };
    int rc = serve_put_config(w->src, &row, w->err);
    free(text);
    return rc;
}

static void config_iface(const char *ifname, void *arg)
{
    struct config_walk *w = arg;
    if (w->rc < 0)
        return;
    w->rc = put_config(w, ifname, "fabric", w->device, ifname);
    const struct fabric_end *peer = NULL;
    if (w->rc == 0 && fabric_find_link(w->fab, w->device, ifname, &peer) && peer)
        w->rc = put_config(w, ifname, "peer:fabric", peer->device, peer->ifname);
    if (w->rc == 0)
        w->rc = put_topology(w, ifname);
}

int serve_put_intent(struct serve_source *src, struct dcb_err *err)
{
    const struct fabric *fab = src->intent;
    struct config_walk w = { src, fab, NULL, src->intent_ns, 0, err };
    for (size_t i = 0; i < fab->ndevices && w.rc == 0; i++) {
        w.device = fab->devices[i].name;
        fabric_each_iface(fab, &fab->devices[i], config_iface, &w);
    }
    return w.rc;
}


/* ---- --fabric FILE alone: the intent and nothing measured ---------------------------------- */

static int64_t intent_now(struct serve_source *src)
{
    (void)src;
    return dcb_realtime_ns();
}

static void intent_close(struct serve_source *src)
{
    fabric_free(src->ctx);
    free(src->ctx);
}

int serve_source_fabric_open(struct serve_source *src, const char *path, size_t ring_samples,
                             struct dcb_err *err)
{
    memset(src, 0, sizeof(*src));
    struct fabric *fab = malloc(sizeof(*fab));
    if (!fab)
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    fabric_init(fab);
    src->name = "fabric";
    src->ctx = fab;
    src->now = intent_now;
    src->close = intent_close;
    src->is_ring = true;
    if (fabric_load_file(fab, path, err) < 0 ||
        store_open_ring(&src->st, ring_samples, 1024, err) < 0) {
        serve_source_close(src);
        return -1;
    }
    serve_source_add_intent(src, fab);
    return 0;
}

void serve_source_add_intent(struct serve_source *src, const struct fabric *fab)
{
    src->intent = fab;
    src->intent_ns = dcb_realtime_ns();
    src->intent_put = false;
}
