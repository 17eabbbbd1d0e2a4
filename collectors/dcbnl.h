/* DCB configuration over rtnetlink (RTM_GETDCB), as `dcb` from iproute2 reads it: IEEE ETS,
 * PFC with its per-priority requests and indications counters, the APP table (DSCP entries
 * become dscp2prio), the APP trust order where the driver exposes it (Linux >= 6.3: the first
 * of DSCP and PCP in it becomes trust), and the DCBX mode. Drivers without DCB support answer
 * EOPNOTSUPP, which becomes DCB_E_UNSUPP with one clear message. */
#ifndef DCB_DCBNL_H
#define DCB_DCBNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "qos_config.h"

struct dcbnl_pfc_counters {
    bool present;
    uint64_t requests[8];    /* PFC frames sent, per priority */
    uint64_t indications[8]; /* PFC frames received, per priority */
};

int dcbnl_read(const char *ifname, struct qos_config *c, struct dcbnl_pfc_counters *pfc,
               struct dcb_err *err);

/* The attributes of one DCB_CMD_IEEE_GET reply (after struct dcbmsg), for tests and fuzzing:
 * bytes are read only through the bounded reader. */
int dcbnl_parse_ieee(const uint8_t *attrs, size_t len, struct qos_config *c,
                     struct dcbnl_pfc_counters *pfc, struct dcb_err *err);
/* DCB_ATTR_DCBX capability flags -> dcbx.mode */
void dcbnl_apply_dcbx_mode(uint8_t flags, struct qos_config *c);

#endif
