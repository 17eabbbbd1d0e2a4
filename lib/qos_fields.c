/* Every QoS config field: its path, type, range and where it lives in struct qos_config. */
#include "qos_fields.h"

#include <stddef.h>

static const struct qos_enum trust_names[] = { { "dscp", QOS_TRUST_DSCP },
                                               { "pcp", QOS_TRUST_PCP },
                                               { NULL, 0 } };
static const struct qos_enum tsa_names[] = { { "strict", QOS_TSA_STRICT },
                                             { "cbs", QOS_TSA_CBS },
                                             { "ets", QOS_TSA_ETS },
                                             { "vendor", QOS_TSA_VENDOR },
                                             { NULL, 0 } };
static const struct qos_enum dcbx_names[] = { { "off", QOS_DCBX_OFF },
                                              { "ieee", QOS_DCBX_IEEE },
                                              { "cee", QOS_DCBX_CEE },
                                              { NULL, 0 } };
static const struct qos_enum pfcwd_action_names[] = { { "drop", QOS_PFCWD_DROP },
                                                      { "forward", QOS_PFCWD_FORWARD },
                                                      { "alert", QOS_PFCWD_ALERT },
                                                      { NULL, 0 } };

#define OFF(member) offsetof(struct qos_config, member)
#define V sizeof(struct qos_val)
#define SCALAR(path, alias, type, member, lo, hi, names, help)    \
    {                                                             \
        path, alias, type, 0, OFF(member), 0, lo, hi, names, help \
    }
#define ARRAY(path, type, n, member, lo, hi, names, help)        \
    {                                                            \
        path, NULL, type, n, OFF(member), V, lo, hi, names, help \
    }
#define WRED(name, type, lo, hi, help)                                       \
    {                                                                        \
        "switch.wred.#." #name, "wred.#." #name, type, 8, OFF(wred[0].name), \
            sizeof(struct qos_wred), lo, hi, NULL, help                      \
    }
#define BUFFER(name, lo, hi, help)                                                     \
    {                                                                                  \
        "switch.buffer.#." #name, "buffer.#." #name, QF_BYTES, 8, OFF(buffer[0].name), \
            sizeof(struct qos_buffer), lo, hi, NULL, help                              \
    }
