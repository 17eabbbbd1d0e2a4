#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int dcb_grow(void *array_ptr, size_t *cap, size_t elem, size_t first)
{
    size_t want = *cap ? *cap * 2 : first;
    if (want < *cap || (elem && want > SIZE_MAX / elem))
        return -1;
    void *old;
    memcpy(&old, array_ptr, sizeof(old)); /* the caller's T *, whatever T is */
    void *grown = realloc(old, want * elem);
    if (!grown)
        return -1;
    memcpy(array_ptr, &grown, sizeof(grown));
    *cap = want;
    /* cppcheck-suppress memleak ; the caller's pointer holds it now */
    return 0;
}
