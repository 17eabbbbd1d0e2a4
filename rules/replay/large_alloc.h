/* Memory for the simulator's big arrays (packets, flows, ports, the event queue's chunks):
 * cache-line aligned, and from 2 MB up backed by transparent huge pages where the kernel
 * offers them (madvise mode included): the all-to-all reads 10-20 MB of them at random, and
 * with 4 KB pages most of those reads also missed the TLB. Freed with free(). */
#ifndef DCB_REPLAY_LARGE_ALLOC_H
#define DCB_REPLAY_LARGE_ALLOC_H

#include <stddef.h>

void *large_alloc(size_t bytes);

#endif
