/* PAUSE and PFC quanta <-> time. One quantum is 512 bit times (IEEE 802.3 Annex 31B), so the
 * time a quanta value stands for depends on the link speed: q * 512 / link_bps seconds.
 * The decoders, `dcbkit calc pause` and the replay engine all use these. */
#ifndef DCB_PAUSE_TIME_H
#define DCB_PAUSE_TIME_H

#include <stdint.h>

#define PAUSE_QUANTUM_BITS 512u
#define PAUSE_QUANTA_MAX 65535u

/* Exact to the picosecond (rounded to nearest). 0 when link_bps is 0. */
uint64_t pause_quanta_to_ps(uint32_t quanta, uint64_t link_bps);
/* Nanoseconds as a double: 65535 quanta at 400G = 83884.8 ns. NaN when link_bps is 0. */
double pfc_quanta_to_ns(uint32_t quanta, uint64_t link_bps);
/* Quanta needed to cover ns at the link speed, rounded up and capped at 65535. */
uint32_t pfc_ns_to_quanta(uint64_t ns, uint64_t link_bps);

#endif
