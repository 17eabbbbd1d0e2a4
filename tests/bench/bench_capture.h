/* The decode benchmark's capture, shared by bench_decode and bench_analyze: 5M frames (or
 * BENCH_FRAMES) written under /tmp from byte templates taken from fixtures/captures/ (RoCE data,
 * ACKs, CNPs, PFC, LLDP), plus the helpers both use to time dcbkit and tshark on it. */
#ifndef DCB_BENCH_CAPTURE_H
#define DCB_BENCH_CAPTURE_H

#include <inttypes.h>
#include <limits.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "decode.h"

#define TSHARK_FRAMES 100000

struct frame_template {
    const char *file;
    int number; /* 1-based frame number in the fixture */
    int weight; /* copies per round of the mix */
    uint8_t bytes[256];
    uint32_t len;
};

static struct frame_template templates[] = {
    { "roce-ipv4.pcap", 5, 12, { 0 }, 0 }, /* RC SEND Only */
    { "roce-ipv4.pcap", 11, 4, { 0 }, 0 }, /* RC RDMA WRITE Only (RETH) */
    { "roce-ipv4.pcap", 36, 5, { 0 }, 0 }, /* ACK (AETH) */
    { "roce-ipv4.pcap", 49, 2, { 0 }, 0 }, /* CNP */
    { "pause-pfc.pcap", 4, 2, { 0 }, 0 },  /* PFC XOFF prio 3 */
    { "lldp-dcbx.pcap", 1, 1, { 0 }, 0 },  /* LLDP with IEEE DCBX */
};
#define NTEMPLATES (sizeof(templates) / sizeof(templates[0]))

static int load_template(struct frame_template *t)
{
    char path[PATH_MAX], errbuf[PCAP_ERRBUF_SIZE];
    snprintf(path, sizeof(path), "fixtures/captures/%s", t->file);
    pcap_t *p = pcap_open_offline(path, errbuf);
    if (!p) {
        fprintf(stderr, "bench: %s (run from the checkout: make bench)\n", errbuf);
        return -1;
    }
    struct pcap_pkthdr *hdr;
    const u_char *data;
    for (int n = 1; pcap_next_ex(p, &hdr, &data) == 1; n++) {
        if (n == t->number && hdr->caplen <= sizeof(t->bytes)) {
            memcpy(t->bytes, data, hdr->caplen);
            t->len = hdr->caplen;
        }
    }
    pcap_close(p);
    return t->len ? 0 : -1;
}

static int write_capture(const char *path, uint64_t nframes)
{
    pcap_t *dead = pcap_open_dead(DLT_EN10MB, 65535);
    pcap_dumper_t *d = pcap_dump_open(dead, path);
    if (!d) {
        fprintf(stderr, "bench: %s: %s\n", path, pcap_geterr(dead));
        pcap_close(dead);
        return -1;
    }
    uint64_t written = 0;
    while (written < nframes) {
        for (size_t i = 0; i < NTEMPLATES && written < nframes; i++) {
            for (int w = 0; w < templates[i].weight && written < nframes; w++) {
                struct pcap_pkthdr hdr = { .caplen = templates[i].len, .len = templates[i].len };
                hdr.ts.tv_sec = 1700000000 + (time_t)(written / 1000000);
                hdr.ts.tv_usec = (suseconds_t)(written % 1000000);
                pcap_dump((u_char *)d, &hdr, templates[i].bytes);
                written++;
            }
        }
    }
    pcap_dump_close(d);
    pcap_close(dead);
    return 0;
}

static double timed_command(const char *cmd, uint64_t frames)
{
    int64_t start = bench_now_ns();
    int rc = system(cmd);
    int64_t ns = bench_now_ns() - start;
    if (rc != 0) {
        fprintf(stderr, "bench: '%s' failed (status %d)\n", cmd, rc);
        return 0;
    }
    return (double)frames * 1e9 / (double)ns;
}

/* The dcbkit binary of the same build tree: BUILD/tests/bench/bench_* -> BUILD/bin/dcbkit. */
static void find_dcbkit(char *buf, size_t len)
{
    const char *env = getenv("DCBKIT");
    if (env) {
        snprintf(buf, len, "%s", env);
        return;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    self[n > 0 ? n : 0] = '\0';
    char *slash = strstr(self, "/tests/bench/");
    if (slash)
        *slash = '\0';
    size_t used = strlen(self);
    if (used + sizeof("/bin/dcbkit") > len)
        used = 0;
    memcpy(buf, self, used);
    memcpy(buf + used, "/bin/dcbkit", sizeof("/bin/dcbkit"));
}

/* The bare libpcap loop (the ceiling), or it decoding each frame, with or without the ICRC. */
enum loop_work { BARE, HEADERS, HEADERS_AND_ICRC };

/* Frames per second over the whole file, reading each frame and doing `work` on it. */
static double bench_read_loop(const char *path, enum loop_work work, uint64_t *frames_out)
{
    static struct dcb_frame frame;
    char errbuf[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline(path, errbuf);
    if (!p)
        return 0;
    struct pcap_pkthdr *hdr;
    const u_char *data;
    uint64_t frames = 0, sum = 0;
    int64_t start = bench_now_ns();
    while (pcap_next_ex(p, &hdr, &data) == 1) {
        frames++;
        if (work != BARE) {
            dcb_decode_frame(data, hdr->caplen, hdr->len, &frame);
            if (work == HEADERS_AND_ICRC)
                dcb_verify_icrc(data, &frame);
            sum += frame.layers + frame.icrc.ok;
        } else {
            sum += hdr->caplen + data[hdr->caplen - 1];
        }
    }
    int64_t ns = bench_now_ns() - start;
    pcap_close(p);
    bench_sink += sum;
    *frames_out = frames;
    return (double)frames * 1e9 / (double)ns;
}

/* Writes the capture to a fresh /tmp path (in path) and says so; 0 or -1. */
static int bench_capture_make(char *path, size_t len, uint64_t *nframes)
{
    const char *env = getenv("BENCH_FRAMES");
    *nframes = env ? strtoull(env, NULL, 10) : 5000000;
    for (size_t i = 0; i < NTEMPLATES; i++)
        if (load_template(&templates[i]) < 0)
            return -1;
    snprintf(path, len, "/tmp/dcbkit-bench-capture.%d.pcap", (int)getpid());
    int64_t t0 = bench_now_ns();
    if (write_capture(path, *nframes) < 0)
        return -1;
    printf("capture: %" PRIu64 " frames from %zu templates in %.1f s (%s)\n", *nframes, NTEMPLATES,
           (double)(bench_now_ns() - t0) / 1e9, path);
    return 0;
}

/* tshark -T fields with the fields dcbkit decodes, on the first TSHARK_FRAMES frames. */
static double bench_tshark(const char *path, uint64_t frames)
{
    char cmd[PATH_MAX + 512];
    snprintf(cmd, sizeof(cmd),
             "tshark -n -r '%s' -c %d --disable-protocol tftp -T fields -e frame.number "
             "-e macc.cbfc.enbv -e macc.cbfc.pause_time.c3 -e infiniband.bth.opcode "
             "-e infiniband.bth.destqp -e infiniband.bth.psn -e infiniband.reserved "
             "-e infiniband.aeth.syndrome -e infiniband.reth.va -e ip.dsfield.dscp "
             "-e ip.dsfield.ecn -e lldp.chassis.id.mac -e lldp.dcbx.feature.pfc.prio3 "
             "> /dev/null 2>&1",
             path, TSHARK_FRAMES);
    return timed_command(cmd, frames < TSHARK_FRAMES ? frames : TSHARK_FRAMES);
}

#endif
