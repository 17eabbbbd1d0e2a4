"""The physics the answers are written from: reference (healthy) settings per link speed and the
bands a sane value of a knob lies in. Every number cites its source in the shared background
(../shared/background: rules.md sections and the seeds), never the rule catalog.

Sizes are bytes, speeds bits per second, times microseconds unless a name says otherwise.
"""
import math

KB = 1000
MB = 1000 * 1000

# The priority that carries RoCE and the DSCP its hosts mark it with: the NIC's default map is
# DSCP >> 3 (rules.md 1.2), so each priority gets a DSCP of its own eighth (26 = AF31 -> 3,
# 34 = AF41 -> 4, 46 = EF -> 5). CNPs are DSCP 48 (rules.md 0.4, seed 001) on priority 6
# (NVIDIA) or 7 (Cisco, Arista, Juniper designs; rules.md R17).
ROCE_DSCP = {3: 26, 4: 34, 5: 46}
CNP_DSCP = 48
# DSCP the hosts of seed 001's design mark RoCE with instead of 26 ("DSCP 24 -> QoS group 3"):
# the same priority's eighth, two below the fabric's value.
OTHER_DSCP = {3: 24, 4: 32, 5: 44}

HOST_MTU = 4200          # RoCE MTU 4096 + headers (rules.md R25: "~4200")
SWITCH_MTU = 9216        # rules.md 1.3 (Cisco blueprint), R25
PAYLOAD = 4096           # RoCE MTU 4096 (rules.md C10)

SWITCH_BUFFER = 32 * 1024 * 1024   # the replay engine's shared buffer per switch (staging only)

# IEEE 802.3 Annex 31B peer response in pause quanta by speed (rules.md 1.5).
PEER_QUANTA = [(10e9, 67), (25e9, 80), (40e9, 118), (50e9, 147), (100e9, 394), (200e9, 453),
               (800e9, 905)]
PIPELINE_US = 3.0        # seed 004 2.3: switch pipeline delay "typically 2-5 us", 3 in its example
PROPAGATION_NS_PER_M = 5.0   # seed 004 2.3 (fibre and copper alike)


def peer_response_bytes(bps):
    for limit, quanta in PEER_QUANTA:
        if bps <= limit:
            return quanta * 512 / 8
    return PEER_QUANTA[-1][1] * 512 / 8


def headroom_required(bps, cable_m, mtu=SWITCH_MTU):
    """PFC headroom a lossless group needs (rules.md 1.5 with seed 004 2.3's pipeline term): the
    data still arriving after the group crosses XOFF. The cable round trip, the local pipeline
    (3 us), the PFC frame, the peer's response (802.3 31B) and a frame in flight at each end."""
    cable = 2 * cable_m * PROPAGATION_NS_PER_M * 1e-9 * bps / 8
    pipeline = PIPELINE_US * 1e-6 * bps / 8
    return math.ceil(cable + pipeline + 64 + peer_response_bytes(bps) + 2 * mtu)


def reference(gbps):
    """The healthy config of a lossless priority at this speed.

    Kmin: seed 002's 400G table, 100 KB, which it doubles at 800G: 0.25 KB per Gb/s.
    Kmax: 1.5 KB per Gb/s (600 KB at 400G), inside the sources' spread (bands() below) and below
      seed 002's 1.5 MB at 400G: the per-group XOFF must stay above Kmax (rules.md C06, seed 000
      "xON < WRED Min < WRED Max < xOFF") and low enough that PFC bounds an incast's first round
      trip. With seed 002's 1.5 MB and XOFF above it, a 400G 8->1 incast in the engine queued
      12 MB before its first pause and DCQCN cut every sender to a crawl for milliseconds.
    XOFF: a third above Kmax. XON: half of Kmin (below it, C06). max_p 10 % (seed 002).
    """
    kmin = int(250 * gbps)
    kmax = int(1500 * gbps)
    xoff = int(kmax * 4 / 3)
    return {"kmin": kmin, "kmax": kmax, "max_p": 10, "xoff": xoff, "xon": kmin // 2}


# The DCQCN paper's R_AI (Zhu et al., SIGCOMM'15; dcqcn-model.md's parameter list), the
# engine's paper preset.
PAPER_RAI_MBPS = 40


def bands(gbps):
    """Where a sane value lies, as the sources spread it (rules.md 1.4, seed 002):
    Kmin from the DCQCN paper's 5 KB at 40G (0.125 KB per Gb/s) to HPCC's 100 KB at 25G
    (4 KB per Gb/s); Kmax from 1 KB per Gb/s to HPCC's 16 KB per Gb/s (400 KB at 25G).
    R_AI at least what the healthy fabric runs with, the DCQCN paper's 40 Mb/s (the engine's
    paper preset), and Barre's 2 % of a Gb/s per Gb/s; at most 100 Mb/s (rules.md 1.1, R12).
    The mlx5 default of 5 is below the reference these fabrics run, so it is no fix here
    (revised after the blind review: the band said 5 while the answer refused values below 40)."""
    return {
        "kmin_lo": int(125 * gbps), "kmin_hi": int(4000 * gbps),
        "kmax_lo": int(1000 * gbps), "kmax_hi": int(16000 * gbps),
        "rai_lo": max(PAPER_RAI_MBPS, math.ceil(gbps / 50)), "rai_hi": 100,
    }


# PFC watchdog (rules.md C09: detection ~100-400 ms, SONiC 200/200, action drop; seed 003:
# Spectrum 250 ms, "below 50 ms" false detections, 500 ms recommended for AI training).
PFCWD_DETECT_MS = 200
PFCWD_BAND_MS = (100, 500)
