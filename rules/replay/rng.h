/* The replay engine's one random stream: splitmix64 from the caller's seed, so that the same seed
 * gives the same draws in the same order every run. Inline: WRED draws one per marked packet. */
#ifndef DCB_REPLAY_RNG_H
#define DCB_REPLAY_RNG_H

#include <stdint.h>

/* A uniform draw in [0, 1), advancing *state. */
static inline double rng_uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

#endif
