#include "host.h"
#include "grow.h"
#include "log.h"
#include "proc_net_dev.h"
#include "rdma_nl.h"
#include "sysfs_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

int host_reader_open(struct host_reader *r, const char *sysfs_root, const struct counter_maps *maps,
                     struct dcb_err *err)
{
    memset(r, 0, sizeof(*r));
    snprintf(r->sysfs_root, sizeof(r->sysfs_root), "%s", sysfs_root ? sysfs_root : "/sys");
    r->live = strcmp(r->sysfs_root, "/sys") == 0;
    snprintf(r->proc_root, sizeof(r->proc_root), "/proc");
    r->maps = maps;
    r->raw_every = HOST_RAW_EVERY;
    r->sock = -1;
    if (r->live) {
        r->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        if (r->sock < 0)
            return dcb_err_set(err, DCB_E_IO, "socket for SIOCETHTOOL: %s", strerror(errno));
    }
    return 0;
}

void host_reader_close(struct host_reader *r)
{
    if (r->sock >= 0)
        close(r->sock);
    for (size_t i = 0; i < r->ncaches; i++)
        ethtool_strings_free(&r->caches[i].strings);
    free(r->caches);
    for (size_t i = 0; i < r->nstates; i++) {
        counter_dir_close(&r->states[i].netdev);
        counter_dir_close(&r->states[i].rdma);
    }
    free(r->states);
    free(r->rdma_ports);
    match_cache_free(&r->matches);
    memset(r, 0, sizeof(*r));
    r->sock = -1;
}

void host_reader_set_raw_every(struct host_reader *r, unsigned n)
{
    r->raw_every = n;
}

void host_reader_set_proc_root(struct host_reader *r, const char *dir)
{
    snprintf(r->proc_root, sizeof(r->proc_root), "%s", dir ? dir : "/proc");
}

static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

int host_list_ifaces(struct host_reader *r, const char *pattern, char (*names)[IFNAMSIZ],
                     size_t max, size_t *n, struct dcb_err *err)
{
    char dir[1100];
    snprintf(dir, sizeof(dir), "%s/class/net", r->sysfs_root);
    DIR *d = opendir(dir);
    if (!d)
        return dcb_err_set(err, errno == EACCES ? DCB_E_PERM : DCB_E_NOTFOUND, "%s: %s", dir,
                           strerror(errno));
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && *n < max) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= IFNAMSIZ)
            continue;
        if (pattern ? fnmatch(pattern, e->d_name, 0) != 0 : strcmp(e->d_name, "lo") == 0)
            continue;
        snprintf(names[(*n)++], IFNAMSIZ, "%s", e->d_name);
    }
    closedir(d);
    qsort(names, *n, IFNAMSIZ, by_name);
    return 0;
}

static void link_basename(const char *path, char *out, size_t len)
{
    char target[1024];
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    out[0] = '\0';
    if (n <= 0)
        return;
    target[n] = '\0';
    const char *slash = strrchr(target, '/');
    snprintf(out, len, "%.*s", (int)len - 1, slash ? slash + 1 : target);
}

static void add_counter(struct host_reader *r, struct host_iface_reading *out,
                        const struct counter_map *map, const char *source, const char *name,
                        uint64_t value)
{
    if (out->n == out->cap && dcb_grow(&out->counters, &out->cap, sizeof(*out->counters), 64) < 0)
        return;
    struct host_counter *c = &out->counters[out->n++];
    c->source = source;
    size_t len = strnlen(name, sizeof(c->raw) - 1); /* no snprintf: this runs per counter */
    memcpy(c->raw, name, len);
    c->raw[len] = '\0';
    c->value = value;
    c->match = (struct counter_match){ 0 };
    c->mapped = r ? match_cache_lookup(&r->matches, map, name, &c->match)
                  : counter_map_match(map, name, &c->match);
}

