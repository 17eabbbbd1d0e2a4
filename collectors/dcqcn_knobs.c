#include "dcqcn_knobs.h"
#include "sysfs_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct knob {
    const char *ofed;    /* file under ecn/roce_rp or ecn/roce_np (np: prefixed "np/") */
    const char *debugfs; /* file under cc_params */
    const char *path;    /* QoS config path */
};

static const struct knob knobs[] = {
    { "rp/dce_tcp_g", "rp_dce_tcp_g", "nic.dcqcn.g" },
    { "rp/dce_tcp_rtt", "rp_dce_tcp_rtt", "nic.dcqcn.alpha_update_us" },
    { "rp/initial_alpha_value", "rp_initial_alpha_value", "nic.dcqcn.initial_alpha" },
    { "rp/rate_to_set_on_first_cnp", "rp_rate_to_set_on_first_cnp",
      "nic.dcqcn.rate_on_first_cnp_mbps" },
    { "rp/rpg_min_dec_fac", "rp_min_dec_fac", "nic.dcqcn.min_dec_fac" },
    { "rp/rpg_min_rate", "rp_min_rate", "nic.dcqcn.min_rate_mbps" },
    { "rp/rpg_gd", "rp_gd", "nic.dcqcn.gd" },
    { "rp/rate_reduce_monitor_period", "rp_rate_reduce_monitor_period",
      "nic.dcqcn.rate_reduce_period_us" },
    { "rp/clamp_tgt_rate", "rp_clamp_tgt_rate", "nic.dcqcn.clamp_tgt_rate" },
    { "rp/rpg_time_reset", "rp_time_reset", "nic.dcqcn.time_reset_us" },
    { "rp/rpg_byte_reset", "rp_byte_reset", "nic.dcqcn.byte_reset" },
    { "rp/rpg_threshold", "rp_threshold", "nic.dcqcn.threshold" },
    { "rp/rpg_max_rate", NULL, "nic.dcqcn.max_rate_mbps" },
    { "rp/rpg_ai_rate", "rp_ai_rate", "nic.dcqcn.rai_mbps" },
    { "rp/rpg_hai_rate", "rp_hai_rate", "nic.dcqcn.rhai_mbps" },
    { "np/min_time_between_cnps", "np_min_time_between_cnps",
      "nic.dcqcn.min_time_between_cnps_us" },
    { "np/cnp_dscp", "np_cnp_dscp", "cnp.dscp" },
    { "np/cnp_802p_prio", "np_cnp_prio", "cnp.prio" },
};

static int set_knob(struct qos_config *c, const char *path, const char *text, const char *file,
                    struct dcb_err *err)
{
    struct dcb_err inner;
    if (qos_set(c, path, text, &inner) < 0)
        return dcb_err_set(err, DCB_E_INVAL, "%s: %s", file, inner.msg);
    return 0;
}

static int read_ofed(const char *base, struct qos_config *c, struct dcb_err *err)
{
    char path[1400], text[64];
    for (int side = 0; side < 2; side++) {
        unsigned mask = 0;
        bool any = false;
        for (int prio = 0; prio < 8; prio++) {
            snprintf(path, sizeof(path), "%s/roce_%s/enable/%d", base, side ? "rp" : "np", prio);
            if (sysfs_read_line(AT_FDCWD, path, text, sizeof(text))) {
                any = true;
                if (strcmp(text, "0") != 0)
                    mask |= 1u << prio;
            }
        }
        if (any) {
            snprintf(text, sizeof(text), "0x%02x", mask);
            int rc = set_knob(c, side ? "nic.dcqcn.rp_enabled" : "nic.dcqcn.np_enabled", text, base,
                              err);
            if (rc < 0)
                return rc;
        }
    }
    for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
        snprintf(path, sizeof(path), "%s/roce_%s", base, knobs[i].ofed);
        if (sysfs_read_line(AT_FDCWD, path, text, sizeof(text))) {
            int rc = set_knob(c, knobs[i].path, text, path, err);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

static int read_debugfs(const char *base, struct qos_config *c, struct dcb_err *err)
{
    char path[1400], text[64];
    for (size_t i = 0; i < sizeof(knobs) / sizeof(knobs[0]); i++) {
        if (!knobs[i].debugfs)
            continue;
        snprintf(path, sizeof(path), "%s/%s", base, knobs[i].debugfs);
        if (sysfs_read_line(AT_FDCWD, path, text, sizeof(text))) {
            int rc = set_knob(c, knobs[i].path, text, path, err);
            if (rc < 0)
                return rc;
        }
    }
    return 0;
}

int dcqcn_read(const char *sysfs_root, const char *ifname, struct qos_config *c, char *source,
               size_t source_len, struct dcb_err *err)
{
    char base[1200];
    snprintf(base, sizeof(base), "%s/class/net/%s/ecn", sysfs_root, ifname);
    if (faccessat(AT_FDCWD, base, F_OK, AT_EACCESS) == 0) {
        snprintf(source, source_len, "mlnx_ofed sysfs");
        return read_ofed(base, c, err);
    }
    /* upstream mlx5: debugfs keyed by the PCI address the netdev sits on */
    char link[1300], target[512];
    snprintf(link, sizeof(link), "%s/class/net/%s/device", sysfs_root, ifname);
    ssize_t n = readlink(link, target, sizeof(target) - 1);
    if (n > 0) {
        target[n] = '\0';
        const char *pci = strrchr(target, '/');
        pci = pci ? pci + 1 : target;
        snprintf(base, sizeof(base), "%s/kernel/debug/mlx5/%.64s/cc_params", sysfs_root, pci);
        if (faccessat(AT_FDCWD, base, F_OK, AT_EACCESS) == 0) {
            snprintf(source, source_len, "mlx5 debugfs");
            return read_debugfs(base, c, err);
        }
    }
    return dcb_err_set(err, DCB_E_NOTFOUND,
                       "%s: no DCQCN knobs exposed (neither MLNX_OFED "
                       "ecn/ nor mlx5 debugfs cc_params)",
                       ifname);
}
