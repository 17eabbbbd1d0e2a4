#include "ethtool.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#define ETHTOOL_MAX_STATS 65536

static int do_ioctl(int sock, const char *ifname, void *data, const char *what, struct dcb_err *err)
{
    struct ifreq ifr;
    memset(&ifr, 0, sizeof(ifr));
    snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
    ifr.ifr_data = data;
    if (ioctl(sock, SIOCETHTOOL, &ifr) == 0)
        return 0;
    int e = errno;
    if (e == ENODEV)
        return dcb_err_set(err, DCB_E_NOTFOUND, "%s: no such interface", ifname);
    if (e == EPERM || e == EACCES)
        return dcb_err_set(err, DCB_E_PERM, "%s: %s: permission denied", ifname, what);
    if (e == EOPNOTSUPP)
        return dcb_err_set(err, DCB_E_UNSUPP, "%s: %s: not supported by the driver", ifname, what);
    return dcb_err_set(err, DCB_E_IO, "%s: %s: %s", ifname, what, strerror(e));
}

int ethtool_driver(int sock, const char *ifname, char *driver, size_t len, struct dcb_err *err)
{
    struct ethtool_drvinfo info;
    memset(&info, 0, sizeof(info));
    info.cmd = ETHTOOL_GDRVINFO;
    int rc = do_ioctl(sock, ifname, &info, "driver info", err);
    if (rc < 0)
        return rc;
    snprintf(driver, len, "%.*s", (int)sizeof(info.driver), info.driver);
    return 0;
}

static int stats_count(int sock, const char *ifname, uint32_t *count, struct dcb_err *err)
{
    /* one data slot follows the header for the one set asked for */
    struct ethtool_sset_info *sset = calloc(1, sizeof(*sset) + sizeof(uint32_t));
    if (!sset)
        return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory", ifname);
    sset->cmd = ETHTOOL_GSSET_INFO;
    sset->sset_mask = 1ULL << ETH_SS_STATS;
    int rc = do_ioctl(sock, ifname, sset, "statistics", err);
    *count = rc == 0 && (sset->sset_mask & (1ULL << ETH_SS_STATS)) ? sset->data[0] : 0;
    free(sset);
    if (rc < 0)
        return rc;
    if (*count > ETHTOOL_MAX_STATS)
        return dcb_err_set(err, DCB_E_RANGE, "%s: driver reports %u statistics", ifname, *count);
    return 0;
}

static void trim(char *s)
{
    size_t n = strnlen(s, ETHTOOL_NAME_LEN - 1);
    s[n] = '\0';
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    size_t lead = strspn(s, " \t");
    if (lead)
        memmove(s, s + lead, n - lead + 1);
}

static int read_strings(int sock, const char *ifname, struct ethtool_strings *cache, uint32_t count,
                        struct dcb_err *err)
{
    struct ethtool_gstrings *gs = calloc(1, sizeof(*gs) + (size_t)count * ETH_GSTRING_LEN);
    if (!gs)
        return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory for statistic names", ifname);
    gs->cmd = ETHTOOL_GSTRINGS;
    gs->string_set = ETH_SS_STATS;
    gs->len = count;
    int rc = do_ioctl(sock, ifname, gs, "statistic names", err);
    if (rc == 0) {
        free(cache->names);
        cache->names = calloc(count + 1, ETHTOOL_NAME_LEN);
        cache->count = cache->names ? count : 0;
        for (uint32_t i = 0; cache->names && i < count; i++) {
            memcpy(cache->names[i], gs->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
            trim(cache->names[i]);
        }
        if (!cache->names)
            rc = dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory", ifname);
    }
    free(gs);
    return rc;
}

int ethtool_read_stats(int sock, const char *ifname, struct ethtool_strings *cache,
                       ethtool_stat_fn fn, void *arg, struct dcb_err *err)
{
    uint32_t count = 0;
    int rc = stats_count(sock, ifname, &count, err);
    if (rc < 0)
        return rc;
    if (count != cache->count || !cache->names) {
        if ((rc = read_strings(sock, ifname, cache, count, err)) < 0)
            return rc;
    }
    if (count == 0)
        return 0;
    struct ethtool_stats *st = calloc(1, sizeof(*st) + (size_t)count * sizeof(uint64_t));
    if (!st)
        return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory for statistics", ifname);
    st->cmd = ETHTOOL_GSTATS;
    st->n_stats = count;
    rc = do_ioctl(sock, ifname, st, "statistics", err);
    if (rc == 0 && st->n_stats != count) {
        /* the set changed between the calls: read the names again next time */
        cache->count = 0;
        rc = dcb_err_set(err, DCB_E_IO, "%s: statistics changed while reading", ifname);
    }
    for (uint32_t i = 0; rc == 0 && i < count; i++)
        fn(cache->names[i], st->data[i], arg);
    free(st);
    return rc;
}

void ethtool_strings_free(struct ethtool_strings *cache)
{
    free(cache->names);
    cache->names = NULL;
    cache->count = 0;
}

#define LINK_MODE_WORDS_MAX 127 /* link_mode_masks_nwords is an s8 */

/* ETHTOOL_GLINKSETTINGS: a first call with nwords 0 makes the kernel answer -(its nwords);
 * the second call, with that many words, gets the settings. */
static int glinksettings_speed(int sock, const char *ifname, uint32_t *mbps, struct dcb_err *err)
{
    size_t size = sizeof(struct ethtool_link_settings) + 3 * LINK_MODE_WORDS_MAX * sizeof(uint32_t);
    struct ethtool_link_settings *req = calloc(1, size);
    if (!req)
        return dcb_err_set(err, DCB_E_NOMEM, "%s: out of memory", ifname);
    req->cmd = ETHTOOL_GLINKSETTINGS;
    int rc = do_ioctl(sock, ifname, req, "link settings", err);
    int nwords = rc == 0 ? -req->link_mode_masks_nwords : 0;
    if (rc == 0 &&
        (req->cmd != ETHTOOL_GLINKSETTINGS || nwords <= 0 || nwords > LINK_MODE_WORDS_MAX))
        rc = dcb_err_set(err, DCB_E_UNSUPP, "%s: link settings: no handshake", ifname);
    if (rc == 0) {
        memset(req, 0, size);
        req->cmd = ETHTOOL_GLINKSETTINGS;
        req->link_mode_masks_nwords = (int8_t)nwords;
        rc = do_ioctl(sock, ifname, req, "link settings", err);
    }
    if (rc == 0 && req->link_mode_masks_nwords <= 0)
        rc = dcb_err_set(err, DCB_E_UNSUPP, "%s: link settings: no handshake", ifname);
    if (rc == 0)
        *mbps = req->speed;
    free(req);
    return rc;
}

int ethtool_link_speed(int sock, const char *ifname, uint64_t *bps, struct dcb_err *err)
{
    uint32_t mbps = 0;
    *bps = 0;
    int rc = glinksettings_speed(sock, ifname, &mbps, err);
    if (rc == DCB_E_UNSUPP) {
        struct ethtool_cmd cmd; /* the deprecated call older drivers still answer */
        memset(&cmd, 0, sizeof(cmd));
        cmd.cmd = ETHTOOL_GSET;
        rc = do_ioctl(sock, ifname, &cmd, "link settings", err);
        if (rc == 0)
            mbps = ethtool_cmd_speed(&cmd);
    }
    if (rc < 0)
        return rc;
    if (mbps != (uint32_t)SPEED_UNKNOWN && mbps != 0)
        *bps = (uint64_t)mbps * 1000000ULL;
    return 0;
}