struct counter_add {
    struct host_reader *r;
    struct host_iface_reading *out;
    const struct counter_map *map;
    const char *source;
};

static void add_stat(const char *name, uint64_t value, void *arg)
{
    struct counter_add *a = arg;
    add_counter(a->r, a->out, a->map, a->source, name, value);
}

/* A counter file worth reading every sample: one the map turns into a canonical metric. */
static bool is_mapped(const char *name, void *arg)
{
    struct counter_add *a = arg;
    struct counter_match m;
    return match_cache_lookup(&a->r->matches, a->map, name, &m);
}

static struct host_iface_state *state_for(struct host_reader *r, const char *ifname)
{
    for (size_t i = 0; i < r->nstates; i++)
        if (!strcmp(r->states[i].ifname, ifname))
            return &r->states[i];
    struct host_iface_state *grown = realloc(r->states, (r->nstates + 1) * sizeof(*grown));
    if (!grown)
        return NULL;
    r->states = grown;
    struct host_iface_state *st = &r->states[r->nstates++];
    memset(st, 0, sizeof(*st));
    snprintf(st->ifname, sizeof(st->ifname), "%s", ifname);
    counter_dir_init(&st->netdev);
    counter_dir_init(&st->rdma);
    return st;
}

static struct ethtool_strings *cache_for(struct host_reader *r, const char *ifname)
{
    for (size_t i = 0; i < r->ncaches; i++)
        if (!strcmp(r->caches[i].ifname, ifname))
            return &r->caches[i].strings;
    struct host_ethtool_cache *c = realloc(r->caches, (r->ncaches + 1) * sizeof(*c));
    if (!c)
        return NULL;
    r->caches = c;
    memset(&c[r->ncaches], 0, sizeof(*c));
    snprintf(c[r->ncaches].ifname, IFNAMSIZ, "%s", ifname);
    return &c[r->ncaches++].strings;
}

#define RDMA_SEARCH_EVERY 64 /* reads between looks for an RDMA device that was not there */

/* The RDMA device whose port's first GID netdev is ifname: found by walking every device's
 * ports, which costs a file per port, so it is remembered and looked for again only after
 * RDMA_SEARCH_EVERY reads when there was none (a driver loaded later). */
/* Lists every RDMA port with its netdev: one pass over class/infiniband, whatever the number of
 * interfaces looking (a search per interface would read every port's ndev each time). */
/* A port RDMA netlink names, kept unless sysfs already tied it to a netdev. */
static void add_netlink_port(const struct rdma_nl_port *np, void *arg)
{
    struct host_reader *r = arg;
    for (size_t i = 0; i < r->nrdma_ports; i++)
        if (!strcmp(r->rdma_ports[i].device, np->device) && r->rdma_ports[i].port == (int)np->port)
            return;
    if (np->port > 64 ||
        (r->nrdma_ports == r->rdma_ports_cap &&
         dcb_grow(&r->rdma_ports, &r->rdma_ports_cap, sizeof(*r->rdma_ports), 16) < 0))
        return;
    struct host_rdma_port *p = &r->rdma_ports[r->nrdma_ports++];
    snprintf(p->ndev, sizeof(p->ndev), "%s", np->ndev);
    snprintf(p->device, sizeof(p->device), "%s", np->device);
    p->port = (int)np->port;
    p->via = "netlink";
}

