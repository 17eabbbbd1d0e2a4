/* One decoded frame, and the decoders that fill it.
 *
 * The decoders are stateless and zero-copy: struct dcb_frame has a fixed size, strings are
 * (pointer, length) views into the caller's frame bytes, and nothing is allocated. Every read of
 * frame bytes goes through the bounded reader. A truncated or malformed header is a result:
 * the layers decoded so far stay set and `malformed` says why; the caller goes on with the next
 * frame. Layers are present when their DCB_L_* bit is set in `layers`. */
#ifndef DCB_DECODE_H
#define DCB_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reader.h"

#define DCB_ETHERTYPE_VLAN 0x8100
#define DCB_ETHERTYPE_QINQ 0x88a8
#define DCB_ETHERTYPE_IPV4 0x0800
#define DCB_ETHERTYPE_IPV6 0x86dd
#define DCB_ETHERTYPE_MACCTL 0x8808
#define DCB_ETHERTYPE_LLDP 0x88cc
#define DCB_UDP_PORT_ROCEV2 4791

#define DCB_MAX_VLAN 2
/* As many App entries as one TLV can hold (a 511-byte TLV), so none is ever dropped. */
#define DCB_MAX_IEEE_APP 168 /* (511 - 4 OUI/subtype - 1 reserved) / 3 */
#define DCB_MAX_CEE_APP 83   /* (511 - 4 - 2 sub-TLV header - 4 feature header) / 6 */
#define DCB_MALFORMED_MAX 120

enum dcb_layer {
    DCB_L_ETH = 1u << 0,
    DCB_L_VLAN = 1u << 1,
    DCB_L_PAUSE = 1u << 2,
    DCB_L_PFC = 1u << 3,
    DCB_L_IP = 1u << 4,
    DCB_L_UDP = 1u << 5,
    DCB_L_BTH = 1u << 6,
    DCB_L_RETH = 1u << 7,
    DCB_L_AETH = 1u << 8,
    DCB_L_DETH = 1u << 9,
    DCB_L_IMMDT = 1u << 10,
    DCB_L_IETH = 1u << 11,
    DCB_L_ATOMIC = 1u << 12,
    DCB_L_ATOMIC_ACK = 1u << 13,
    DCB_L_CNP = 1u << 14,
    DCB_L_ICRC = 1u << 15,
    DCB_L_LLDP = 1u << 16,
    DCB_L_MACCTL = 1u << 17, /* MAC Control with an opcode that is neither PAUSE nor PFC */
    DCB_L_SLL = 1u << 18,    /* a Linux cooked header instead of Ethernet (eth.type is set) */
};

/* The link types dcb_decode_link_frame knows (pcap LINKTYPE_* = libpcap DLT_* for these). */
#define DCB_LINKTYPE_ETHERNET 1
#define DCB_LINKTYPE_LINUX_SLL 113
#define DCB_LINKTYPE_LINUX_SLL2 276

/* A view into the frame: not NUL-terminated. */
struct dcb_bytes {
    const uint8_t *ptr;
    uint16_t len;
};

struct dcb_vlan_tag {
    uint16_t tpid;
    uint8_t pcp, dei;
    uint16_t vid;
};

struct dcb_eth {
    uint8_t dst[6], src[6];
    uint16_t type;       /* the EtherType after any VLAN tags */
    uint16_t outer_type; /* the first EtherType/TPID after the source address */
};

struct dcb_sll {
    bool v2;
    uint8_t pkttype; /* 0 to us, 1 broadcast, 2 multicast, 3 to another host, 4 sent by us */
    uint16_t hatype;
    uint32_t ifindex; /* SLL2 only */
    bool has_src;
    uint8_t src[6];
};

struct dcb_pause {
    uint16_t quanta;
    bool bad_dst; /* DA is not 01-80-C2-00-00-01 */
};

struct dcb_pfc {
    uint16_t enable_vector; /* as on the wire; bits above 7 are reserved */
    uint16_t quanta[8];
    bool bad_dst;
    bool reserved_bits; /* enable_vector has bits above 7 set */
};

struct dcb_ip {
    uint8_t version; /* 4 or 6 */
    uint8_t dscp, ecn;
    uint8_t proto;            /* IPv4 protocol or IPv6 next header */
    uint8_t src[16], dst[16]; /* IPv4 uses the first 4 bytes */
    uint16_t header_len;
    uint32_t payload_len; /* bytes after the IP header, as the header says */
};

