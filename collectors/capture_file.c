/* Capture files through libpcap, continued by collectors/pcapng where libpcap gives up. */
#include "capture_file.h"

#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#include "pcapng_rest.h"

struct file_reader {
    capture_packet_fn fn;
    void *arg;
    uint64_t packets;
    bool stopped;
};

static bool deliver_pcapng(void *arg, const struct pcapng_packet *p)
{
    struct file_reader *fr = arg;
    struct capture_packet cp = {
        .linktype = p->linktype,
        .iface = p->iface,
        .ts_ns = p->ts_sec * 1000000000 + p->ts_nsec,
        .data = p->data,
        .caplen = p->caplen,
        .len = p->len,
    };
    fr->packets++;
    fr->stopped = !fr->fn(fr->arg, &cp);
    return !fr->stopped;
}

static int set_filter(pcap_t *p, const char *filter, struct dcb_err *err)
{
    if (!filter || !filter[0])
        return 0;
    struct bpf_program prog;
    if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0)
        return dcb_err_set(err, DCB_E_INVAL, "filter '%s': %s", filter, pcap_geterr(p));
    int rc = pcap_setfilter(p, &prog);
    pcap_freecode(&prog);
    if (rc < 0)
        return dcb_err_set(err, DCB_E_INVAL, "filter '%s': %s", filter, pcap_geterr(p));
    return 0;
}

/* libpcap stopped with an error: a pcapng file that mixes link types goes on through
 * collectors/pcapng; anything else is libpcap's error. */
static int after_read_error(pcap_t *p, const char *path, const char *filter,
                            struct file_reader *fr, struct dcb_err *err)
{
    char why[PCAP_ERRBUF_SIZE + 1];
    snprintf(why, sizeof(why), "%s", pcap_geterr(p));
    if (strcmp(path, "-") != 0) {
        struct dcb_err rest_err;
        int rc = pcapng_read_rest(path, filter ? filter : "", deliver_pcapng, fr, &rest_err);
        if (rc == 1)
            return 0;
        if (rc < 0)
            snprintf(why, sizeof(why), "%s", rest_err.msg);
    }
    return dcb_err_set(err, DCB_E_INVAL, "%s after %llu packets", why,
                       (unsigned long long)fr->packets);
}

int capture_file_read(const char *path, const char *filter, capture_packet_fn fn, void *arg,
                      struct dcb_err *err)
{
    char errbuf[PCAP_ERRBUF_SIZE] = "";
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    if (!p)
        return dcb_err_set(err, DCB_E_IO, "%s", errbuf);
    int rc = set_filter(p, filter, err);
    if (rc) {
        pcap_close(p);
        return rc;
    }
    struct file_reader fr = { .fn = fn, .arg = arg };
    int linktype = pcap_datalink(p);
    struct pcap_pkthdr *hdr;
    const u_char *data;
    while (!fr.stopped && (rc = pcap_next_ex(p, &hdr, &data)) == 1) {
        struct capture_packet cp = {
            .linktype = linktype,
            .ts_ns = (int64_t)hdr->ts.tv_sec * 1000000000 + hdr->ts.tv_usec,
            .data = data,
            .caplen = hdr->caplen,
            .len = hdr->len,
        };
        fr.packets++;
        fr.stopped = !fn(arg, &cp);
    }
    int status = 0;
    if (!fr.stopped && rc < 0 && rc != PCAP_ERROR_BREAK)
        status = after_read_error(p, path, filter, &fr, err);
    pcap_close(p);
    return status;
}
