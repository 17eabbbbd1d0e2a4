#include "pause_time.h"

#include <math.h>

uint64_t pause_quanta_to_ps(uint32_t quanta, uint64_t link_bps)
{
    if (link_bps == 0)
        return 0;
    /* 65535 * 512 * 1e12 overflows 64 bits, so compute in 128 */
    unsigned __int128 bits_ps = (unsigned __int128)quanta * PAUSE_QUANTUM_BITS * 1000000000000ULL;
    return (uint64_t)((bits_ps + link_bps / 2) / link_bps);
}

double pfc_quanta_to_ns(uint32_t quanta, uint64_t link_bps)
{
    if (link_bps == 0)
        return NAN;
    return (double)quanta * PAUSE_QUANTUM_BITS * 1e9 / (double)link_bps;
}

uint32_t pfc_ns_to_quanta(uint64_t ns, uint64_t link_bps)
{
    /* bits = ns * bps / 1e9; quanta = ceil(bits / 512) */
    unsigned __int128 num = (unsigned __int128)ns * link_bps;
    unsigned __int128 den = (unsigned __int128)1000000000ULL * PAUSE_QUANTUM_BITS;
    unsigned __int128 q = (num + den - 1) / den;
    return q > PAUSE_QUANTA_MAX ? PAUSE_QUANTA_MAX : (uint32_t)q;
}