static void list_rdma_ports(struct host_reader *r)
{
    r->nrdma_ports = 0;
    r->rdma_listed = true;
    r->rdma_listed_at = r->reads;
    char dir[1100];
    snprintf(dir, sizeof(dir), "%s/class/infiniband", r->sysfs_root);
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t cap = r->rdma_ports_cap;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        for (int port = 1; port <= 4; port++) {
            char path[1400], ndev[IFNAMSIZ + 8];
            snprintf(path, sizeof(path), "%s/%s/ports/%d/gid_attrs/ndevs/0", dir, e->d_name, port);
            if (!sysfs_read_line(AT_FDCWD, path, ndev, sizeof(ndev))) {
                snprintf(path, sizeof(path), "%s/%s/ports/%d", dir, e->d_name, port);
                if (faccessat(AT_FDCWD, path, F_OK, AT_EACCESS) < 0)
                    break; /* ports are numbered from 1 without gaps */
                continue;
            }
            if (r->nrdma_ports == cap &&
                dcb_grow(&r->rdma_ports, &cap, sizeof(*r->rdma_ports), 16) < 0)
                break;
            struct host_rdma_port *p = &r->rdma_ports[r->nrdma_ports++];
            snprintf(p->ndev, sizeof(p->ndev), "%.*s", IFNAMSIZ - 1, ndev);
            snprintf(p->device, sizeof(p->device), "%.63s", e->d_name);
            p->port = port;
            p->via = "gid ndev";
        }
    }
    closedir(d);
    r->rdma_ports_cap = cap;
    if (r->live)
        rdma_nl_ports(add_netlink_port, r, NULL);
}

/* The port of an RDMA device that a netdev sits on, by device/net/IF (the link ibdev2netdev
 * follows): the first port with hw_counters, for a device whose GIDs name no netdev yet. */
static bool find_by_device_net(struct host_reader *r, const char *ifname, char *device, size_t len,
                               int *port)
{
    char dir[1100];
    snprintf(dir, sizeof(dir), "%s/class/infiniband", r->sysfs_root);
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        char path[1400];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof(path), "%s/%s/device/net/%s", dir, e->d_name, ifname);
        if (faccessat(AT_FDCWD, path, F_OK, AT_EACCESS) < 0)
            continue;
        for (int p = 1; p <= 4 && !found; p++) {
            snprintf(path, sizeof(path), "%s/%s/ports/%d/hw_counters", dir, e->d_name, p);
            if (faccessat(AT_FDCWD, path, F_OK, AT_EACCESS) == 0) {
                snprintf(device, len, "%.63s", e->d_name);
                *port = p;
                found = true;
            }
        }
    }
    closedir(d);
    return found;
}

/* The names of the files in dir (at most max), malloc'ed; the count. */
static size_t list_names(const char *dir, char **names, size_t max)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while (d && n < max && (e = readdir(d)))
        if (e->d_name[0] != '.' && (names[n] = strdup(e->d_name)))
            n++;
    if (d)
        closedir(d);
    return n;
}

/* The RDMA map by the device's driver, or else the one that recognises most of its counters. */
static void pick_rdma_map(struct host_reader *r, struct host_iface_state *st)
{
    st->rdma_map = st->rdma_driver[0] ? counter_maps_find(r->maps, st->rdma_driver, "rdma") : NULL;
    if (st->rdma_map)
        return;
    char *names[512];
    size_t n = list_names(st->rdma_counters, names, 512), matched = 0;
    st->rdma_map = counter_maps_guess(r->maps, "rdma", (const char *const *)names, n, &matched);
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    if (st->rdma_map && !st->rdma_map_said) {
        st->rdma_map_said = true;
        dcb_warn("collect: %s (%s): %s; map guessed from names: %s (%zu of %zu counters known)",
                 st->ifname, st->rdma_device,
                 st->rdma_driver[0] ? "no RDMA map for its driver" : "no device/driver link",
                 st->rdma_map->driver, matched, n);
    }
}

/* A listed port (found the way via says) whose netdev is st's interface. */
static bool find_listed(struct host_reader *r, struct host_iface_state *st, const char *via,
                        char *device, size_t len, int *port)
{
    for (size_t i = 0; i < r->nrdma_ports; i++) {
        const struct host_rdma_port *p = &r->rdma_ports[i];
        if (strcmp(p->via, via) == 0 && strcmp(p->ndev, st->ifname) == 0) {
            snprintf(device, len, "%s", p->device);
            *port = p->port;
            st->rdma_found_by = p->via;
            return true;
        }
    }
    return false;
}

