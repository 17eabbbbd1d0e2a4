/* dcbkit decode: reads frames from a capture file or an interface through libpcap, decodes
 * them (decoders/) and prints each one as text or as a JSON line. */
#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <pcap/pcap.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "decode.h"
#include "pcapng_rest.h"
#include "decode_print.h"
#include "units.h"

#define DEFAULT_LINK_BPS 400000000000ULL
#define LIVE_SNAPLEN 262144
#define LIVE_TIMEOUT_MS 200
#define FILTER_MAX 4096

struct decode_args {
    const char *file, *iface;
    uint64_t max_frames; /* 0: all */
    uint64_t link_bps;
    char filter[FILTER_MAX];
};

static volatile sig_atomic_t stop_requested;
static pcap_t *live_handle;

/* pcap_breakloop wakes a capture blocked in poll (libpcap >= 1.10 uses an eventfd for it). */
static void on_stop_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
    if (live_handle)
        pcap_breakloop(live_handle);
}

static int parse_count(const struct cli_ctx *ctx, const char *text, uint64_t *count)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v == 0)
        return cli_usage_error(ctx, "-c: '%s' is not a frame count above zero", text);
    *count = v;
    return 0;
}

static int join_filter(const struct cli_ctx *ctx, int argc, char **argv, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
        if (n < 0 || (size_t)n >= len - used)
            return cli_usage_error(ctx, "the filter is longer than %d bytes", FILTER_MAX - 1);
        used += (size_t)n;
    }
    return 0;
}

#define HELP_SHOWN (-3)

/* decode's own options, in cli.h's convention. */
static int decode_option(struct cli_ctx *ctx, void *args, int c, const char *arg)
{
    struct decode_args *a = args;
    struct dcb_err err;
    int rc;
    switch (c) {
    case 'r': a->file = arg; return CLI_NEXT;
    case 'i': a->iface = arg; return CLI_NEXT;
    case 'c': return (rc = parse_count(ctx, arg, &a->max_frames)) ? rc : CLI_NEXT;
    case 's':
        if (dcb_parse_speed(arg, &a->link_bps, &err) < 0)
            return cli_usage_error(ctx, "--link-speed: %s", err.msg);
        if (a->link_bps == 0)
            return cli_usage_error(ctx, "--link-speed must be above zero");
        return CLI_NEXT;
    }
    return CLI_NOT_OWN;
}

/* 0, an exit status (usage error), or HELP_SHOWN. */
static int parse_args(struct cli_ctx *ctx, int argc, char **argv, struct decode_args *a)
{
    static const struct option longopts[] = {
        { "read", required_argument, NULL, 'r' },
        { "interface", required_argument, NULL, 'i' },
        { "count", required_argument, NULL, 'c' },
        { "link-speed", required_argument, NULL, 's' },
    };
    a->link_bps = DEFAULT_LINK_BPS;
    struct cli_parser p = { longopts, 4, "r:i:c:s:", decode_option, a, NULL };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc == 0)
        return HELP_SHOWN;
    if (rc != CLI_NEXT)
        return rc;
    if (!a->file == !a->iface)
        return cli_usage_error(ctx, "give exactly one of -r FILE or -i IFACE");
    return join_filter(ctx, argc - optind, argv + optind, a->filter, sizeof(a->filter));
}

/* Root is only needed to open the capture; the decoding runs as nobody. */
static int drop_root(void)
{
    if (geteuid() != 0)
        return 0;
    const struct passwd *pw = getpwnam("nobody");
    if (!pw)
        return cli_fail(1, "dropping root", "no user 'nobody'");
    if (setgroups(0, NULL) < 0 || setgid(pw->pw_gid) < 0 || setuid(pw->pw_uid) < 0)
        return cli_fail(1, "dropping root", "%s", strerror(errno));
    if (setuid(0) == 0)
        return cli_fail(1, "dropping root", "root could be regained");
    return 0;
}

static pcap_t *open_live(const char *iface, char *errbuf)
{
    pcap_t *p = pcap_create(iface, errbuf);
    if (!p)
        return NULL;
    pcap_set_snaplen(p, LIVE_SNAPLEN);
    pcap_set_promisc(p, 1);
    pcap_set_timeout(p, LIVE_TIMEOUT_MS);
    int rc = pcap_activate(p);
    if (rc < 0) {
        snprintf(errbuf, PCAP_ERRBUF_SIZE, "%s",
                 rc == PCAP_ERROR ? pcap_geterr(p) : pcap_statustostr(rc));
        pcap_close(p);
        return NULL;
    }
    return p;
}

static int apply_filter(struct cli_ctx *ctx, pcap_t *p, const char *filter)
{
    if (!filter[0])
        return 0;
    struct bpf_program prog;
    if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0)
        return cli_usage_error(ctx, "filter '%s': %s", filter, pcap_geterr(p));
    int rc = pcap_setfilter(p, &prog);
    pcap_freecode(&prog);
    if (rc < 0)
        return cli_fail(1, "setting the filter", "%s", pcap_geterr(p));
    return 0;
}

