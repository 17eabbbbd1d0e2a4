"""A setting of the benchmark: topology, speed, RoCE and CNP priorities, workload and severity,
turned into a healthy fabric file and a workload (docs/fabric.md, docs/scenario.md).

Sizes: star of 8 hosts; leaf-spine of 2 leaves x 4 hosts under 2 spines; the k = 4 fat-tree
(16 hosts, 8 leaves, 8 spines, 4 super-spines). Hosts sit on 3 m cables, switches on 30 m.
"""
import physics

TOPOLOGIES = ("star", "leaf-spine", "fat-tree")
SPEEDS = (25, 100, 400)                 # Gb/s
WORKLOADS = ("incast", "all-to-all", "ring", "elephants")   # elephants: ecmp-polarization
SEVERITIES = ("mild", "gross")
HOST_CABLE_M = 3
UPLINK_CABLE_M = 30


class Setting:
    def __init__(self, topology, gbps, roce_prio, cnp_prio, workload, severity):
        assert topology in TOPOLOGIES and gbps in SPEEDS and workload in WORKLOADS
        assert roce_prio in (3, 4, 5) and cnp_prio in (6, 7) and severity in SEVERITIES
        self.topology, self.gbps, self.p, self.c = topology, gbps, roce_prio, cnp_prio
        self.workload, self.severity = workload, severity

    def dims(self):
        return (self.topology, self.gbps, (self.p, self.c), self.workload, self.severity)

    def label(self):
        return "%s/%dG/p%d-c%d/%s/%s" % (self.topology, self.gbps, self.p, self.c,
                                         self.workload, self.severity)

    @property
    def d(self):
        return physics.ROCE_DSCP[self.p]

    @property
    def bps(self):
        return self.gbps * 1e9

    def generate(self):
        spd = "%dG" % self.gbps
        if self.topology == "star":
            return {"type": "star", "hosts": 8, "speed": spd, "cable_m": HOST_CABLE_M}
        if self.topology == "leaf-spine":
            return {"type": "leaf-spine", "leaves": 2, "spines": 2, "hosts_per_leaf": 4,
                    "speed": spd, "cable_m": HOST_CABLE_M, "uplink_cable_m": UPLINK_CABLE_M}
        return {"type": "fat-tree", "pods": 4, "leaves_per_pod": 2, "spines_per_pod": 2,
                "super_spines": 4, "hosts_per_leaf": 2, "speed": spd, "cable_m": HOST_CABLE_M,
                "uplink_cable_m": UPLINK_CABLE_M}

    def hosts(self):
        return ["host%d" % i for i in range(1, 17 if self.topology == "fat-tree" else 9)]

    def switches(self):
        if self.topology == "star":
            return ["switch1"]
        if self.topology == "leaf-spine":
            return ["spine1", "spine2", "leaf1", "leaf2"]
        return (["super%d" % i for i in range(1, 5)] + ["spine%d" % i for i in range(1, 9)] +
                ["leaf%d" % i for i in range(1, 9)])

    def devices(self):
        """Every device in the order the fabric generator makes them (lib/fabric_gen.c), which
        is the replay engine's node numbering."""
        if self.topology == "star":
            return ["switch1"] + self.hosts()
        if self.topology == "leaf-spine":
            out = ["spine1", "spine2"]
            for leaf in ("leaf1", "leaf2"):
                out += [leaf] + self.hosts_on(leaf)
            return out
        out = ["super%d" % i for i in range(1, 5)]
        for pod in range(4):
            out += ["spine%d" % (2 * pod + 1), "spine%d" % (2 * pod + 2)]
            for leaf in ("leaf%d" % (2 * pod + 1), "leaf%d" % (2 * pod + 2)):
                out += [leaf] + self.hosts_on(leaf)
        return out

    def leaves(self):
        return [s for s in self.switches() if s.startswith(("leaf", "switch"))]

    def leaf_of(self, host):
        n = int(host[4:])
        if self.topology == "star":
            return "switch1", "Ethernet%d" % (n - 1)
        per = 4 if self.topology == "leaf-spine" else 2
        return "leaf%d" % ((n - 1) // per + 1), "Ethernet%d" % ((n - 1) % per)

    def hosts_on(self, leaf):
        return [h for h in self.hosts() if self.leaf_of(h)[0] == leaf]

    def max_cable_m(self):
        return HOST_CABLE_M if self.topology == "star" else UPLINK_CABLE_M

    def reference(self):
        """The healthy values the answers' ranges are written against (physics.reference)."""
        ref = dict(physics.reference(self.gbps))
        ref["headroom_req"] = physics.headroom_required(self.bps, self.max_cable_m())
        ref["headroom"] = int(ref["headroom_req"] * 1.25)
        ref.update(physics.bands(self.gbps))
        return ref

    def fabric(self):
        """The healthy fabric: every knob at the reference of its speed."""
        p, c, ref = self.p, self.c, self.reference()
        bw = [0] * 8
        bw[0], bw[p] = 50, 50                   # rules.md 1.3: RoCE ETS 50 %, CNP strict
        tsa = ["ets"] * 8
        tsa[c] = "strict"
        return {
            "name": "bench-" + self.label().replace("/", "-"),
            "generate": self.generate(),
            "defaults": {
                "trust": "dscp",
                "dscp2prio": {"0": 0, str(self.d): p, str(physics.CNP_DSCP): c},
                "prio2tc": list(range(8)),
                "ets": {"tsa": tsa, "bw": bw},
                "pfc": {"enabled": 1 << p, "willing": False},
                "dcbx": {"mode": "ieee"},
                "cnp": {"dscp": physics.CNP_DSCP, "prio": c},
                "pause": {"global_rx": False, "global_tx": False},
            },
            "host_defaults": {
                "mtu": physics.HOST_MTU,
                "pfc": {"willing": True},
                "nic": {"dcqcn": {"np_enabled": 1 << p, "rp_enabled": 1 << p}},
            },
            "switch_defaults": {
                "mtu": physics.SWITCH_MTU,
                "switch": {
                    "wred": {str(p): {"min_bytes": ref["kmin"], "max_bytes": ref["kmax"],
                                      "max_p": ref["max_p"], "ecn": True}},
                    "buffer": {str(p): {"xoff": ref["xoff"], "xon": ref["xon"],
                                        "headroom": ref["headroom"]}},
                    "pfcwd": {"detect_ms": physics.PFCWD_DETECT_MS,
                              "restore_ms": physics.PFCWD_DETECT_MS, "action": "drop"},
                },
            },
        }

    def duration_ms(self):
        return {25: 4.0, 100: 3.0, 400: 2.0}[self.gbps]

    def workload_spec(self, rng, bytes_per_flow=0):
        """The heavy, normal load of this setting. Incast: 7 senders into one receiver, spread
        over every leaf; all-to-all: every host; ring all-reduce: every host, iterations of about
        a third of the run."""
        hosts = self.hosts()
        base = {"dscp": self.d, "payload": physics.PAYLOAD}
        if self.workload == "incast":
            receiver = rng.choice(hosts)
            others = [h for h in hosts if h != receiver]
            rng.shuffle(others)
            senders = sorted(others[:7], key=lambda h: int(h[4:]))
            return dict(base, type="incast", receiver=receiver, senders=senders,
                        bytes=bytes_per_flow)
        if self.workload == "all-to-all":
            return dict(base, type="all-to-all", bytes=bytes_per_flow)
        if self.workload == "elephants":       # the polarization kind writes its own flows
            return dict(base, type="flows", bytes=bytes_per_flow, flows=[])
        n = len(hosts)
        iteration_s = self.duration_ms() / 1000 / 3
        message = int(iteration_s * self.bps / 8 * n / (2 * (n - 1)))
        return dict(base, type="ring-allreduce", message_bytes=message, iterations=3)