struct dcb_udp {
    uint16_t sport, dport, len, csum;
};

struct dcb_bth {
    uint8_t opcode, se, m, pad, tver;
    uint16_t pkey;
    uint8_t fecn, becn;
    uint32_t dqpn;
    uint8_t ackreq;
    uint32_t psn;
};

struct dcb_reth {
    uint64_t va;
    uint32_t rkey, dmalen;
};

enum dcb_aeth_kind { DCB_AETH_ACK, DCB_AETH_RNR_NAK, DCB_AETH_RESERVED, DCB_AETH_NAK };

struct dcb_aeth {
    uint8_t syndrome;
    uint32_t msn;
};

struct dcb_deth {
    uint32_t qkey, srcqp;
};

struct dcb_atomic {
    uint64_t va;
    uint32_t rkey;
    uint64_t swap_add, compare;
};

struct dcb_ets {
    bool present;
    uint8_t willing, cbs, max_tcs; /* max_tcs: 0 on the wire is reported as 8 */
    uint8_t prio_tc[8], tc_bw[8], tsa[8];
};

struct dcb_ieee_pfc {
    bool present;
    uint8_t willing, mbc, cap, enable;
};

struct dcb_ieee_app {
    uint8_t prio, sel;
    uint16_t proto;
};

struct dcb_ieee_cn {
    bool present;
    uint8_t cnpv, ready;
};

struct dcb_cee_feature {
    bool present;
    uint8_t oper_ver, max_ver, enabled, willing, error, subtype;
};

struct dcb_cee_app {
    uint8_t sel; /* SF: bits 1..0 of the first OUI byte */
    uint16_t proto;
    uint32_t oui; /* with the SF bits cleared */
    uint8_t prio_map;
};

struct dcb_cee {
    bool present;
    uint8_t flavour; /* OUI subtype: 1 CIN, 2 CEE */
    bool control;
    uint8_t oper_ver, max_ver;
    uint32_t seq, ack;
    struct dcb_cee_feature pg_hdr, pfc_hdr, app_hdr;
    uint8_t pgid[8], pg_bw[8], pg_num_tcs;
    uint8_t pfc_enable, pfc_num_tcs;
    uint8_t napp;
    struct dcb_cee_app app[DCB_MAX_CEE_APP];
};

struct dcb_lldp {
    uint8_t chassis_subtype, port_subtype;
    struct dcb_bytes chassis_id, port_id, port_desc, sysname;
    bool has_ttl;
    uint16_t ttl;
    uint8_t mgmt_subtype; /* IANA address family: 1 IPv4, 2 IPv6 */
    struct dcb_bytes mgmt_addr;
    struct dcb_ets ets_cfg, ets_rec;
    struct dcb_ieee_pfc pfc;
    struct dcb_ieee_cn cn;
    bool has_app;
    uint8_t napp;
    struct dcb_ieee_app app[DCB_MAX_IEEE_APP];
    struct dcb_cee cee;
};

struct dcb_icrc {
    uint32_t wire, computed;
    bool checked; /* dcb_verify_icrc ran: computed and ok are set */
    bool ok;
};

struct dcb_frame {
    uint32_t layers; /* DCB_L_* */
    uint32_t caplen, len;
    struct dcb_eth eth;
    struct dcb_sll sll;
    uint8_t nvlan;
    struct dcb_vlan_tag vlan[DCB_MAX_VLAN];
    uint16_t macctl_opcode;
    struct dcb_pause pause;
    struct dcb_pfc pfc;
    struct dcb_ip ip;
    uint32_t ip_offset; /* where the IP header starts in the frame */
    struct dcb_udp udp;
    struct dcb_bth bth;
    struct dcb_reth reth;
    struct dcb_aeth aeth;
    struct dcb_deth deth;
    uint32_t immdt, ieth;
    struct dcb_atomic atomic;
    uint64_t atomic_ack;
    struct dcb_icrc icrc;
    uint32_t payload_len; /* RoCE payload (with pad) between the headers and the ICRC */
    struct dcb_lldp lldp;
    char malformed[DCB_MALFORMED_MAX]; /* "" when the frame decoded cleanly */
};

/* Decodes one frame of a link type above; false with f->malformed set for any other. */
bool dcb_decode_link_frame(int linktype, const uint8_t *data, uint32_t caplen, uint32_t wire_len,
                           struct dcb_frame *f);
