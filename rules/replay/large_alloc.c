/* See large_alloc.h. */
#include "large_alloc.h"

#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE (2u << 20)

void *large_alloc(size_t bytes)
{
    if (bytes < HUGE_PAGE)
        return aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    bytes = (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    void *p = aligned_alloc(HUGE_PAGE, bytes);
    if (p)
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* advice: without it, small pages */
    return p;
}