/* Everything one frame needs on its way to the output, whichever reader it came from. */
struct decode_sink {
    const struct decode_args *args;
    struct dcb_out *out;
    const struct decode_print_opts *opts;
    uint64_t frames, malformed;
};

static bool sink_wants_more(const struct decode_sink *s)
{
    return !stop_requested && (s->args->max_frames == 0 || s->frames < s->args->max_frames);
}

/* linktype is a libpcap DLT; pcapng link types agree with it for the ones decoded. */
static void sink_frame(struct decode_sink *s, int linktype, int64_t sec, uint32_t usec,
                       const uint8_t *data, uint32_t caplen, uint32_t len)
{
    static struct dcb_frame frame;
    struct decode_frame_meta m = {
        .number = ++s->frames,
        .ts_sec = sec,
        .ts_usec = usec,
        .decoded = dcb_linktype_known(linktype),
        .linktype = linktype,
    };
    if (m.decoded) {
        if (!dcb_decode_link_frame(linktype, data, caplen, len, &frame))
            s->malformed++;
        dcb_verify_icrc(data, &frame);
    } else {
        frame.caplen = caplen;
        frame.len = len;
    }
    decode_print_frame(s->out, &m, &frame, s->opts);
}

static bool sink_pcapng_packet(void *arg, const struct pcapng_packet *p)
{
    struct decode_sink *s = arg;
    sink_frame(s, p->linktype, p->ts_sec, p->ts_usec, p->data, p->caplen, p->len);
    return sink_wants_more(s);
}

/* 0 at the end (or when stopped), or libpcap's negative error. */
static int decode_loop(pcap_t *p, struct decode_sink *s)
{
    int linktype = pcap_datalink(p);
    struct pcap_pkthdr *hdr;
    const u_char *data;
    while (sink_wants_more(s)) {
        int rc = pcap_next_ex(p, &hdr, &data);
        if (rc == 0)
            continue; /* live: the read timeout expired */
        if (rc == PCAP_ERROR_BREAK)
            return 0;
        if (rc < 0)
            return rc;
        sink_frame(s, linktype, hdr->ts.tv_sec, (uint32_t)hdr->ts.tv_usec, data, hdr->caplen,
                   hdr->len);
    }
    return 0;
}

/* libpcap stopped reading a file: a pcapng file that mixes link types goes on through
 * collectors/pcapng; anything else is libpcap's error. Returns the exit status. */
static int after_read_error(pcap_t *p, const struct decode_args *a, struct decode_sink *s)
{
    char why[PCAP_ERRBUF_SIZE + 1];
    snprintf(why, sizeof(why), "%s", pcap_geterr(p));
    if (a->file) {
        struct dcb_err err;
        int rc = pcapng_read_rest(a->file, a->filter, sink_pcapng_packet, s, &err);
        if (rc == 1)
            return 0;
        if (rc < 0)
            snprintf(why, sizeof(why), "%s", err.msg);
    }
    fflush(stdout);
    return cli_fail(1, a->file ? a->file : a->iface, "%s after %" PRIu64 " frames decoded", why,
                    s->frames);
}

static int decode_run(struct cli_ctx *ctx, int argc, char **argv)
{
    struct decode_args a = { 0 };
    int rc = parse_args(ctx, argc, argv, &a);
    if (rc)
        return rc == HELP_SHOWN ? 0 : rc;
    char errbuf[PCAP_ERRBUF_SIZE] = "";
    pcap_t *p = a.file ? pcap_open_offline(a.file, errbuf) : open_live(a.iface, errbuf);
    if (!p)
        return cli_fail(1, a.file ? a.file : a.iface, "%s", errbuf);
    rc = apply_filter(ctx, p, a.filter);
    if (!rc && a.iface)
        rc = drop_root();
    if (rc) {
        pcap_close(p);
        return rc;
    }
    if (a.iface) {
        live_handle = p;
        setvbuf(stdout, NULL, _IOLBF, 0); /* a frame is seen as it arrives */
        struct sigaction sa = { .sa_handler = on_stop_signal };
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
    }
    struct dcb_out o;
    out_init(&o, stdout, ctx->format);
    struct decode_print_opts opts = { .link_bps = a.link_bps, .verbose = ctx->verbosity > 0 };
    struct decode_sink sink = { .args = &a, .out = &o, .opts = &opts };
    int status = 0;
    if (decode_loop(p, &sink) < 0)
        status = after_read_error(p, &a, &sink);
    if (a.iface) {
        struct pcap_stat ps = { 0 };
        pcap_stats(p, &ps);
        out_term(stderr,
                 "%" PRIu64 " frames decoded, %" PRIu64 " malformed, %u dropped by the "
                 "kernel\n",
                 sink.frames, sink.malformed, ps.ps_drop);
    }
    live_handle = NULL;
    pcap_close(p);
    return cli_finish_output(&o, status);
}

