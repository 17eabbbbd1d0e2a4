/* The QoS configuration of one interface: whatever a source knows (DCBX TLVs, dcbnl, NIC sysfs,
 * gNMI, a fabric file). Every field is either set or unknown; unknown is never 0.
 *
 * Fields are addressed by dotted path, one table drives get, set, diff, JSON and validation:
 *   trust                      dscp | pcp
 *   dscp2prio.N                N 0..63 -> priority 0..7
 *   prio2tc.N                  N 0..7 -> traffic class 0..7
 *   ets.tsa.N, ets.bw.N        per TC: strict|cbs|ets|vendor, bandwidth %
 *   pfc.enabled, pfc.willing   priority bit mask (0x08 = prio 3), bool
 *   ets.willing                bool: takes the peer's ETS (and recommended) config
 *   dcbx.mode                  ieee | cee | off
 *   app                        APP table: "sel:proto:prio,..." (sel 1 ethertype .. 5 dscp)
 *   switch.wred.N.{min_bytes,max_bytes,max_p,ecn}            per TC
 *   switch.buffer.N.{size,xon,xoff,headroom,dynamic_th}      per PG (bytes; α exponent)
 *   switch.buffer.headroom_pool                  the switch's shared headroom pool (bytes)
 *   switch.pfcwd.{detect_ms,restore_ms,action}
 *   mtu, speed_bps, cable_m
 *   nic.dcqcn.{np_enabled,rp_enabled} and its parameters (rai_mbps, rhai_mbps, ...)
 *   nic.roce_dscp              the DSCP the NIC marks RoCE with
 *   cnp.dscp, cnp.prio, pause.global_rx, pause.global_tx
 *   link.fcs_error_ppm, switch.ecn.clear_ce, switch.dscp_rewrite, nic.ecn_capable (faults)
 * `dcbkit fabric paths` lists them all. The `switch.`/`nic.` prefix says where a knob lives;
 * wred, buffer, pfcwd and dcqcn also answer without it. */
#ifndef DCB_QOS_CONFIG_H
#define DCB_QOS_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define QOS_APP_MAX 32
/* Link speeds and cable lengths an interface or link may have: 1 Mb/s (a management port) to
 * 1.6 Tb/s (802.3dj), up to 100 km of cable. Outside these the replay's time arithmetic has no
 * meaning (a 1 b/s PAUSE lasts 1.1 years) and a typo ("speed": 40 for 40G) is caught. */
#define QOS_SPEED_MIN_BPS 1000000LL
#define QOS_SPEED_MAX_BPS 1600000000000LL
#define QOS_CABLE_MAX_MM 100000000LL

struct qos_val {
    int64_t v;
    bool set;
};

struct qos_wred {
    struct qos_val min_bytes, max_bytes, max_p, ecn;
};

struct qos_buffer {
    struct qos_val size, xon, xoff, headroom, dynamic_th;
};

struct qos_app {
    uint8_t selector; /* 1 ethertype, 2 tcp, 3 udp, 4 tcp/udp, 5 dscp */
    uint16_t protocol;
    uint8_t prio;
};

struct qos_dcqcn {
    struct qos_val np_enabled, rp_enabled; /* priority masks */
    struct qos_val rai_mbps, rhai_mbps, min_rate_mbps, max_rate_mbps, rate_on_first_cnp_mbps;
    struct qos_val g, initial_alpha, gd, min_dec_fac, threshold, byte_reset, clamp_tgt_rate;
    struct qos_val alpha_update_us, rate_reduce_period_us, time_reset_us, min_time_between_cnps_us;
};

