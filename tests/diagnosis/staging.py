"""How each fault kind is staged on the replay engine: the scenario faults it adds to a healthy
setting, where it sits, and the signature its run must show for the case to count as staged.

A stage function takes (setting, rng, ctx) and returns a Stage; ctx holds the workload's
receiver when it has one (a slow or stuck host is the one the traffic goes to). `at` names
where the fault is when it is local (devices, or device:ifname), and `vars` carries the faulty
values the answers' ranges may refer to (cur_*). What the right diagnosis is lives in answers/,
not here.
"""
import math

import physics


class Stage:
    def __init__(self, faults=(), at=None, vars=None, workload=None, edit=None, note=""):
        self.faults = list(faults)      # scenario "faults" entries
        self.at = at                    # None: fabric-wide; else the faulty places
        self.vars = dict(vars or {})    # values the answers' expressions may use
        self.workload = workload        # fn(workload dict, setting, rng) -> workload dict
        self.edit = edit                # fn(fabric): a setting the fault needs, not a fault
        self.note = note                # what was done, for the case table


def config(device, values, ifname=None):
    f = {"type": "config", "device": device, "set": dict(values)}
    if ifname:
        f["ifname"] = ifname
    return f


def on_switches(s, values, only=None):
    return [config(sw, values) for sw in (only or s.switches())]


def on_hosts(s, values, only=None):
    return [config(h, values) for h in (only or s.hosts())]


def between(rng, lo, hi):
    return lo + (hi - lo) * rng.random()


def pick_leaf(s, rng, ctx):
    """A leaf on the traffic's path: the incast receiver's, else any."""
    if ctx.get("receiver"):
        return s.leaf_of(ctx["receiver"])[0]
    return rng.choice(s.leaves())


def host_places(s, host):
    """A host and the switch port that faces it: a finding at either names the same host."""
    leaf, port = s.leaf_of(host)
    return [host, "%s:%s" % (leaf, port)]


