/* Continues a pcapng file past the point where libpcap gave up; see pcapng_rest.h. */
#include "pcapng_rest.h"

#include <pcap/pcap.h>
#include <stdio.h>

#define MAX_FILTERS 16

struct link_filter {
    uint16_t linktype;
    bool usable; /* the filter compiled for this link type */
    struct bpf_program prog;
};

struct filters {
    const char *text;
    int count;
    struct link_filter link[MAX_FILTERS];
};

/* A packet of a link type the filter cannot be compiled for does not match, as in tcpdump. */
static bool filter_passes(struct filters *fs, const struct pcapng_packet *p)
{
    if (!fs->text[0])
        return true;
    struct link_filter *lf = NULL;
    for (int i = 0; i < fs->count; i++)
        if (fs->link[i].linktype == p->linktype)
            lf = &fs->link[i];
    if (!lf) {
        if (fs->count == MAX_FILTERS)
            return false;
        lf = &fs->link[fs->count++];
        lf->linktype = p->linktype;
        pcap_t *dead = pcap_open_dead(p->linktype, 65535);
        lf->usable = dead && pcap_compile(dead, &lf->prog, fs->text, 1, PCAP_NETMASK_UNKNOWN) == 0;
        if (dead)
            pcap_close(dead);
    }
    if (!lf->usable)
        return false;
    struct pcap_pkthdr hdr = { .caplen = p->caplen, .len = p->len };
    return pcap_offline_filter(&lf->prog, &hdr, p->data) != 0;
}

static void free_filters(struct filters *fs)
{
    for (int i = 0; i < fs->count; i++)
        if (fs->link[i].usable)
            pcap_freecode(&fs->link[i].prog);
}

/* True once the reader has met an interface whose link type is not the first one's. */
static bool past_mixed_interface(const struct pcapng_reader *r)
{
    for (unsigned i = 1; i < r->niface; i++)
        if (r->iface[i].linktype != r->iface[0].linktype)
            return true;
    return false;
}

int pcapng_read_rest(const char *path, const char *filter, pcapng_packet_fn fn, void *arg,
                     struct dcb_err *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return dcb_err_set(err, DCB_E_IO, "%s: cannot reopen", path);
    struct pcapng_reader r;
    struct filters fs = { .text = filter, .count = 0 };
    struct pcapng_packet p;
    int rc = pcapng_open(&r, fp, err);
    bool reached = false;
    while (rc >= 0 && (rc = pcapng_next(&r, &p, err)) == 1) {
        reached = reached || past_mixed_interface(&r);
        if (reached && filter_passes(&fs, &p) && !fn(arg, &p))
            break;
    }
    reached = reached || past_mixed_interface(&r);
    free_filters(&fs);
    pcapng_close(&r);
    fclose(fp);
    if (!reached)
        return 0; /* not pcapng, or libpcap stopped earlier: its error stands */
    return rc < 0 ? rc : 1;
}
