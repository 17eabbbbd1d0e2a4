/* dcbkit collect: a source recorded into a store and printed as it comes (collect.h). The
 * command parses, picks the source's step, and documents itself. */
#include <string.h>

#include "collect.h"

static int collect_run_cmd(struct cli_ctx *ctx, int argc, char **argv)
{
    static struct collect_opts opt; /* static: it holds up to 1024 gNMI target names */
    int rc = collect_parse(ctx, argc, argv, &opt);
    if (rc != CLI_NEXT)
        return rc;
    if (opt.capture_iface)
        return collect_capture(ctx, &opt);
    static struct collect_run run;
    memset(&run, 0, sizeof(run));
    run.ctx = ctx;
    run.opt = &opt;
    if (opt.src.named & SOURCE_G_GNMI)
        return collect_gnmi(&run);
    if ((opt.src.named & (SOURCE_G_REPLAY | SOURCE_G_PCAP)) || opt.src.named == SOURCE_G_FABRIC)
        return collect_finite(&run);
    return collect_local(&run);
}

static const struct cli_option_doc collect_options[] = {
    { "--local", "Collect from this host (the default)." },
    { "--ifname PATTERN", "Interfaces to sample, a shell pattern (default: all but lo)." },
    { "--interval DURATION", "Time between samples (default 1s)." },
    { "--count N, --duration DURATION, --once", "How long to run (default: until interrupted)." },
    { "--store PATH", "Write canonical samples and events to this store, committed every "
                      "interval (the destination: collect reads no store)." },
    { "--device NAME", "The device name samples carry (default: the host name; a single "
                       "--gnmi target's HOST:PORT; a --pcap file's name)." },
    { "--no-lldp",
      "Do not listen for LLDP neighbours. By default each interface's link partner and the "
      "DCBX config it advertises are recorded (a dcbx_seen event and a config snapshot of the "
      "peer); that needs CAP_NET_RAW, and without it collect says so once and goes on." },
    { "--sysfs-root DIR", "Read a sysfs tree saved elsewhere instead of /sys (no ioctl then: "
                          "the link speed comes from class/net/IF/speed)." },
    { "--proc-root DIR",
      "Read DIR/net/dev instead of /proc/net/dev: the netdev statistics of interfaces that "
      "have no class/net/IF/statistics directory (default /proc)." },
    { "--maps DIR", "Counter maps (default: $DCBKIT_MAPS or the installed maps)." },
    { "--from-ethtool-dump FILE",
      "Import saved `ethtool -S` text (from a support bundle) instead of reading the host; "
      "repeat for dumps taken one --interval apart, which gives rates. Needs --ifname NAME; "
      "--device names the host." },
    { "--driver NAME",
      "The driver whose map names the dump's counters (mlx5_core, bnxt_en, ice); guessed from "
      "the names when omitted." },
    { "--capture IFACE [FILTER]",
      "Instead of counters, run the decoders and the analyze trackers on live traffic on IFACE "
      "(a mirror port, or a host port), with an optional BPF filter: pause intervals and storms, "
      "PSN gaps, NAKs, retransmissions and DCBX changes become events as they happen, and "
      "capture.* counters (PFC frames and paused time per priority, PAUSE frames, RoCE, CE, CNP, "
      "gaps, NAKs, retransmissions, bad ICRCs, kernel drops) are written every --interval. Needs "
      "CAP_NET_RAW." },
    { "--link-speed SPEED", "With --capture or --pcap: the link speed that turns pause quanta "
                            "into time (default 400G)." },
    { "--fabric FILE",
      "Alone: record the fabric's intent once (each port's intended config, "
      "its partner's, where it sits), for diagnose --store's configuration checks; it opens no "
      "connection. With --gnmi all: collect every device of the fabric whose reach is gNMI, "
      "with its own TLS, credentials file and map (docs/fabric.md), and its intent beside "
      "them." },
    { "--duration DURATION (--replay, --demo)", "The simulated time to record (default: the "
                                                "scenario's)." },
    { "--raw-every N",
      "Read the sysfs counters that map to no canonical metric (kept under "
      "their raw names) on the first sample and every Nth after it; mapped ones every sample "
      "(default 10; 1 reads everything every time). Keeps a 300-counter RDMA port cheap." },
    { NULL, NULL },
};

