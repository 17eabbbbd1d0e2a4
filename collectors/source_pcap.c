/* pcap: placeholder until the capture source lands (being written now). */
#include "source.h"

int dcb_source_pcap_open(struct dcb_source *src, const struct source_pcap_options *opt,
                         struct dcb_err *err)
{
    (void)src;
    (void)opt;
    return dcb_err_set(err, DCB_E_UNSUPP, "the capture source is not built yet");
}