struct qos_config {
    struct qos_val trust;
    struct qos_val dscp2prio[64];
    struct qos_val prio2tc[8];
    struct qos_val ets_tsa[8], ets_bw[8];
    struct qos_val pfc_enabled, pfc_willing, ets_willing;
    struct qos_val dcbx_mode;
    struct qos_wred wred[8];
    struct qos_buffer buffer[8];
    struct qos_val headroom_pool; /* per switch: the largest its interfaces give */
    struct qos_val pfcwd_detect_ms, pfcwd_restore_ms, pfcwd_action;
    struct qos_val mtu, speed_bps, cable_mm;
    struct qos_dcqcn dcqcn;
    struct qos_val cnp_dscp, cnp_prio;
    struct qos_val roce_dscp; /* what the NIC marks its RoCE with: its RoCE traffic class */
    struct qos_val pause_global_rx, pause_global_tx;
    /* faults a replay stages on a port: frames received with a bad FCS (per million), a
     * switch that clears CE as it sends or rewrites the DSCP of what it receives, a NIC that
     * sends Not-ECT */
    struct qos_val fcs_error_ppm, ecn_clear_ce, dscp_rewrite, ecn_capable;
    bool app_set;
    size_t napp;
    struct qos_app app[QOS_APP_MAX];
};

enum qos_trust { QOS_TRUST_DSCP = 1, QOS_TRUST_PCP = 2 };
enum qos_tsa { QOS_TSA_STRICT = 0, QOS_TSA_CBS = 1, QOS_TSA_ETS = 2, QOS_TSA_VENDOR = 255 };
enum qos_dcbx_mode { QOS_DCBX_OFF = 0, QOS_DCBX_IEEE = 1, QOS_DCBX_CEE = 2 };
enum qos_pfcwd_action { QOS_PFCWD_DROP = 0, QOS_PFCWD_FORWARD = 1, QOS_PFCWD_ALERT = 2 };

#define QOS_PATH_MAX 64
#define QOS_TEXT_MAX 512

void qos_config_init(struct qos_config *c); /* everything unknown */

/* Text values as a user types them: units ("150KB", "5us", "400G", "3m"), masks ("0x08"),
 * names ("dscp", "ets"). Errors name the path and the value. */
int qos_set(struct qos_config *c, const char *path, const char *value, struct dcb_err *err);
/* "path=value", as --set takes it. */
int qos_set_assignment(struct qos_config *c, const char *assignment, struct dcb_err *err);
/* Makes the field unknown again. */
int qos_unset(struct qos_config *c, const char *path, struct dcb_err *err);
/* The value as text (parseable by qos_set), or DCB_E_NOTFOUND if unknown. */
int qos_get(const struct qos_config *c, const char *path, char *buf, size_t len,
            struct dcb_err *err);

/* Every set field of src overrides dst (defaults under overrides). */
void qos_merge(struct qos_config *dst, const struct qos_config *src);

/* Calls fn for each field whose value or known-ness differs: old/new text, NULL when unknown.
 * Returns the number of differences. */
typedef void (*qos_diff_fn)(const char *path, const char *old_text, const char *new_text,
                            void *arg);
int qos_diff(const struct qos_config *a, const struct qos_config *b, qos_diff_fn fn, void *arg);

/* Calls fn for every field (set or not), in table order: the canonical paths. */
typedef void (*qos_field_fn)(const char *path, const char *text_or_null, const char *help,
                             void *arg);
void qos_each_field(const struct qos_config *c, qos_field_fn fn, void *arg);

/* Calls fn for every known field but the APP table, with its value as stored (the unit its path
 * names; masks and enums as numbers): what the exporter publishes and qos_set_raw reads back. */
typedef void (*qos_value_fn)(const char *path, int64_t value, void *arg);
void qos_each_value(const struct qos_config *c, qos_value_fn fn, void *arg);
/* Sets path to a value as qos_each_value gives it; range-checked as qos_set. */
int qos_set_raw(struct qos_config *c, const char *path, int64_t value, struct dcb_err *err);

/* Cross-field checks (WRED min above max, ETS bandwidth not summing to 100 ...). path_prefix
 * is put in front of the path in the message ("devices[2].config."). */
int qos_validate(const struct qos_config *c, const char *path_prefix, struct dcb_err *err);

#endif
