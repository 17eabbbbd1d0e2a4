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
    bool bad_time; /* stopped at a timestamp out of range: bad_sec */
    int64_t bad_sec;
};

/* Nanoseconds since the epoch, unless sec is before 1970 or past 2262 (int64_t nanoseconds end
 * there): a pcapng if_tsresol or tick count no real capture has, or libpcap's wrapped result of
 * one. Then the reading stops with an error rather than handing on wrong times. */
static bool packet_time(struct file_reader *fr, int64_t sec, uint32_t nsec, int64_t *ns)
{
    if (sec >= 0 && nsec < 1000000000u && sec <= (INT64_MAX - (int64_t)nsec) / 1000000000) {
        *ns = sec * 1000000000 + nsec;
        return true;
    }
    fr->bad_time = fr->stopped = true;
    fr->bad_sec = sec;
    return false;
}

static bool deliver_pcapng(void *arg, const struct pcapng_packet *p)
{
    struct file_reader *fr = arg;
    int64_t ts_ns;
    if (!packet_time(fr, p->ts_sec, p->ts_nsec, &ts_ns))
        return false;
    struct capture_packet cp = {
        .linktype = p->linktype,
        .iface = p->iface,
        .ts_ns = ts_ns,
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
static int after_read_error(pcap_t *p, const char *path, const char *filter, struct file_reader *fr,
                            struct dcb_err *err)
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
        int64_t ts_ns; /* opened with nanosecond precision: tv_usec holds nanoseconds */
        if (!packet_time(&fr, hdr->ts.tv_sec, (uint32_t)hdr->ts.tv_usec, &ts_ns))
            break;
        struct capture_packet cp = {
            .linktype = linktype,
            .ts_ns = ts_ns,
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
    if (fr.bad_time)
        status = dcb_err_set(err, DCB_E_RANGE,
                             "packet %llu: timestamp %lld s is out of range "
                             "(1970 to 2262); is the interface's if_tsresol right?",
                             (unsigned long long)fr.packets + 1, (long long)fr.bad_sec);
    pcap_close(p);
    return status;
}
