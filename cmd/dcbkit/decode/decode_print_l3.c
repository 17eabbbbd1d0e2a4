/* IP, UDP and RoCEv2 of a decoded frame, for decode_print_frame. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>

#include "decode_print_layers.h"

void print_ip_udp(struct dcb_out *o, const struct dcb_frame *f, bool verbose)
{
    const struct dcb_ip *ip = &f->ip;
    char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
    int family = ip->version == 4 ? AF_INET : AF_INET6;
    inet_ntop(family, ip->src, src, sizeof(src));
    inet_ntop(family, ip->dst, dst, sizeof(dst));
    bool udp = f->layers & DCB_L_UDP;
    out_obj_open(o, "ip");
    out_u64(o, "version", ", IPv%" PRIu64, ip->version);
    out_str(o, "src", " %s", src);
    if (udp)
        out_text(o, ".%u", f->udp.sport);
    out_str(o, "dst", " > %s", dst);
    if (udp)
        out_text(o, ".%u", f->udp.dport);
    out_u64(o, "dscp", " dscp %" PRIu64, ip->dscp);
    out_u64(o, "ecn", NULL, ip->ecn);
    out_str(o, "ecn_name", " %s", dcb_ecn_name(ip->ecn));
    out_u64(o, "proto", verbose ? " proto %" PRIu64 : NULL, ip->proto);
    out_obj_close(o);
    if (!udp)
        return;
    out_obj_open(o, "udp");
    out_u64(o, "sport", NULL, f->udp.sport);
    out_u64(o, "dport", NULL, f->udp.dport);
    out_u64(o, "len", verbose ? " udp len %" PRIu64 : NULL, f->udp.len);
    out_obj_close(o);
}

static void print_bth(struct dcb_out *o, const struct dcb_bth *b, bool verbose)
{
    out_obj_open(o, "bth");
    out_u64(o, "opcode", ", RoCEv2 op %" PRIu64, b->opcode);
    /* The CNP transport and operation share one name: said once in text. */
    out_str(o, "transport", b->opcode == 0x81 ? NULL : " %s", dcb_bth_transport_name(b->opcode));
    out_str(o, "name", " %s", dcb_bth_opcode_name(b->opcode));
    out_u64(o, "se", verbose ? " se %" PRIu64 : NULL, b->se);
    out_u64(o, "m", verbose ? " m %" PRIu64 : NULL, b->m);
    out_u64(o, "pad", verbose ? " pad %" PRIu64 : NULL, b->pad);
    out_u64(o, "tver", verbose ? " tver %" PRIu64 : NULL, b->tver);
    out_u64(o, "pkey", verbose ? " pkey 0x%04" PRIx64 : NULL, b->pkey);
    out_u64(o, "fecn", b->fecn ? " FECN" : NULL, b->fecn);
    out_u64(o, "becn", b->becn ? " BECN" : NULL, b->becn);
    out_u64(o, "dqpn", " qp 0x%06" PRIx64, b->dqpn);
    out_u64(o, "ackreq", b->ackreq ? " ackreq" : NULL, b->ackreq);
    out_u64(o, "psn", " psn %" PRIu64, b->psn);
    out_obj_close(o);
}

static void print_aeth(struct dcb_out *o, const struct dcb_aeth *a)
{
    uint8_t code = a->syndrome & 0x1f;
    out_obj_open(o, "aeth");
    out_u64(o, "syndrome", NULL, a->syndrome);
    out_str(o, "kind", " %s", dcb_aeth_kind_name(a->syndrome));
    out_u64(o, "code", " %" PRIu64, code);
    if (dcb_aeth_kind(a->syndrome) == DCB_AETH_NAK)
        out_str(o, "nak", " (%s)", dcb_nak_code_name(code));
    out_u64(o, "msn", " msn %" PRIu64, a->msn);
    out_obj_close(o);
}

/* The remote buffer an RDMA read, write or atomic names (RETH and AtomicETH alike). */
static void print_remote_address(struct dcb_out *o, uint64_t va, uint32_t rkey)
{
    out_u64(o, "va", " va 0x%" PRIx64, va);
    out_u64(o, "rkey", " rkey 0x%08" PRIx64, rkey);
}

static void print_ext_headers(struct dcb_out *o, const struct dcb_frame *f, bool verbose)
{
    if (f->layers & DCB_L_DETH) {
        out_obj_open(o, "deth");
        out_u64(o, "qkey", verbose ? " qkey 0x%08" PRIx64 : NULL, f->deth.qkey);
        out_u64(o, "srcqp", " srcqp 0x%06" PRIx64, f->deth.srcqp);
        out_obj_close(o);
    }
    if (f->layers & DCB_L_RETH) {
        out_obj_open(o, "reth");
        print_remote_address(o, f->reth.va, f->reth.rkey);
        out_u64(o, "dmalen", " len %" PRIu64, f->reth.dmalen);
        out_obj_close(o);
    }
    if (f->layers & DCB_L_ATOMIC) {
        out_obj_open(o, "atomic");
        print_remote_address(o, f->atomic.va, f->atomic.rkey);
        out_u64(o, "swap_add", " swap/add 0x%" PRIx64, f->atomic.swap_add);
        out_u64(o, "compare", " compare 0x%" PRIx64, f->atomic.compare);
        out_obj_close(o);
    }
    if (f->layers & DCB_L_AETH)
        print_aeth(o, &f->aeth);
    if (f->layers & DCB_L_ATOMIC_ACK)
        out_u64(o, "atomic_ack", " orig 0x%" PRIx64, f->atomic_ack);
    if (f->layers & DCB_L_IMMDT)
        out_u64(o, "immdt", " imm 0x%08" PRIx64, f->immdt);
    if (f->layers & DCB_L_IETH)
        out_u64(o, "ieth", " inv rkey 0x%08" PRIx64, f->ieth);
}

void print_roce(struct dcb_out *o, const struct dcb_frame *f, bool verbose)
{
    print_bth(o, &f->bth, verbose);
    print_ext_headers(o, f, verbose);
    if (f->layers & DCB_L_CNP)
        out_bool(o, "cnp", NULL, true);
    if (f->layers & DCB_L_ICRC) {
        out_u64(o, "payload_len", verbose ? " payload %" PRIu64 : NULL, f->payload_len);
        out_u64(o, "icrc", verbose ? " icrc 0x%08" PRIx64 : NULL, f->icrc.wire);
    }
    if ((f->layers & DCB_L_ICRC) && f->icrc.checked) {
        out_bool(o, "icrc_ok", NULL, f->icrc.ok);
        if (!f->icrc.ok)
            out_text(o, " [bad ICRC, expected 0x%08x]", f->icrc.computed);
    }
}