/* The RDMA device of st's interface: by GID ndev (the list above), else by device/net/IF, else
 * by RDMA netlink (listed with the GID ndevs, on a live host). */
static void find_rdma(struct host_reader *r, struct host_iface_state *st)
{
    st->rdma_searched = true;
    st->reads_since_search = 0;
    st->rdma_device[0] = '\0';
    st->rdma_driver[0] = '\0';
    st->rdma_map = NULL;
    /* a list made during this pass over the interfaces is fresh enough */
    if (!r->rdma_listed || r->reads - r->rdma_listed_at > r->nstates)
        list_rdma_ports(r);
    char device[64] = "";
    int port = 0;
    /* whichever answers, in this order: GID ndev, device/net, RDMA netlink */
    bool found = find_listed(r, st, "gid ndev", device, sizeof(device), &port);
    if (!found && (found = find_by_device_net(r, st->ifname, device, sizeof(device), &port)))
        st->rdma_found_by = "device/net";
    if (!found)
        find_listed(r, st, "netlink", device, sizeof(device), &port);
    if (!device[0])
        return;
    char dir[1100], path[1400];
    snprintf(dir, sizeof(dir), "%s/class/infiniband", r->sysfs_root);
    snprintf(st->rdma_device, sizeof(st->rdma_device), "%.50s/%d", device, port);
    snprintf(path, sizeof(path), "%s/%s/device/driver", dir, device);
    link_basename(path, st->rdma_driver, sizeof(st->rdma_driver));
    snprintf(st->rdma_counters, sizeof(st->rdma_counters), "%s/%s/ports/%d/hw_counters", dir,
             device, port);
    pick_rdma_map(r, st);
}

static void read_rdma(struct host_reader *r, struct host_iface_state *st,
                      struct host_iface_reading *out)
{
    if (!st->rdma_searched ||
        (!st->rdma_device[0] && ++st->reads_since_search >= RDMA_SEARCH_EVERY))
        find_rdma(r, st);
    if (!st->rdma_device[0])
        return;
    static const char *const skip[] = { "lifespan", NULL };
    struct counter_add a = { r, out, st->rdma_map, "rdma" };
    bool all = r->raw_every && st->reads % r->raw_every == 0;
    if (counter_dir_read_some(&st->rdma, st->rdma_counters, skip, all, is_mapped, add_stat, &a) <
        0) {
        st->rdma_searched = false; /* the device went away: look again next time */
        return;
    }
    snprintf(out->rdma_device, sizeof(out->rdma_device), "%s", st->rdma_device);
}

static int source_rank(const char *source)
{
    static const char *const order[] = { "ethtool", "dcbnl", "rdma", "netdev" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(source, order[i]))
            return i;
    return 4;
}

/* The PFC requests (sent) and indications (received) dcbnl reports per priority. */
static void add_dcbnl_pfc(struct host_iface_reading *out, const struct dcbnl_pfc_counters *pfc)
{
    for (int prio = 0; prio < 8; prio++) {
        for (int dir = 0; dir < 2; dir++) {
            char name[32];
            snprintf(name, sizeof(name), "%s[%d]", dir ? "indications" : "requests", prio);
            add_counter(NULL, out, NULL, "dcbnl", name,
                        dir ? pfc->indications[prio] : pfc->requests[prio]);
            struct host_counter *c = &out->counters[out->n - 1];
            c->mapped = true;
            c->match = (struct counter_match){ .metric = dir ? METRIC_PFC_RX_PAUSE
                                                             : METRIC_PFC_TX_PAUSE,
                                               .prio = prio,
                                               .queue = -1,
                                               .bits = 64 };
        }
    }
}

