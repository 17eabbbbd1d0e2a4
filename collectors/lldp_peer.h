/* What a link partner advertises in LLDP (IEEE 802.1Qaz or CEE DCBX), as QoS config of the
 * peer, so config checks can compare both ends of a link. */
#ifndef DCB_LLDP_PEER_H
#define DCB_LLDP_PEER_H

#include <stddef.h>

#include "decode.h"
#include "qos_config.h"

/* Fills c with the peer's advertised config and names the peer (system name, else chassis ID)
 * and its port. Returns "ieee", "cee" or "none": which DCBX the frame carried. */
const char *lldp_peer_config(const struct dcb_lldp *l, struct qos_config *c, char *peer,
                             size_t peer_len, char *port, size_t port_len);

/* The peer's chassis ID as text (a MAC as colon-separated hex), "" when it sent none. */
void lldp_peer_chassis(const struct dcb_lldp *l, char *out, size_t len);

#endif
