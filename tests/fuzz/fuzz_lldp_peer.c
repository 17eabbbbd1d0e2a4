/* libFuzzer: an Ethernet frame through the decoders and, when it is LLDP, into the peer's QoS
 * config, as the LLDP listener does with whatever a neighbour sends. */
#include <stdint.h>
#include <stdlib.h>

#include "lldp_peer.h"

static struct dcb_frame frame;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65535)
        return 0;
    if (!dcb_decode_link_frame(DCB_LINKTYPE_ETHERNET, data, (uint32_t)size, (uint32_t)size,
                               &frame) ||
        !(frame.layers & DCB_L_LLDP))
        return 0;
    struct qos_config c;
    qos_config_init(&c);
    char peer[64], port[48];
    lldp_peer_config(&frame.lldp, &c, peer, sizeof(peer), port, sizeof(port));
    struct dcb_err err;
    if (qos_validate(&c, "", &err) < 0 && c.ets_bw[0].set == false)
        abort(); /* only the ETS bandwidth sum can make an advertised config invalid */
    return 0;
}