static const struct cli_example collect_examples[] = {
    { "dcbkit collect --ifname 'eth*' --interval 1s --store fabric.db",
      "Sample every ethN each second into the store until interrupted." },
    { "dcbkit collect --once -T json", "One sample of everything, as JSON Lines, for scripts." },
    { "dcbkit collect --gnmi leaf1:8080 --plaintext --map sonic --device leaf1 --store fabric.db",
      "A SONiC switch's PFC, queue, watermark and watchdog counters and its QoS config." },
    { "sudo dcbkit collect --capture span0 --link-speed 400G --store fabric.db "
      "'ether proto 0x8808 or udp dst port 4791'",
      "Pause frames and RoCE seen on a mirror port, as events and capture.* counters." },
    { "dcbkit collect --demo --store demo.db",
      "The demo fabric's simulated run into a store, for diagnose, report or dcbtop --store." },
    { "dcbkit collect --pcap span0.pcap --link-speed 100G --store case.db",
      "A capture's pauses, PFC and RoCE evidence into a store, beside the counters." },
    { "dcbkit collect --ifname enp1s0f0 --count 10 --interval 100ms",
      "Ten fast samples of one port with rates." },
    { "dcbkit collect --device gpu17 --ifname ens1f0 --from-ethtool-dump before.txt "
      "--from-ethtool-dump after.txt --interval 60s --store case.db",
      "Two dumps from a support bundle, a minute apart, into a store for the rules." },
    { NULL, NULL },
};

