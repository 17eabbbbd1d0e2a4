/* DCBX neighbours seen in LLDP: per (chassis ID, port ID), the IEEE or CEE configuration last
 * advertised and how often it changed; and, for two neighbours on one capture interface (the two
 * ends of a link), how their PFC, ETS and App tables and willing bits disagree.
 *
 * CEE tables are put into the IEEE shape so the two can be compared: a CEE priority group is the
 * traffic class, a CEE App entry with selector 0 (EtherType) is IEEE selector 1 and selector 1
 * (TCP/UDP port) is IEEE selector 4, with one entry per priority in the map. */
#ifndef DCB_DCBX_TRACK_H
#define DCB_DCBX_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode.h"
#include "track.h"

#define DCBX_NEIGHBOURS_MAX 1024
#define DCBX_APP_MAX 256
#define DCBX_ID_MAX 255

enum dcbx_protocol { DCBX_NONE, DCBX_IEEE, DCBX_CEE };

struct dcbx_app {
    uint8_t sel; /* IEEE selector: 1 EtherType, 2 TCP, 3 UDP, 4 TCP/UDP, 5 DSCP */
    uint16_t proto;
    uint8_t prio;
};

struct dcbx_config {
    enum dcbx_protocol protocol;
    bool willing; /* the PFC TLV's (IEEE) or PFC feature's (CEE) willing bit */
    bool has_pfc;
    uint8_t pfc_enable, pfc_cap;
    bool has_ets;
    bool ets_willing;
    uint8_t prio_tc[8], tc_bw[8], tsa[8]; /* CEE: PGID per priority, PG bandwidth, tsa 0 */
    uint16_t napp;
    bool app_truncated;
    struct dcbx_app app[DCBX_APP_MAX]; /* sorted */
};

struct dcbx_neighbour {
    uint8_t chassis_subtype, port_subtype;
    uint8_t chassis_len, port_len;
    uint8_t chassis[DCBX_ID_MAX], port[DCBX_ID_MAX];
    uint8_t src[6];
    unsigned iface;
    uint64_t frames, changes;
    int64_t first_ns, last_ns;
    struct dcbx_config cfg;
};

enum dcbx_mismatch {
    DCBX_MISMATCH_VERSION = 1u << 0,
    DCBX_MISMATCH_PFC = 1u << 1,
    DCBX_MISMATCH_ETS = 1u << 2,
    DCBX_MISMATCH_APP = 1u << 3,
};

struct dcbx_link {
    uint32_t a, b;       /* neighbour indexes */
    unsigned mismatches; /* enum dcbx_mismatch bits */
    int willing;         /* how many of the two ends are willing: 0, 1 or 2 */
};

struct dcbx_tracker {
    struct track_events events;
    struct dcbx_neighbour *nb;
    size_t nnb, cap;
    uint64_t lldp_frames, dcbx_frames, untracked_frames;
    struct dcbx_link *links; /* set by dcbx_tracker_finish */
    size_t nlinks;
    size_t crowded_ifaces; /* interfaces with more than two neighbours: not paired */
    bool nomem;
};

void dcbx_tracker_init(struct dcbx_tracker *t, const struct track_events *events);
/* iface tells capture interfaces apart (the pcapng interface), 0 for a one-interface file. */
void dcbx_tracker_frame(struct dcbx_tracker *t, int64_t ts_ns, unsigned iface,
                        const struct dcb_frame *f);
/* Pairs the neighbours into links and compares them (a dcbx_mismatch event per link that
 * disagrees, at ts_ns). */
void dcbx_tracker_finish(struct dcbx_tracker *t, int64_t ts_ns);
void dcbx_tracker_free(struct dcbx_tracker *t);

/* A chassis or port ID as text: a MAC for subtype 4 (chassis) / 3 (port), the text when all
 * bytes are printable, hex otherwise. buf holds at least 2 * DCBX_ID_MAX + 1 bytes. */
char *dcbx_id_str(uint8_t subtype, bool is_port, const uint8_t *id, uint8_t len, char *buf);
const char *dcbx_protocol_name(enum dcbx_protocol p);
/* The union of the PFC enable masks the neighbours advertise. */
uint8_t dcbx_tracker_pfc_union(const struct dcbx_tracker *t);
/* The priority the neighbours' App tables give DSCP value dscp, or -1 if none does. */
int dcbx_tracker_dscp_prio(const struct dcbx_tracker *t, uint8_t dscp);
bool dcbx_tracker_has_dscp_app(const struct dcbx_tracker *t);

#endif
