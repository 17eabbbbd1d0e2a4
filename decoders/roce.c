/* RoCEv2 (UDP 4791): BTH, the extension headers its opcode implies, and the ICRC trailer.
 * Layouts: InfiniBand Architecture Specification vol. 1 chapter 9 (transport headers) and
 * Annex A17 (RoCEv2, CNPs); docs/rules-references.md#ibta. */
#include "decode.h"

#define BTH_LEN 12
#define ICRC_LEN 4
#define OPCODE_CNP 0x81

enum ext_header {
    EXT_RETH = 1u << 0,
    EXT_AETH = 1u << 1,
    EXT_IMMDT = 1u << 2,
    EXT_IETH = 1u << 3,
    EXT_ATOMIC = 1u << 4,
    EXT_ATOMIC_ACK = 1u << 5,
    EXT_DETH = 1u << 6,
    EXT_RDETH = 1u << 7,
    EXT_XRCETH = 1u << 8,
};

enum transport { TR_RC, TR_UC, TR_RD, TR_UD, TR_CNP, TR_XRC };

/* Headers after the BTH for an RC/UC/RD/XRC operation (the low five opcode bits). */
static unsigned operation_headers(uint8_t op)
{
    switch (op) {
    case 0x03:
    case 0x05:
    case 0x09: return EXT_IMMDT;
    case 0x06:
    case 0x0a:
    case 0x0c: return EXT_RETH;
    case 0x0b: return EXT_RETH | EXT_IMMDT;
    case 0x0d:
    case 0x0f:
    case 0x10:
    case 0x11: return EXT_AETH;
    case 0x12: return EXT_AETH | EXT_ATOMIC_ACK;
    case 0x13:
    case 0x14: return EXT_ATOMIC;
    case 0x16:
    case 0x17: return EXT_IETH;
    default: return 0;
    }
}

static bool is_response(uint8_t op)
{
    return op >= 0x0d && op <= 0x12;
}

static unsigned headers_for_opcode(uint8_t opcode)
{
    uint8_t op = opcode & 0x1f;
    switch (opcode >> 5) {
    case TR_RC:
    case TR_UC: return operation_headers(op);
    case TR_RD: return EXT_RDETH | (is_response(op) ? 0 : EXT_DETH) | operation_headers(op);
    case TR_UD: return op == 0x05 ? EXT_DETH | EXT_IMMDT : op == 0x04 ? EXT_DETH : 0;
    case TR_XRC: return (is_response(op) ? 0 : EXT_XRCETH) | operation_headers(op);
    default: return 0;
    }
}

/* Base Transport Header, 12 bytes, after the UDP header:
 *
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    OpCode     |S|M|Pad| TVer  |          Partition Key        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |F|B| reserved  |            Destination Queue Pair             |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |A|  reserved   |        Packet Sequence Number (24 bits)       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 * OpCode: the top 3 bits name the transport (000 RC, 001 UC, 011 UD, 100 CNP, 101 XRC), the
 * low 5 the operation, which fixes the extension headers that follow. S solicited event,
 * M migration, Pad bytes of payload padding, TVer 0. F and B are FECN and BECN: a CNP (opcode
 * 0x81) sets B and names in the destination QP the QP to slow down. A asks for an ACK.
 * F, B and the reserved bits of that byte are variant: the ICRC counts them as ones. */
static void decode_bth(struct dcb_reader *r, struct dcb_bth *b)
{
    b->opcode = rd_u8(r);
    uint8_t flags = rd_u8(r);
    b->pkey = rd_be16(r);
    uint8_t congestion = rd_u8(r);
    b->dqpn = rd_be24(r);
    uint8_t ack = rd_u8(r);
    b->psn = rd_be24(r);
    b->se = flags >> 7;
    b->m = flags >> 6 & 1;
    b->pad = flags >> 4 & 3;
    b->tver = flags & 0x0f;
    b->fecn = congestion >> 7;
    b->becn = congestion >> 6 & 1;
    b->ackreq = ack >> 7;
}

/* The extension headers, in wire order. Returns false when one is cut short. */
static bool decode_ext_headers(struct dcb_reader *r, unsigned ext, struct dcb_frame *f)
{
    if (ext & EXT_XRCETH)
        rd_skip(r, 4);
    if (ext & EXT_RDETH)
        rd_skip(r, 4);
    if (ext & EXT_DETH) {
        f->deth.qkey = rd_be32(r);
        rd_skip(r, 1);
        f->deth.srcqp = rd_be24(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "DETH truncated", r);
        f->layers |= DCB_L_DETH;
    }
    if (ext & EXT_RETH) {
        f->reth.va = rd_be64(r);
        f->reth.rkey = rd_be32(r);
        f->reth.dmalen = rd_be32(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "RETH truncated", r);
        f->layers |= DCB_L_RETH;
    }
    if (ext & EXT_ATOMIC) {
        f->atomic.va = rd_be64(r);
        f->atomic.rkey = rd_be32(r);
        f->atomic.swap_add = rd_be64(r);
        f->atomic.compare = rd_be64(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "AtomicETH truncated", r);
        f->layers |= DCB_L_ATOMIC;
    }
    if (ext & EXT_AETH) {
        f->aeth.syndrome = rd_u8(r);
        f->aeth.msn = rd_be24(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "AETH truncated", r);
        f->layers |= DCB_L_AETH;
    }
    if (ext & EXT_ATOMIC_ACK) {
        f->atomic_ack = rd_be64(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "AtomicAckETH truncated", r);
        f->layers |= DCB_L_ATOMIC_ACK;
    }
    if (ext & EXT_IMMDT) {
        f->immdt = rd_be32(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "ImmDt truncated", r);
        f->layers |= DCB_L_IMMDT;
    }
    if (ext & EXT_IETH) {
        f->ieth = rd_be32(r);
        if (!rd_ok(r))
            return dcb_malformed(f, "IETH truncated", r);
        f->layers |= DCB_L_IETH;
    }
    return rd_ok(r) ? true : dcb_malformed(f, "RoCE extension header truncated", r);
}

/* r holds the UDP payload, possibly cut short by the capture. */
bool dcb_decode_roce(struct dcb_reader *r, struct dcb_frame *f)
{
    size_t stated = (size_t)f->udp.len - 8;
    bool complete = rd_remaining(r) == stated;
    decode_bth(r, &f->bth);
    if (!rd_ok(r))
        return dcb_malformed(f, "BTH truncated", r);
    f->layers |= DCB_L_BTH;
    if (f->bth.opcode == OPCODE_CNP)
        f->layers |= DCB_L_CNP;
    if (!decode_ext_headers(r, headers_for_opcode(f->bth.opcode), f))
        return false;
    size_t headers_end = rd_offset(r); /* never past stated: r is cut to it */
    if (headers_end + ICRC_LEN > stated)
        return dcb_malformed(f, "no room for the ICRC after the RoCE headers", NULL);
    f->payload_len = (uint32_t)(stated - headers_end - ICRC_LEN);
    if (!complete)
        return true; /* captured short: the ICRC is not there to check */
    rd_skip(r, f->payload_len);
    f->icrc.wire = rd_le32(r);
    if (!rd_ok(r))
        return dcb_malformed(f, "ICRC truncated", r);
    f->layers |= DCB_L_ICRC;
    return true;
}
