/* libFuzzer: UDP and the RoCEv2 decoder behind it, then the ICRC over a made-up IPv4 header in
 * front. The first two bytes are the IP payload length the UDP decoder checks against. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct dcb_frame f;
    struct dcb_reader r;
    if (!fuzz_begin(&f, &r, data, size, 2))
        return 0;
    f.ip.payload_len = (uint32_t)data[0] << 8 | data[1];
    bool ok = dcb_decode_udp(&r, &f);
    fuzz_check_result(ok, &r, &f);
    if (!ok)
        return 0;
    ok = dcb_decode_roce(&r, &f);
    fuzz_check_result(ok, &r, &f);
    if (ok && (f.layers & DCB_L_ICRC)) {
        static uint8_t packet[20 + 65536];
        memset(packet, 0, 20);
        packet[0] = 0x45;
        size_t udp_bytes = f.udp.len < size - 2 ? f.udp.len : size - 2;
        memcpy(packet + 20, data + 2, udp_bytes);
        struct dcb_reader p;
        rd_init(&p, packet, 20 + udp_bytes);
        uint32_t crc;
        (void)dcb_icrc_compute(&p, 4, 20, &crc);
    }
    return 0;
}
