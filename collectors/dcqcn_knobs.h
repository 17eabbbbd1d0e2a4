/* DCQCN knobs of an interface into the QoS config model, from wherever the driver exposes them:
 * MLNX_OFED's /sys/class/net/<if>/ecn/roce_np and roce_rp (per-priority enable files plus
 * parameters), or the upstream mlx5 debugfs mlx5/<pci>/cc_params. Names and units follow
 * NVIDIA's DCQCN and ECN documents (docs/rules-references.md#nvidia-dcqcn #nvidia-ecn). */
#ifndef DCB_DCQCN_KNOBS_H
#define DCB_DCQCN_KNOBS_H

#include <stddef.h>

#include "err.h"
#include "qos_config.h"

/* Fills the nic.dcqcn.* and cnp.* fields found; *source names where they came from
 * ("mlnx_ofed sysfs" or "mlx5 debugfs"). DCB_E_NOTFOUND when neither exists. */
int dcqcn_read(const char *sysfs_root, const char *ifname, struct qos_config *c, char *source,
               size_t source_len, struct dcb_err *err);

#endif
