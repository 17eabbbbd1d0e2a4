/* Helpers the trackers share. */
#include "track.h"

#include <arpa/inet.h>
#include <stdio.h>

char *track_mac_str(const uint8_t mac[6], char *buf)
{
    snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4],
             mac[5]);
    return buf;
}

char *track_ip_str(uint8_t version, const uint8_t addr[16], char *buf)
{
    if (!inet_ntop(version == 6 ? AF_INET6 : AF_INET, addr, buf, 46))
        buf[0] = '\0';
    return buf;
}