def flows_with_lossy(workload, s, rng, share=1.0):
    """The workload as explicit flows plus lossy (DSCP 0) traffic into the same receivers: one
    flow from every RoCE sender's neighbour, sending for the whole run. The lossy traffic is
    TCP (a Reno window, its losses not RoCE's), whatever PFC a fault puts on its priority."""
    hosts = s.hosts()
    if workload["type"] == "incast":
        pairs = [(src, workload["receiver"]) for src in workload["senders"]]
    else:
        pairs = [(a, b) for a in hosts for b in hosts if a != b]
    flows = [{"src": a, "dst": b, "dscp": s.d} for a, b in pairs]
    dsts = sorted({b for _, b in pairs}, key=lambda h: int(h[4:]))
    for dst in dsts:
        others = [h for h in hosts if h != dst]
        for src in rng.sample(others, max(1, int(len(others) * share) // 3)):
            flows.append({"src": src, "dst": dst, "dscp": 0, "transport": "tcp"})
    return {"type": "flows", "bytes": 0, "payload": physics.PAYLOAD, "dscp": s.d,
            "flows": flows}


# ---- configuration faults -------------------------------------------------------------------

def ecn_above_xoff(s, rng, ctx):
    ref = s.reference()
    f = between(rng, 1.1, 1.4) if s.severity == "mild" else between(rng, 2.5, 4.0)
    kmin = int(ref["xoff"] * f)
    kmax = int(kmin * 1.5)
    return Stage(on_switches(s, {"switch.wred.%d.min_bytes" % s.p: kmin,
                                 "switch.wred.%d.max_bytes" % s.p: kmax}),
                 vars={"cur_kmin": kmin, "cur_kmax": kmax},
                 note="every switch: Kmin %d, Kmax %d against XOFF %d" % (kmin, kmax, ref["xoff"]))


def xoff_below_ecn(s, rng, ctx):
    ref = s.reference()
    if s.severity == "mild":      # between Kmin and Kmax: ECN starts, cannot reach full marking
        xoff = int(between(rng, 0.4, 0.7) * ref["kmax"])
    else:                         # below Kmin: PFC before any mark
        xoff = int(between(rng, 0.2, 0.4) * ref["kmin"])
    xon = min(ref["xon"], xoff // 2)
    return Stage(on_switches(s, {"switch.buffer.%d.xoff" % s.p: xoff,
                                 "switch.buffer.%d.xon" % s.p: xon}),
                 vars={"cur_xoff": xoff},
                 note="every switch: XOFF %d (XON %d) against Kmin %d, Kmax %d"
                      % (xoff, xon, ref["kmin"], ref["kmax"]))


def ecn_off(s, rng, ctx):
    """WRED left in drop mode on the lossless queue (ECN not enabled)."""
    if s.severity == "mild":
        leaf = pick_leaf(s, rng, ctx)
        return Stage(on_switches(s, {"switch.wred.%d.ecn" % s.p: False}, only=[leaf]),
                     at=[leaf], note="%s: WRED on queue %d drops instead of marking" % (leaf, s.p))
    return Stage(on_switches(s, {"switch.wred.%d.ecn" % s.p: False}),
                 note="every switch: WRED on queue %d drops instead of marking" % s.p)


def wred_not_scaled(s, rng, ctx):
    """40G-era thresholds (the DCQCN paper's 5 KB / 200 KB, or lower) on a 100-400G link."""
    kmin = rng.choice((3000, 5000)) if s.severity == "gross" else rng.choice((5000, 10000))
    kmax = 40000 if s.severity == "gross" else 200000
    max_p = 50 if s.severity == "gross" else 20
    return Stage(on_switches(s, {"switch.wred.%d.min_bytes" % s.p: kmin,
                                 "switch.wred.%d.max_bytes" % s.p: kmax,
                                 "switch.wred.%d.max_p" % s.p: max_p}),
                 vars={"cur_kmin": kmin, "cur_kmax": kmax},
                 note="every switch: Kmin %d, Kmax %d, max_p %d%% at %dG"
                      % (kmin, kmax, max_p, s.gbps))


def headroom_short(s, rng, ctx):
    ref = s.reference()
    f = between(rng, 0.45, 0.65) if s.severity == "mild" else between(rng, 0.15, 0.3)
    hr = int(ref["headroom_req"] * f)
    return Stage(on_switches(s, {"switch.buffer.%d.headroom" % s.p: hr}),
                 vars={"cur_headroom": hr},
                 note="every switch: headroom %d, %.0f%% of the %d the %d m cables need at %dG"
                      % (hr, 100 * f, ref["headroom_req"], s.max_cable_m(), s.gbps))


def alpha_too_low(s, rng, ctx):
    """A dynamic threshold so small that alpha x free buffer pauses below Kmax (mild) or Kmin
    (gross): premature pauses (rules.md R33)."""
    ref = s.reference()
    target = ref["kmax"] * 0.5 if s.severity == "mild" else ref["kmin"] * 0.5
    n = max(-8, math.floor(math.log2(target / physics.SWITCH_BUFFER)))   # the model's floor
    return Stage(on_switches(s, {"switch.buffer.%d.dynamic_th" % s.p: n}),
                 vars={"cur_dynamic_th": n},
                 note="every switch: dynamic_th %d (alpha 1/%d: XOFF at most %d of a 32 MiB buffer)"
                      % (n, 2 ** -n, physics.SWITCH_BUFFER * 2 ** n))


def xon_above_kmin(s, rng, ctx):
    ref = s.reference()
    if s.severity == "mild":
        xon = int(between(rng, 1.5, 3.0) * ref["kmin"])
    else:
        xon = int(between(rng, 0.8, 0.95) * ref["xoff"])
    return Stage(on_switches(s, {"switch.buffer.%d.xon" % s.p: xon}),
                 vars={"cur_xon": xon},
                 note="every switch: XON %d against Kmin %d, XOFF %d" % (xon, ref["kmin"],
                                                                       ref["xoff"]))


def pfc_mask_switch(s, rng, ctx):
    """One leaf without PFC on the RoCE priority (gross: off; mild: on a neighbouring one)."""
    leaf = pick_leaf(s, rng, ctx)
    mask = 0 if s.severity == "gross" else 1 << (s.p + 1 if s.p < 5 else s.p - 1)
    return Stage(on_switches(s, {"pfc.enabled": mask}, only=[leaf]), at=[leaf],
                 vars={"cur_mask": mask},
                 note="%s: pfc.enabled 0x%02x where its link partners have 0x%02x"
                      % (leaf, mask, 1 << s.p))


def pfc_on_cnp_prio(s, rng, ctx):
    mask = (1 << s.p) | (1 << s.c)
    if s.severity == "mild":
        return Stage(on_switches(s, {"pfc.enabled": mask}), vars={"cur_mask": mask},
                     at=s.switches(),
                     note="every switch: PFC also on the CNP priority %d" % s.c)
    return Stage(on_switches(s, {"pfc.enabled": mask}) + on_hosts(s, {"pfc.enabled": mask}),
                 vars={"cur_mask": mask},
                 note="every switch and host: PFC also on the CNP priority %d" % s.c)


def lossless_budget(s, rng, ctx):
    """PFC on every priority (gross) or on four (mild), with lossy traffic beside RoCE."""
    mask = 0xff if s.severity == "gross" else (1 << s.p) | 0x07
    return Stage(on_switches(s, {"pfc.enabled": mask}) + on_hosts(s, {"pfc.enabled": mask}),
                 vars={"cur_mask": mask}, workload=flows_with_lossy,
                 note="PFC mask 0x%02x everywhere; DSCP 0 traffic beside RoCE" % mask)


def dscp_map_lossy(s, rng, ctx):
    lossy = rng.choice((0, 1))
    dscp = "dscp2prio.%d" % s.d
    if s.severity == "mild" and s.topology != "star":
        leaf = pick_leaf(s, rng, ctx)
        return Stage(on_switches(s, {dscp: lossy}, only=[leaf]), at=[leaf],
                     note="%s maps DSCP %d to lossy priority %d" % (leaf, s.d, lossy))
    return Stage(on_switches(s, {dscp: lossy}),
                 at=None, note="every switch maps DSCP %d to lossy priority %d" % (s.d, lossy))


def host_dscp_unmapped(s, rng, ctx):
    """The hosts mark RoCE with another DSCP of the same eighth (seed 001's 24 for 26), which
    no device maps: it rides priority 0."""
    other = physics.OTHER_DSCP[s.p]

    def mark(workload, setting, _rng):
        return dict(workload, dscp=other)
    # The fix must reach the hosts' own maps: a finding names a host or the whole fabric ("").
    return Stage(workload=mark, vars={"dscp_app": other}, at=s.hosts() + [""],
                 note="the hosts mark RoCE DSCP %d; the fabric maps only %d" % (other, s.d))


def prio2tc_lossy(s, rng, ctx):
    key = "prio2tc.%d" % s.p
    if s.severity == "mild" and s.topology != "star":
        leaf = pick_leaf(s, rng, ctx)
        return Stage(on_switches(s, {key: 0}, only=[leaf]), at=[leaf],
                     note="%s queues priority %d in TC 0" % (leaf, s.p))
    return Stage(on_switches(s, {key: 0}), note="every switch queues priority %d in TC 0" % s.p)


def trust_pcp(s, rng, ctx):
    leaf = pick_leaf(s, rng, ctx)
    return Stage(on_switches(s, {"trust": "pcp"}, only=[leaf]), at=[leaf],
                 note="%s trusts PCP on an untagged routed fabric" % leaf)


def ets_share_small(s, rng, ctx):
    share = rng.choice((5, 10)) if s.severity == "gross" else rng.choice((15, 20))
    return Stage(on_switches(s, {"ets.bw.%d" % s.p: share, "ets.bw.0": 100 - share}),
                 vars={"cur_bw": share}, workload=flows_with_lossy,
                 note="every switch: ETS %d%% for the RoCE TC, %d%% for TC 0 carrying DSCP 0"
                      % (share, 100 - share))


def ets_sum_wrong(s, rng, ctx):
    """ETS shares that do not add up to 100 % (the fabric file refuses them; a device's config,
    a --set or a config fault can still hold them)."""
    bw0 = rng.choice((20, 30)) if s.severity == "mild" else rng.choice((90, 100))
    if s.severity == "mild" and s.topology != "star":
        leaf = pick_leaf(s, rng, ctx)
        return Stage(on_switches(s, {"ets.bw.0": bw0}, only=[leaf]), at=[leaf],
                     vars={"cur_bw0": bw0},
                     note="%s: ETS shares add up to %d %%" % (leaf, bw0 + 50))
    return Stage(on_switches(s, {"ets.bw.0": bw0}), vars={"cur_bw0": bw0},
                 note="every switch: ETS shares add up to %d %%" % (bw0 + 50))


def cnp_on_data_prio(s, rng, ctx):
    values = {"cnp.dscp": s.d}
    if s.severity == "gross":
        values["cnp.prio"] = s.p
    return Stage(on_hosts(s, values),
                 vars={"cur_cnp_dscp": s.d, "cur_cnp_prio": values.get("cnp.prio", s.c)},
                 note="every host sends CNPs with the data class's %s" % ", ".join(
                     "%s %s" % (k, v) for k, v in values.items()))


def cnp_tc_not_strict(s, rng, ctx):
    return Stage(on_switches(s, {"ets.tsa.%d" % s.c: "ets"}),
                 note="every switch schedules the CNP TC %d by ETS (0 %%), not strict" % s.c)


def cnp_dscp_unmapped(s, rng, ctx):
    lossy = rng.choice((0, 1))
    return Stage(on_switches(s, {"dscp2prio.%d" % physics.CNP_DSCP: lossy}),
                 note="every switch maps CNP DSCP %d to lossy priority %d"
                      % (physics.CNP_DSCP, lossy))


def np_disabled(s, rng, ctx):
    if s.severity == "mild":
        host = ctx.get("receiver") or rng.choice(s.hosts())
        return Stage(on_hosts(s, {"nic.dcqcn.np_enabled": 0}, only=[host]),
                     at=host_places(s, host), vars={"cur_np": 0},
                     note="%s: the notification point is off" % host)
    return Stage(on_hosts(s, {"nic.dcqcn.np_enabled": 0}), vars={"cur_np": 0},
                 note="every host: the notification point is off")


def rp_disabled(s, rng, ctx):
    if s.severity == "mild":
        hosts = rng.sample(s.hosts(), len(s.hosts()) // 2)
        return Stage(on_hosts(s, {"nic.dcqcn.rp_enabled": 0}, only=hosts),
                     at=sum((host_places(s, h) for h in hosts), []), vars={"cur_rp": 0},
                     note="half the hosts (%s): the reaction point is off" % ", ".join(hosts))
    return Stage(on_hosts(s, {"nic.dcqcn.rp_enabled": 0}), vars={"cur_rp": 0},
                 note="every host: the reaction point is off")


def dcqcn_rai_low(s, rng, ctx):
    values = {"nic.dcqcn.rai_mbps": 1}
    if s.severity == "gross":
        values["nic.dcqcn.rhai_mbps"] = 5
    return Stage(on_hosts(s, values),
                 vars={"cur_rai": 1, "cur_rhai": values.get("nic.dcqcn.rhai_mbps", 200)},
                 note="every host: " + ", ".join("%s %s" % kv for kv in values.items()))


def dcqcn_timers_slow(s, rng, ctx):
    values = {"nic.dcqcn.time_reset_us": 1500}
    if s.severity == "gross":
        values["nic.dcqcn.alpha_update_us"] = 1000
    return Stage(on_hosts(s, values),
                 vars={"cur_time_reset": 1500,
                       "cur_alpha_update": values.get("nic.dcqcn.alpha_update_us", 55)},
                 note="every host: " + ", ".join("%s %s" % kv for kv in values.items()))


def cnp_interval_long(s, rng, ctx):
    gap = 200 if s.severity == "mild" else 1000
    return Stage(on_hosts(s, {"nic.dcqcn.min_time_between_cnps_us": gap}),
                 vars={"cur_cnp_gap": gap},
                 note="every host: at most one CNP per %d us per QP" % gap)


def pfcwd_alert(s, rng, ctx):
    """A watchdog that only reports: a stuck queue is never released. (An unset watchdog would
    be unknown to the rules, not off, so the staged fault is the configured do-nothing action.)"""
    only = [pick_leaf(s, rng, ctx)] if s.severity == "mild" else s.switches()
    return Stage(on_switches(s, {"switch.pfcwd.action": "alert"}, only=only),
                 at=only if s.severity == "mild" else None,
                 note="%s: PFC watchdog action alert (never acts)"
                      % (only[0] if s.severity == "mild" else "every switch"))


def pfcwd_forward(s, rng, ctx):
    return Stage(on_switches(s, {"switch.pfcwd.action": "forward"}),
                 note="every switch: PFC watchdog action forward")


def pfcwd_short(s, rng, ctx):
    ms = 20 if s.severity == "mild" else 5
    return Stage(on_switches(s, {"switch.pfcwd.detect_ms": ms, "switch.pfcwd.restore_ms": ms}),
                 vars={"cur_detect": ms},
                 note="every switch: PFC watchdog detection and restoration %d ms" % ms)


# ---- faults the engine cannot stage yet (issue 27): written, not run --------------------------

def mtu_small(s, rng, ctx):
    host = rng.choice(s.hosts())
    return Stage(on_hosts(s, {"mtu": 1500}, only=[host]), at=host_places(s, host),
                 vars={"cur_mtu": 1500},
                 note="%s: MTU 1500 under RoCE MTU 4096 frames" % host)


def global_pause(s, rng, ctx):
    host = rng.choice(s.hosts())
    return Stage(on_hosts(s, {"pause.global_rx": True, "pause.global_tx": True}, only=[host]),
                 at=host_places(s, host), note="%s: 802.3x pause on beside PFC" % host)


def dcbx_both_willing(s, rng, ctx):
    leaf = pick_leaf(s, rng, ctx)
    return Stage(on_switches(s, {"pfc.willing": True}, only=[leaf]), at=[leaf],
                 note="%s is willing, as are its hosts" % leaf)


def nic_pfc_off(s, rng, ctx):
    host = rng.choice(s.hosts())
    return Stage(on_hosts(s, {"pfc.enabled": 0}, only=[host]), at=host_places(s, host),
                 note="%s: its NIC has PFC off" % host)


def link_corruption(s, rng, ctx):
    """One host's link corrupts frames: its port drops a share of what it receives as bad FCS."""
    host = ctx.get("receiver") or rng.choice(s.hosts())
    ppm = rng.choice((2000, 5000)) if s.severity == "mild" else rng.choice((20000, 50000))
    return Stage(on_hosts(s, {"link.fcs_error_ppm": ppm}, only=[host]),
                 at=host_places(s, host), vars={"bad_host": host},
                 note="%s: %.1f %% of the frames it receives fail their FCS" % (host, ppm / 1e4))


def ecn_bleaching(s, rng, ctx):
    """A switch clears CE on what it sends: the receivers never see the marks."""
    leaf = pick_leaf(s, rng, ctx)
    only = [leaf] if s.severity == "mild" else None
    return Stage(on_switches(s, {"switch.ecn.clear_ce": True}, only=only),
                 at=[leaf] if only else None,
                 note="%s clears CE on egress" % (leaf if only else "every switch"))


def non_ect_senders(s, rng, ctx):
    """Hosts that send RoCE Not-ECT: WRED drops above Kmin where it would mark."""
    return Stage(on_hosts(s, {"nic.ecn_capable": False}),
                 note="every host sends RoCE as Not-ECT (ECN 00)")


# ---- behaviour faults -----------------------------------------------------------------------

def slow_receiver(s, rng, ctx):
    host = ctx.get("receiver") or rng.choice(s.hosts())
    frac = between(rng, 0.4, 0.6) if s.severity == "mild" else between(rng, 0.05, 0.15)
    drain = "%dM" % int(s.gbps * 1000 * frac)
    return Stage([{"type": "slow-receiver", "host": host, "drain": drain}],
                 at=host_places(s, host), vars={"slow_host": host},
                 note="%s drains at %s (%.0f%% of its link)" % (host, drain, 100 * frac))


def pause_storm(s, rng, ctx):
    host = ctx.get("receiver") or rng.choice(s.hosts())

    def detect_100ms(fabric):      # inside the sane band, so a 130 ms run shows the watchdog act
        fabric["switch_defaults"]["switch"]["pfcwd"].update(detect_ms=100, restore_ms=100)
    return Stage([{"type": "pause-storm", "host": host, "prio": s.p,
                   "at_ms": round(between(rng, 0.5, 2.0), 2)}],
                 at=host_places(s, host), vars={"storm_host": host}, edit=detect_100ms,
                 note="%s's NIC sends XOFF on priority %d without a break" % (host, s.p))


M64 = (1 << 64) - 1


def _mix(x):
    x ^= x >> 30
    x = (x * 0xbf58476d1ce4e5b9) & M64
    x ^= x >> 27
    x = (x * 0x94d049bb133111eb) & M64
    return x ^ (x >> 31)


def _uplink(s, leaf, src, dst, sport):
    """Which of a leaf's two uplinks the replay engine's ECMP hash gives a flow (its 5-tuple
    key and the switch's node number, rules/replay/topo.c); the signature checks the result."""
    n = s.devices().index
    key = (n(src) << 40) ^ (n(dst) << 16) ^ sport ^ (17 << 56) ^ (4791 << 24)
    return _mix(key ^ (n(leaf) << 48)) % 2


def ecmp_polarization(s, rng, ctx):
    """Every host of one leaf sends its QPs to a host of another leaf with one UDP source port
    for all of them (a NIC that does not vary it per QP): each host's QPs carry one 5-tuple, and
    the port is one under which every group hashes onto the same uplink while the replies spread
    over the other leaf's uplinks."""
    qps = 4 if s.severity == "gross" else 2
    a_leaf, b_leaf = rng.sample(s.leaves(), 2)
    srcs, dsts = s.hosts_on(a_leaf), s.hosts_on(b_leaf)
    rng.shuffle(dsts)
    pairs = list(zip(srcs, dsts))
    sport = None
    for _ in range(4096):
        cand = rng.randrange(49152, 65536)
        there = {_uplink(s, a_leaf, a, b, cand) for a, b in pairs}
        back = [_uplink(s, b_leaf, a, b, cand) for a, b in pairs]
        if len(there) == 1 and 0 < sum(back) < len(back):
            sport = cand
            break
    sport = sport or 49152

    def polarize(workload, setting, _rng):
        flows = []
        for src, dst in pairs:
            flows += [{"src": src, "dst": dst, "sport": sport}] * qps
        return dict(workload, flows=flows)
    # The uneven uplinks are the sending leaf's; its hosts are the NICs that keep one port.
    return Stage(workload=polarize, vars={"polarized_leaf": a_leaf}, at=[a_leaf] + srcs,
                 note="%s's hosts send %d QPs each to %s's, all on UDP source port %d"
                      % (a_leaf, qps, b_leaf, sport))


def link_flap(s, rng, ctx):
    host = rng.choice(s.hosts())
    leaf, port = s.leaf_of(host)
    dur = s.duration_ms()
    flaps = 2 if s.severity == "mild" else 4
    faults = []
    for i in range(flaps):
        at = dur * (0.2 + 0.7 * i / flaps)
        faults.append({"type": "link-down", "link": "%s:%s" % (leaf, port),
                       "at_ms": round(at, 3), "until_ms": round(at + dur * 0.05, 3)})
    return Stage(faults, at=host_places(s, host),
                 note="%s:%s (to %s) goes down %d times" % (leaf, port, host, flaps))