#define DCQCN(name, type, lo, hi, help) \
    SCALAR("nic.dcqcn." #name, "dcqcn." #name, type, dcqcn.name, lo, hi, NULL, help)

#define BIG INT64_C(1) << 50

const struct qos_field qos_fields[] = {
    SCALAR("trust", NULL, QF_ENUM, trust, 1, 2, trust_names, "what the port classifies by"),
    ARRAY("dscp2prio.#", QF_INT, 64, dscp2prio[0], 0, 7, NULL, "DSCP to priority"),
    ARRAY("prio2tc.#", QF_INT, 8, prio2tc[0], 0, 7, NULL, "priority to traffic class"),
    ARRAY("ets.tsa.#", QF_ENUM, 8, ets_tsa[0], 0, 255, tsa_names, "scheduler of a TC"),
    ARRAY("ets.bw.#", QF_PERCENT, 8, ets_bw[0], 0, 100, NULL, "ETS bandwidth share of a TC, %"),
    SCALAR("pfc.enabled", NULL, QF_MASK, pfc_enabled, 0, 255, NULL,
           "priorities with PFC on (bit n = priority n)"),
    SCALAR("pfc.willing", NULL, QF_BOOL, pfc_willing, 0, 1, NULL, "accepts the peer's PFC config"),
    SCALAR("ets.willing", NULL, QF_BOOL, ets_willing, 0, 1, NULL,
           "accepts the peer's ETS config (its recommendation)"),
    SCALAR("dcbx.mode", NULL, QF_ENUM, dcbx_mode, 0, 2, dcbx_names, "DCBX flavour"),
    { "app", NULL, QF_APP, 0, 0, 0, 0, 0, NULL,
      "APP table: selector:protocol:priority,... (5 = DSCP, 3 = UDP port)" },
    WRED(min_bytes, QF_BYTES, 0, BIG, "WRED/ECN minimum threshold (Kmin)"),
    WRED(max_bytes, QF_BYTES, 0, BIG, "WRED/ECN maximum threshold (Kmax)"),
    WRED(max_p, QF_PERCENT, 0, 100, "marking probability at Kmax, %"),
    WRED(ecn, QF_BOOL, 0, 1, "mark ECN instead of dropping"),
    BUFFER(size, 0, BIG, "ingress PG reserved size"),
    BUFFER(xon, 0, BIG, "ingress PG XON threshold"),
    BUFFER(xoff, 0, BIG, "ingress PG XOFF threshold (headroom trigger)"),
    BUFFER(headroom, 0, BIG, "ingress PG headroom"),
    { "switch.buffer.#.dynamic_th", "buffer.#.dynamic_th", QF_INT, 8, OFF(buffer[0].dynamic_th),
      sizeof(struct qos_buffer), -8, 8, NULL, "dynamic threshold: alpha = 2^n" },
    SCALAR("switch.buffer.headroom_pool", "buffer.headroom_pool", QF_BYTES, headroom_pool, 0, BIG,
           NULL, "shared headroom pool the lossless PGs' headroom is drawn from (per switch)"),
    SCALAR("switch.pfcwd.detect_ms", "pfcwd.detect_ms", QF_MS, pfcwd_detect_ms, 1, 60000, NULL,
           "PFC watchdog detection time"),
    SCALAR("switch.pfcwd.restore_ms", "pfcwd.restore_ms", QF_MS, pfcwd_restore_ms, 1, 60000, NULL,
           "PFC watchdog restoration time"),
    SCALAR("switch.pfcwd.action", "pfcwd.action", QF_ENUM, pfcwd_action, 0, 2, pfcwd_action_names,
           "what the watchdog does to a stormed queue"),
    SCALAR("mtu", NULL, QF_BYTES, mtu, 68, 65535, NULL, "MTU"),
    SCALAR("speed_bps", NULL, QF_SPEED, speed_bps, QOS_SPEED_MIN_BPS, QOS_SPEED_MAX_BPS, NULL,
           "link speed"),
    SCALAR("cable_m", NULL, QF_LENGTH, cable_mm, 0, QOS_CABLE_MAX_MM, NULL, "cable length"),
    DCQCN(np_enabled, QF_MASK, 0, 255, "priorities where the NIC sends CNPs"),
    DCQCN(rp_enabled, QF_MASK, 0, 255, "priorities where the NIC reacts to CNPs"),
    DCQCN(rai_mbps, QF_MBPS, 0, 4000000, "additive-increase step (rpg_ai_rate)"),
    DCQCN(rhai_mbps, QF_MBPS, 0, 4000000, "hyper-increase step (rpg_hai_rate)"),
    DCQCN(min_rate_mbps, QF_MBPS, 0, 4000000, "QP minimum rate (rpg_min_rate)"),
    DCQCN(max_rate_mbps, QF_MBPS, 0, 4000000, "QP maximum rate, 0 = line rate (rpg_max_rate)"),
    DCQCN(rate_on_first_cnp_mbps, QF_MBPS, 0, 4000000, "rate set on the first CNP, 0 = keep"),
    DCQCN(g, QF_INT, 0, 1023, "alpha update gain, 10 fractional bits (dce_tcp_g)"),
    DCQCN(initial_alpha, QF_INT, 0, 1023, "alpha at the first CNP (initial_alpha_value)"),
    DCQCN(gd, QF_INT, 0, 15, "alpha to rate-reduction coefficient, log2 (rpg_gd)"),
    DCQCN(min_dec_fac, QF_PERCENT, 0, 100, "largest rate decrease per event, % (rpg_min_dec_fac)"),
    DCQCN(threshold, QF_INT, 1, 31, "increase events before the next phase (rpg_threshold)"),
    DCQCN(byte_reset, QF_BYTES, 1, 32767, "bytes between increase events (rpg_byte_reset)"),
    DCQCN(clamp_tgt_rate, QF_BOOL, 0, 1, "target rate := current on every decrease"),
    DCQCN(alpha_update_us, QF_US, 1, 131071, "alpha update period (dce_tcp_rtt)"),
    DCQCN(rate_reduce_period_us, QF_US, 0, 131071,
          "least time between rate reductions (rate_reduce_monitor_period)"),
    DCQCN(time_reset_us, QF_US, 1, 131071, "time between increase events (rpg_time_reset)"),
    DCQCN(min_time_between_cnps_us, QF_US, 0, 4095, "least gap between CNPs from a port"),
    SCALAR("nic.roce_dscp", NULL, QF_INT, roce_dscp, 0, 63, NULL,
           "DSCP the NIC marks RoCE with (its RoCE traffic class or rdma_cm ToS, over 4)"),
    SCALAR("cnp.dscp", NULL, QF_INT, cnp_dscp, 0, 63, NULL, "DSCP of CNPs"),
    SCALAR("cnp.prio", NULL, QF_INT, cnp_prio, 0, 7, NULL, "priority (PCP) of CNPs"),
    SCALAR("pause.global_rx", NULL, QF_BOOL, pause_global_rx, 0, 1, NULL, "honours 802.3x PAUSE"),
    SCALAR("pause.global_tx", NULL, QF_BOOL, pause_global_tx, 0, 1, NULL, "sends 802.3x PAUSE"),
    SCALAR("link.fcs_error_ppm", NULL, QF_INT, fcs_error_ppm, 0, 1000000, NULL,
           "frames received with a bad FCS and dropped, per million (a fault)"),
    SCALAR("switch.ecn.clear_ce", "ecn.clear_ce", QF_BOOL, ecn_clear_ce, 0, 1, NULL,
           "clears the CE mark of every packet it sends (a fault)"),
    SCALAR("switch.dscp_rewrite", "dscp_rewrite", QF_INT, dscp_rewrite, 0, 63, NULL,
           "rewrites the DSCP of every IP packet it receives to this (a fault)"),
    SCALAR("nic.ecn_capable", NULL, QF_BOOL, ecn_capable, 0, 1, NULL,
           "sends ECN-capable (ECT) packets; false: Not-ECT (a fault)"),
};

const size_t qos_field_count = sizeof(qos_fields) / sizeof(qos_fields[0]);
