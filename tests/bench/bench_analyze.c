/* dcbkit analyze throughput on the decode benchmark's capture (bench_capture.h), in one run:
 *   - the bare libpcap pcap_next_ex loop over the file (the ceiling),
 *   - analyze's own path in this process: collectors/capture_file (nanosecond timestamps),
 *     dcb_decode_link_frame and the trackers (pauses, QPs, DCBX), no report,
 *   - the whole `dcbkit analyze FILE -T json > /dev/null` command,
 *   - tshark -T fields on the first 100,000 frames, for scale.
 * The target is 0.5 of the bare loop. Prints figures; never asserts on time. */
#include "bench_capture.h"
#include "capture_file.h"
#include "decode.h"
#include "track_set.h"

struct tracked {
    struct track_set t;
    uint64_t frames;
};

static bool track_packet(void *arg, const struct capture_packet *p)
{
    static struct dcb_frame frame;
    struct tracked *tr = arg;
    tr->frames++;
    dcb_decode_link_frame(p->linktype, p->data, p->caplen, p->len, &frame);
    track_set_frame(&tr->t, p->ts_ns, p->iface, &frame);
    return true;
}

static double tracked_loop(const char *path, uint64_t *qps)
{
    static struct tracked tr;
    struct dcb_err err;
    memset(&tr, 0, sizeof(tr));
    if (track_set_init(&tr.t, 400000000000ULL, 200000000, 0, NULL) < 0)
        return 0;
    int64_t start = bench_now_ns();
    int rc = capture_file_read(path, NULL, track_packet, &tr, &err);
    int64_t ns = bench_now_ns() - start;
    track_set_finish(&tr.t, 0);
    *qps = tr.t.qps.nflows;
    bench_sink += tr.t.pauses.frames_pfc + tr.t.qps.roce_packets;
    track_set_free(&tr.t);
    if (rc < 0) {
        fprintf(stderr, "bench_analyze: %s\n", err.msg);
        return 0;
    }
    return (double)tr.frames * 1e9 / (double)ns;
}

int main(void)
{
    char path[64];
    uint64_t nframes, frames = 0, qps = 0;
    if (bench_capture_make(path, sizeof(path), &nframes) < 0)
        return 1;
    bench_read_loop(path, BARE, &frames); /* warm the page cache */
    double bare = bench_read_loop(path, BARE, &frames);
    double tracked = tracked_loop(path, &qps);
    char dcbkit[PATH_MAX], cmd[PATH_MAX + 256];
    find_dcbkit(dcbkit, sizeof(dcbkit));
    snprintf(cmd, sizeof(cmd), "'%s' analyze '%s' -T json > /dev/null", dcbkit, path);
    double whole = timed_command(cmd, frames);
    double tshark = bench_tshark(path, frames);
    unlink(path);

    printf("bare pcap_next_ex loop:        %6.2f M frames/s\n", bare / 1e6);
    printf("decode + trackers (in process):%6.2f M frames/s  (%.2f of the bare loop; target "
           "0.5; %" PRIu64 " QPs)\n",
           tracked / 1e6, tracked / bare, qps);
    printf("dcbkit analyze -T json:        %6.2f M frames/s  (%.2f of the bare loop, process "
           "start and report included)\n",
           whole / 1e6, whole / bare);
    printf("tshark -T fields (100k):       %6.3f M frames/s  (dcbkit analyze is %.0fx tshark)\n",
           tshark / 1e6, tshark > 0 ? whole / tshark : 0.0);
    return 0;
}