static inline bool dcb_linktype_known(int linktype)
{
    return linktype == DCB_LINKTYPE_ETHERNET || linktype == DCB_LINKTYPE_LINUX_SLL ||
           linktype == DCB_LINKTYPE_LINUX_SLL2;
}

/* Decodes one Ethernet frame. caplen bytes at data are present; wire_len is the original length.
 * Always fills *f (resetting it first); returns false when the frame is malformed or truncated,
 * with f->malformed set. */
bool dcb_decode_frame(const uint8_t *data, uint32_t caplen, uint32_t wire_len, struct dcb_frame *f);

/* Checks the ICRC of a frame dcb_decode_frame found a complete RoCEv2 packet in (DCB_L_ICRC):
 * sets f->icrc.checked, .computed and .ok and returns ok. Separate from dcb_decode_frame because
 * it reads the whole payload, which consumers of the headers alone need not pay for. */
bool dcb_verify_icrc(const uint8_t *data, struct dcb_frame *f);

/* The per-protocol decoders, each reading from r positioned at its header. They set their layer
 * bits, and on failure set f->malformed and return false. */
bool dcb_decode_eth(struct dcb_reader *r, struct dcb_frame *f);
bool dcb_decode_sll(struct dcb_reader *r, bool v2, struct dcb_frame *f);
/* The VLAN tags while f->eth.type is a TPID; leaves f->eth.type at the inner EtherType. */
bool dcb_decode_vlan_tags(struct dcb_reader *r, struct dcb_frame *f);
bool dcb_decode_macctl(struct dcb_reader *r, struct dcb_frame *f);
bool dcb_decode_lldp(struct dcb_reader *r, struct dcb_frame *f);
bool dcb_decode_ieee_dcbx(struct dcb_reader *body, uint8_t subtype, struct dcb_lldp *l,
                          struct dcb_frame *f);
bool dcb_decode_cee_dcbx(struct dcb_reader *body, uint8_t subtype, struct dcb_cee *c,
                         struct dcb_frame *f);
bool dcb_decode_ip(struct dcb_reader *r, struct dcb_frame *f, struct dcb_reader *payload);
bool dcb_decode_udp(struct dcb_reader *r, struct dcb_frame *f);
bool dcb_decode_roce(struct dcb_reader *r, struct dcb_frame *f);

/* The ICRC a RoCEv2 packet should carry. packet reads the whole IP packet, ICRC included, from
 * its IP header (ip_header_len bytes) on. False if it is too short to hold one. */
bool dcb_icrc_compute(struct dcb_reader *packet, uint8_t ip_version, uint16_t ip_header_len,
                      uint32_t *crc);

/* Standard CRC-32 (IEEE 802.3, zlib): start with crc = 0. */
uint32_t dcb_crc32(uint32_t crc, const void *data, size_t len);
/* For tests and benchmarks: 1 uses the portable slicing-by-8 path only, 0 picks by CPU again. */
void dcb_crc32_force_portable(int portable);

/* Sets f->malformed to "<what>: needed N bytes at offset O, M left" (or just what) and returns
 * false; the first reason wins. */
bool dcb_malformed(struct dcb_frame *f, const char *what, const struct dcb_reader *r);

/* The next TLV (7-bit type, 9-bit length) of r as its own reader: 1, 0 at the end of r, or -1
 * with f->malformed set when the header or the body does not fit. what names it in the reason. */
int dcb_next_tlv(struct dcb_reader *r, const char *what, struct dcb_reader *body, unsigned *type,
                 struct dcb_frame *f);
/* Eight 4-bit values packed high nibble first, and eight bytes. */
void dcb_read_nibbles8(struct dcb_reader *r, uint8_t out[8]);
void dcb_read_bytes8(struct dcb_reader *r, uint8_t out[8]);
/* "<what> length N, expected <want>" as the malformed reason; returns false. */
bool dcb_malformed_len(struct dcb_frame *f, const char *what, size_t len, const char *want);

/* Names. Never NULL. */
const char *dcb_bth_opcode_name(uint8_t opcode);
const char *dcb_bth_transport_name(uint8_t opcode);
const char *dcb_aeth_kind_name(uint8_t syndrome);
const char *dcb_ecn_name(uint8_t ecn);
const char *dcb_nak_code_name(uint8_t code);

static inline enum dcb_aeth_kind dcb_aeth_kind(uint8_t syndrome)
{
    return (enum dcb_aeth_kind)((syndrome >> 5) & 3);
}

#endif
