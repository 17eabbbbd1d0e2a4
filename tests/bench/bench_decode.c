/* dcbkit decode throughput on a 5M-frame capture built under /tmp from byte templates (RoCE
 * data, ACKs, CNPs, PFC, LLDP, taken from fixtures/captures/), all in one run:
 *   - a bare libpcap pcap_next_ex loop over the file (the ceiling),
 *   - the same loop feeding dcb_decode_frame, with no output, without and with the ICRC check,
 *   - `dcbkit decode -T json > /dev/null`,
 *   - `tshark -T fields` with the equivalent fields on the first 100,000 frames.
 * Prints frames/s and the ratios; never asserts on time. BENCH_FRAMES overrides the count. */
#include "bench_capture.h"
#include "decode.h"

int main(void)
{
    char path[64];
    uint64_t nframes;
    if (bench_capture_make(path, sizeof(path), &nframes) < 0)
        return 1;

    uint64_t frames = 0;
    bench_read_loop(path, BARE, &frames); /* warm the page cache */
    double bare = bench_read_loop(path, BARE, &frames);
    double headers = bench_read_loop(path, HEADERS, &frames);
    double decoded = bench_read_loop(path, HEADERS_AND_ICRC, &frames);

    char dcbkit[PATH_MAX], cmd[2 * PATH_MAX + 512];
    find_dcbkit(dcbkit, sizeof(dcbkit));
    snprintf(cmd, sizeof(cmd), "'%s' decode -r '%s' -T json > /dev/null", dcbkit, path);
    double json = timed_command(cmd, frames);
    double tshark = bench_tshark(path, frames);
    unlink(path);

    printf("bare pcap_next_ex loop:        %6.2f M frames/s\n", bare / 1e6);
    printf("decode headers, no output:     %6.2f M frames/s  (%.2f of the bare loop)\n",
           headers / 1e6, headers / bare);
    printf("decode + ICRC, no output:      %6.2f M frames/s  (%.2f of the bare loop)\n",
           decoded / 1e6, decoded / bare);
    printf("dcbkit decode -T json:         %6.3f M frames/s  (%.3f of the bare loop)\n", json / 1e6,
           json / bare);
    printf("tshark -T fields (100k):       %6.3f M frames/s  (dcbkit -T json is %.1fx tshark)\n",
           tshark / 1e6, tshark > 0 ? json / tshark : 0.0);
    return 0;
}
