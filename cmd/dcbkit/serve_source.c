/* Where dcbkit serve's numbers come from:
 *  - local: this host (or a sysfs tree saved elsewhere) read every interval into a ring, which
 *    also feeds the rules;
 *  - store: a store that another process (dcbkit collect --store) writes; serve only reads it,
 *    and the rules run over its history. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "counter_map.h"
#include "diagnose.h"
#include "host.h"
#include "serve.h"
#include "units.h"

#define LOCAL_IFACES_MAX 1024

/* ---- local ----------------------------------------------------------------------------------- */

struct local_source {
    struct counter_maps maps;
    struct host_reader reader;
    char device[256];
    const char *pattern;
    char (*names)[IFNAMSIZ];
    size_t nnames;
    unsigned rounds;
};

static int local_list(struct local_source *l, struct dcb_err *err)
{
    return host_list_ifaces(&l->reader, l->pattern, l->names, LOCAL_IFACES_MAX, &l->nnames, err);
}

static int local_collect(struct serve_source *src, struct dcb_err *err)
{
    struct local_source *l = src->ctx;
    /* interfaces come and go (VFs, hot-plug): list them again now and then */
    if (++l->rounds % 60 == 0 && local_list(l, err) < 0)
        return -1;
    if (!l->nnames)
        return dcb_err_set(err, DCB_E_NOTFOUND, "no interface under %s/class/net%s%s",
                           l->reader.sysfs_root, l->pattern ? " matches " : "",
                           l->pattern ? l->pattern : "");
    return diagnose_read_host(&l->reader, l->names, l->nnames, src->st, l->device, true, err);
}

static int64_t local_now(struct serve_source *src)
{
    (void)src;
    return dcb_realtime_ns();
}

static void local_close(struct serve_source *src)
{
    struct local_source *l = src->ctx;
    host_reader_close(&l->reader);
    counter_maps_free(&l->maps);
    free(l->names);
    free(l);
}

int serve_source_local_open(struct serve_source *src, const struct serve_local_options *opt,
                            struct dcb_err *err)
{
    memset(src, 0, sizeof(*src));
    char maps_dir[4096];
    if (!opt->maps_dir && counter_maps_default_dir(maps_dir, sizeof(maps_dir)) < 0)
        return dcb_err_set(err, DCB_E_NOTFOUND, "no counter maps found; set DCBKIT_MAPS");
    struct local_source *l = calloc(1, sizeof(*l));
    if (l)
        l->names = calloc(LOCAL_IFACES_MAX, sizeof(*l->names));
    if (!l || !l->names) {
        free(l);
        return dcb_err_set(err, DCB_E_NOMEM, "out of memory");
    }
    if (counter_maps_load_dir(&l->maps, opt->maps_dir ? opt->maps_dir : maps_dir, err) < 0) {
        free(l->names);
        free(l);
        return -1;
    }
    if (host_reader_open(&l->reader, opt->sysfs_root, &l->maps, err) < 0) {
        counter_maps_free(&l->maps);
        free(l->names);
        free(l);
        return -1;
    }
    if (opt->proc_root)
        host_reader_set_proc_root(&l->reader, opt->proc_root);
    if (opt->device)
        snprintf(l->device, sizeof(l->device), "%s", opt->device);
    else if (gethostname(l->device, sizeof(l->device) - 1) < 0)
        snprintf(l->device, sizeof(l->device), "localhost");
    l->pattern = opt->ifname;
    src->name = "local";
    src->ctx = l;
    src->collect = local_collect;
    src->now = local_now;
    src->close = local_close;
    src->is_ring = true;
    if (local_list(l, err) < 0 || store_open_ring(&src->st, opt->ring_samples,
                                                  opt->ring_samples / 16 + 1, err) < 0) {
        local_close(src);
        memset(src, 0, sizeof(*src));
        return -1;
    }
    return 0;
}

/* ---- store ----------------------------------------------------------------------------------- */

static int64_t store_now(struct serve_source *src)
{
    struct store_info info;
    struct dcb_err err;
    if (store_info(src->st, &info, &err) < 0 || !info.last_ns)
        return dcb_realtime_ns();
    return info.last_ns;
}

int serve_source_store_open(struct serve_source *src, const char *path, struct dcb_err *err)
{
    memset(src, 0, sizeof(*src));
    struct store_options so = { .path = path, .readonly = true };
    if (store_open_sqlite(&src->st, &so, err) < 0)
        return -1;
    src->name = "store";
    src->now = store_now;
    return 0;
}

void serve_source_close(struct serve_source *src)
{
    if (src->close)
        src->close(src);
    if (src->st)
        store_close(src->st, NULL);
    memset(src, 0, sizeof(*src));
}