static const struct cli_option_doc decode_options[] = {
    { "-r, --read FILE", "Read frames from a pcap or pcapng file." },
    { "-i, --interface IFACE",
      "Capture live. Run as root, dcbkit opens the interface and then becomes 'nobody'. Ctrl-C "
      "stops it and prints a summary line on stderr." },
    { "-c, --count N", "Stop after N frames (after the filter)." },
    { "--link-speed SPEED", "Link speed for PAUSE and PFC quanta in nanoseconds (default 400G)." },
    { "FILTER", "A BPF filter in tcpdump syntax, such as 'udp dst port 4791' or "
                "'ether proto 0x8808'." },
    { NULL, NULL },
};

static const struct cli_example decode_examples[] = {
    { "dcbkit decode -r roce.pcap", "One line per frame, as tcpdump -r prints them." },
    { "dcbkit decode -r roce.pcap -T json -c 10 'udp dst port 4791'",
      "The first ten RoCEv2 frames as JSON Lines." },
    { "dcbkit decode -r lldp.pcap -v", "LLDP frames with their DCBX TLVs." },
    { "sudo dcbkit decode -i eth0 -T json 'ether proto 0x8808 or ether proto 0x88cc'",
      "PAUSE, PFC and LLDP seen live on eth0." },
    { NULL, NULL },
};

const struct cli_command cmd_decode = {
    .name = "decode",
    .summary = "decode PFC, PAUSE, LLDP/DCBX, IP ECN and RoCEv2 frames from a capture",
    .synopsis = "dcbkit decode -r FILE [-c N] [-T text|json] [--link-speed SPEED] [-v] [FILTER]\n"
                "dcbkit decode -i IFACE [-c N] [-T text|json] [--link-speed SPEED] [FILTER]",
    .description =
        "decode works like tcpdump -r: it reads pcap and pcapng files through libpcap, applies an "
        "optional BPF filter, and decodes Ethernet or Linux cooked (SLL, SLL2) frames with up to "
        "two VLAN tags, 802.3x PAUSE, PFC, "
        "LLDP with IEEE 802.1Qaz and CEE DCBX, IPv4 and IPv6 DSCP and ECN, and RoCEv2 (UDP port "
        "4791): BTH, RETH, AETH, DETH, ImmDt, IETH, the atomic headers and CNP, with the ICRC "
        "checked.\n\n"
        "A pcapng file whose interfaces have different link types, which libpcap stops at, is "
        "read on from that interface by dcbkit's own pcapng reader, with the same filter.\n\n"
        "A truncated or malformed frame is reported with the reason and decoding goes on with "
        "the next frame. A capture file that ends in the middle of a frame is an error (exit 1) "
        "after every frame before it has been printed.",
    .options = decode_options,
    .examples = decode_examples,
    .json_doc =
        "One object per frame (JSON Lines, no header). A key is present only when its layer is: "
        "frame, ts, caplen, len; eth {src, dst, type}, or for Linux cooked captures sll "
        "{pkttype, src, ifindex (SLL2), type}; vlan [{tpid, vid, pcp, dei}]; pause "
        "{quanta, ns, dst_ok}; pfc {enable, quanta[8], ns[8], dst_ok, enable_reserved} (dst_ok "
        "only with an Ethernet header); "
        "macctl_opcode; ip {version, src, dst, dscp, ecn, ecn_name, proto}; udp {sport, dport, "
        "len}; bth {opcode, transport, name, se, m, pad, tver, pkey, fecn, becn, dqpn, ackreq, "
        "psn}; deth {qkey, srcqp}; reth {va, rkey, dmalen}; atomic {va, rkey, swap_add, compare}; "
        "aeth {syndrome, kind (ack, rnr_nak, reserved, nak), code, nak, msn}; atomic_ack; immdt; "
        "ieth; cnp (true); payload_len, icrc, icrc_ok (when the whole packet was captured); "
        "lldp {chassis_subtype, chassis_id, "
        "port_subtype, port_id, ttl, port_desc, sysname, mgmt_addr, ieee {ets_cfg {willing, cbs, "
        "max_tcs, prio_tc[8], tc_bw[8], tsa[8]}, ets_rec {prio_tc, tc_bw, tsa}, pfc {willing, "
        "mbc, cap, enable}, app [{prio, sel, proto}], cn {cnpv, ready}}, cee {flavour (CEE or "
        "CIN), oper_ver, max_ver, seq, ack, pg {enabled, willing, error, pgid[8], pg_bw[8], "
        "num_tcs}, pfc {enabled, willing, error, enable, num_tcs}, app_hdr {enabled, willing, "
        "error}, app [{sel, proto, oui, prio_map}]}}; malformed (the reason); linktype (when "
        "the frame is not Ethernet). ns values use --link-speed (default 400G).",
    .run = decode_run,
};