/* One canonical series per (metric, prio, queue): ethtool beats rdma beats netdev (mlx5's
 * rx_bytes_phy counts RoCE; the netdev rx_bytes does not). The losers stay as raw counters. */
static void resolve_duplicates(struct host_iface_reading *out)
{
    /* only mapped counters can collide: gather them first (a few dozen of hundreds) */
    size_t mapped[512], m = 0;
    for (size_t i = 0; i < out->n && m < sizeof(mapped) / sizeof(mapped[0]); i++)
        if (out->counters[i].mapped)
            mapped[m++] = i;
    for (size_t x = 0; x < m; x++) {
        struct host_counter *a = &out->counters[mapped[x]];
        for (size_t y = x + 1; a->mapped && y < m; y++) {
            struct host_counter *b = &out->counters[mapped[y]];
            if (!b->mapped || a->match.metric != b->match.metric ||
                a->match.prio != b->match.prio || a->match.queue != b->match.queue)
                continue;
            if (source_rank(b->source) < source_rank(a->source))
                a->mapped = false;
            else
                b->mapped = false;
        }
    }
}

#define PROC_NET_DEV_MAX (4u << 20)

/* The whole of path (a /proc file reports size 0: read until EOF), NUL-terminated. */
static char *read_small_file(const char *path, size_t max, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t cap = 16384;
    char *buf = malloc(cap + 1);
    *len = 0;
    while (buf) {
        if (*len == cap) {
            char *more = cap < max ? realloc(buf, cap * 2 + 1) : NULL;
            if (cap >= max)
                errno = EFBIG;
            if (!more) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = more;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + *len, cap - *len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            free(buf);
            buf = NULL;
        } else if (n == 0) {
            buf[*len] = '\0';
            break;
        } else {
            *len += (size_t)n;
        }
    }
    close(fd);
    return buf;
}

struct proc_pick {
    const char *ifname;
    struct proc_net_dev_row row;
    bool found;
};

static void pick_row(const struct proc_net_dev_row *row, void *arg)
{
    struct proc_pick *p = arg;
    if (!strcmp(row->ifname, p->ifname)) {
        p->row = *row;
        p->found = true;
    }
}

/* The interface's line of <proc>/net/dev, for an interface without a statistics directory. */
static int read_proc_net_dev(struct host_reader *r, struct host_iface_reading *out,
                             const struct counter_map *netdev, struct dcb_err *err)
{
    char path[1100];
    snprintf(path, sizeof(path), "%s/net/dev", r->proc_root);
    size_t len;
    char *text = read_small_file(path, PROC_NET_DEV_MAX, &len);
    if (!text)
        return dcb_err_set(err, errno == EACCES ? DCB_E_PERM : DCB_E_NOTFOUND,
                           "%s: no statistics directory, and %s: %s", out->ifname, path,
                           strerror(errno));
    struct proc_pick pick = { .ifname = out->ifname };
    struct dcb_err perr;
    int bad = proc_net_dev_parse(text, len, pick_row, &pick, &perr);
    free(text);
    if (bad && !r->proc_warned) {
        r->proc_warned = true;
        dcb_warn("collect: %s: %d malformed line%s skipped; %s", path, bad, bad == 1 ? "" : "s",
                 perr.msg);
    }
    if (!pick.found)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: no statistics directory, and not in %s",
                           out->ifname, path);
    for (int i = 0; i < PROC_NET_DEV_FIELDS; i++)
        add_counter(r, out, netdev, "netdev", proc_net_dev_names[i], pick.row.values[i]);
    return 0;
}

/* Mb/s in class/net/<if>/speed; -1 (unknown), 0 or an unreadable file give no speed. */
static void read_sysfs_speed(const char *net_dir, struct host_iface_reading *out)
{
    char path[1200], line[32];
    snprintf(path, sizeof(path), "%s/speed", net_dir);
    if (!sysfs_read_line(AT_FDCWD, path, line, sizeof(line)))
        return;
    char *end;
    errno = 0;
    long long mbps = strtoll(line, &end, 10);
    if (errno || end == line || *end || mbps <= 0 || mbps > 100000000LL)
        return;
    out->speed_bps = (uint64_t)mbps * 1000000ULL;
    out->speed_source = "sysfs";
}