const struct cli_command cmd_collect = {
    .name = "collect",
    .summary = "sample NIC, netdev and RDMA counters into canonical metrics",
    .synopsis = "dcbkit collect [--local] [--ifname PATTERN] [--interval 1s] "
                "[--count N | --duration D | --once] [--store DB] [-T json]\n"
                "dcbkit collect --capture IFACE [--link-speed SPEED] [--interval 1s] "
                "[--count N | --duration D] [--store DB] [-T json] [FILTER]\n"
                "dcbkit collect --gnmi HOST:PORT... | --fabric FILE --gnmi all [--map NAME] "
                "[--gnmi-mode stream|poll|once] [TLS and credential options] [--interval 1s] "
                "[--count N | --duration D] [--store DB] [-T json]\n"
                "dcbkit collect --replay SCENARIO | --demo [--set PATH=VALUE]... [--duration D] "
                "--store DB [-T json]\n"
                "dcbkit collect --pcap FILE [--link-speed SPEED] [--lossless LIST] --store DB "
                "[-T json]\n"
                "dcbkit collect --fabric FILE --store DB",
    .description =
        "Reads each interface's driver statistics through the SIOCETHTOOL ioctl (what ethtool -S "
        "shows, without running ethtool), its link speed (link.speed_bps), the netdev "
        "statistics every driver has (sysfs, or /proc/net/dev when sysfs has none), the DCB "
        "config over DCB netlink (trust from the APP trust table where the kernel and driver "
        "expose it), and the RDMA hw_counters of the RDMA device on top of it, and maps driver "
        "names to canonical "
        "metrics with the counter maps (collectors/maps). A counter no map names is still "
        "reported under its raw name.\n\n"
        "Each of these is read on its own: an interface without netdev statistics keeps its "
        "RDMA, ethtool and DCB counters (the gap is said once). The RDMA device is found by its "
        "GID netdev (ports/N/gid_attrs/ndevs/0), else by class/infiniband/DEV/device/net/IF, "
        "else by RDMA netlink (live only); its map by its driver, or, without a driver link or "
        "a map for it, by the counter names it recognises (said once: \"map guessed from "
        "names\").\n\n"
        "Rates survive 32-bit and 64-bit wraps; a counter that goes back otherwise (a driver "
        "reload, a switch's restart) gives a counter_reset event, from every source, and no "
        "rate spans it. An interface that vanishes gives a source_gap event and is "
        "picked up again when it returns; an interface that cannot be read is reported once "
        "and the others are still collected.\n\n"
        "With --gnmi (and --fabric FILE --gnmi all), collect reads switches instead, over gNMI: "
        "counters by "
        "subscription through a vendor map (collectors/maps/NAME_gnmi.json), QoS config by Get, "
        "a source_gap event for each outage, reconnection with backoff (docs/gnmi.md).\n\n"
        "With --replay SCENARIO or --demo, collect records the embedded simulator's run as fast "
        "as it goes: the samples, events, each port's config (\"replay\") and place "
        "(\"topology\") that `dcbkit replay --store` writes, starting after the store's newest "
        "data. With --pcap FILE, it records a capture's evidence: the pause intervals, PFC, CE "
        "marks, CNPs, NAKs and DCBX peers `dcbkit analyze` finds, and the capture.* counters. "
        "Both are recorded whole as one run of the store; --count and --once are for live "
        "sources, and --replay-speed and --pcap-speed for views. collect records one source at "
        "a time.",
    .options = collect_options,
    .examples = collect_examples,
    .json_doc =
        "JSON Lines, one object per counter per sample: {\"ts\" (ns), \"device\", \"ifname\", "
        "\"source\" (ethtool|netdev|rdma), \"counter\" (the driver's name), \"metric\" "
        "(canonical name or null), \"prio\", \"queue\", \"value\", \"rate\" (per second; null "
        "on the first sample and across a reset)}; the link speed comes the same way as a gauge: "
        "\"source\" "
        "(ethtool|sysfs), \"counter\":\"speed\", \"metric\":\"link.speed_bps\", \"value\" in bits "
        "per second, \"rate\" null, and nothing while the speed is unknown; events: "
        "{\"schema\":2, \"ts\", \"kind\" (counter_reset|source_gap; a gNMI counter_reset's "
        "details: {\"metric\", \"queue\", \"previous\", \"value\"}), \"event\" (the same as "
        "kind, its name before schema 2, kept for this schema only), "
        "\"device\", \"ifname\", \"prio\", \"details\"}; and config snapshots when the DCQCN "
        "knobs change: {\"ts\", \"device\", \"ifname\", \"config_source\" (\"mlnx_ofed sysfs\" or "
        "\"mlx5 debugfs\"), \"config\" (QoS config JSON, as in docs/fabric.md)}; a neighbour's "
        "advertised DCBX comes "
        "the same way with \"config_source\":\"lldp\", the peer's name and port as device "
        "and ifname, and \"seen_on\":\"device:ifname\", after a dcbx_seen event. With --gnmi "
        "or --fabric: samples have \"source\":\"gnmi\", \"counter\" the leaf as "
        "TARGET:/path and no \"rate\"; config snapshots \"config_source\":\"gnmi\" (ifname "
        "\"\" for device-wide settings); source_gap details {\"from_ns\", \"to_ns\", "
        "\"seconds\", \"address\", \"subscription\", \"reason\"} (docs/gnmi.md). With "
        "--replay, --demo or --pcap: samples {\"ts\", \"device\", \"ifname\", \"source\" "
        "(replay|pcap), \"metric\", \"prio\", \"queue\", \"value\"}, events as above, "
        "config snapshots with \"config_source\" as stored (replay, topology, peer:lldp...). "
        "dcbkit store import reads these lines back (the raw counters, with metric null, "
        "it skips).",
    .source_groups = COLLECT_SOURCE_GROUPS,
    .run = collect_run_cmd,
};
