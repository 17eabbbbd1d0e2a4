/* Names for numbers the decoders report. */
#include "decode.h"

static const char *const operation_names[32] = {
    [0x00] = "SEND First",
    [0x01] = "SEND Middle",
    [0x02] = "SEND Last",
    [0x03] = "SEND Last with Immediate",
    [0x04] = "SEND Only",
    [0x05] = "SEND Only with Immediate",
    [0x06] = "RDMA WRITE First",
    [0x07] = "RDMA WRITE Middle",
    [0x08] = "RDMA WRITE Last",
    [0x09] = "RDMA WRITE Last with Immediate",
    [0x0a] = "RDMA WRITE Only",
    [0x0b] = "RDMA WRITE Only with Immediate",
    [0x0c] = "RDMA READ Request",
    [0x0d] = "RDMA READ Response First",
    [0x0e] = "RDMA READ Response Middle",
    [0x0f] = "RDMA READ Response Last",
    [0x10] = "RDMA READ Response Only",
    [0x11] = "Acknowledge",
    [0x12] = "ATOMIC Acknowledge",
    [0x13] = "CmpSwap",
    [0x14] = "FetchAdd",
    [0x15] = "Reserved",
    [0x16] = "SEND Last with Invalidate",
    [0x17] = "SEND Only with Invalidate",
};

const char *dcb_bth_transport_name(uint8_t opcode)
{
    static const char *const transports[8] = { "RC",  "UC",  "RD",     "UD",
                                               "CNP", "XRC", "vendor", "vendor" };
    return transports[opcode >> 5];
}

const char *dcb_bth_opcode_name(uint8_t opcode)
{
    if (opcode == 0x81)
        return "CNP";
    if (opcode == 0x55)
        return "RESYNC";
    uint8_t transport = opcode >> 5;
    if (transport == 4 || transport >= 6)
        return "Unknown";
    if (transport == 3 && opcode != 0x64 && opcode != 0x65)
        return "Unknown";
    const char *name = operation_names[opcode & 0x1f];
    return name ? name : "Unknown";
}

const char *dcb_aeth_kind_name(uint8_t syndrome)
{
    static const char *const kinds[4] = { "ack", "rnr_nak", "reserved", "nak" };
    return kinds[dcb_aeth_kind(syndrome)];
}

const char *dcb_nak_code_name(uint8_t code)
{
    static const char *const codes[5] = { "PSN sequence error", "invalid request",
                                          "remote access error", "remote operational error",
                                          "invalid RD request" };
    return code < 5 ? codes[code] : "reserved";
}

const char *dcb_ecn_name(uint8_t ecn)
{
    static const char *const names[4] = { "Not-ECT", "ECT(1)", "ECT(0)", "CE" };
    return names[ecn & 3];
}