int host_read_iface(struct host_reader *r, const char *ifname, struct host_iface_reading *out,
                    struct dcb_err *err)
{
    out->n = 0;
    out->dcb_status = DCB_E_UNSUPP;
    out->driver[0] = '\0';
    out->rdma_device[0] = '\0';
    out->speed_bps = 0;
    out->speed_source = NULL;
    snprintf(out->ifname, sizeof(out->ifname), "%s", ifname);
    char base[1100], path[1400];
    snprintf(base, sizeof(base), "%s/class/net/%s", r->sysfs_root, ifname);
    struct stat st;
    if (stat(base, &st) < 0)
        return dcb_err_set(err, errno == EACCES ? DCB_E_PERM : DCB_E_NOTFOUND,
                           "%s: no such interface", ifname);
    snprintf(path, sizeof(path), "%s/device/driver", base);
    link_basename(path, out->driver, sizeof(out->driver));
    int rc = 0;
    if (r->live) {
        if (!out->driver[0])
            ethtool_driver(r->sock, ifname, out->driver, sizeof(out->driver), NULL);
        struct ethtool_strings *cache = cache_for(r, ifname);
        struct counter_add a = { r, out, counter_maps_find(r->maps, out->driver, "ethtool"),
                                 "ethtool" };
        if (cache)
            rc = ethtool_read_stats(r->sock, ifname, cache, add_stat, &a, err);
        if (rc < 0 && rc != DCB_E_UNSUPP) /* no statistics: the other sources still count */
            dcb_debug("collect: %s: ethtool statistics: %s", ifname, err ? err->msg : "");
        struct dcbnl_pfc_counters pfc = { 0 };
        qos_config_init(&out->dcb);
        out->dcb_status = dcbnl_read(ifname, &out->dcb, &pfc, NULL);
        if (out->dcb_status == 0 && pfc.present)
            add_dcbnl_pfc(out, &pfc);
        if (ethtool_link_speed(r->sock, ifname, &out->speed_bps, NULL) == 0 && out->speed_bps)
            out->speed_source = "ethtool";
    } else {
        read_sysfs_speed(base, out);
    }
    struct host_iface_state *state = state_for(r, ifname);
    if (!state)
        return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory", ifname);
    const struct counter_map *netdev = counter_maps_find(r->maps, "*", "netdev");
    snprintf(path, sizeof(path), "%s/statistics", base);
    struct counter_add a = { r, out, netdev, "netdev" };
    rc = counter_dir_read_some(&state->netdev, path, NULL,
                               r->raw_every && state->reads % r->raw_every == 0, is_mapped,
                               add_stat, &a);
    struct dcb_err nerr = { 0 };
    if (rc == -ENOENT)
        rc = read_proc_net_dev(r, out, netdev, &nerr);
    else if (rc < 0)
        rc = dcb_err_set(&nerr, rc == -EACCES ? DCB_E_PERM : DCB_E_NOTFOUND, "%s: %s: %s", ifname,
                         path, strerror(-rc));
    read_rdma(r, state, out);
    /* each source on its own: netdev counters missing leave the others standing */
    if (rc < 0 && out->n == 0) {
        if (err)
            *err = nerr;
        return rc;
    }
    if (rc < 0 && !state->netdev_said) {
        state->netdev_said = true;
        dcb_warn("collect: %s; its other counters are still read", nerr.msg);
    }
    state->reads++;
    r->reads++;
    resolve_duplicates(out);
    return 0;
}

void host_reading_free(struct host_iface_reading *out)
{
    free(out->counters);
    memset(out, 0, sizeof(*out));
}
