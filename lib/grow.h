/* Growing arrays: the one way dcbkit makes room for one more element. */
#ifndef DCB_GROW_H
#define DCB_GROW_H

#include <stddef.h>

/* Doubles the capacity of the array whose pointer is at array_ptr (a T **, passed as void *)
 * from *cap elements of elem bytes, or sets it to first when it is 0. 0, or -1 when out of
 * memory (the array and *cap are unchanged). Call it when the array is full:
 *
 *     if (l->n == l->cap && dcb_grow(&l->v, &l->cap, sizeof(*l->v), 64) < 0)
 *         return DCB_E_NOMEM;
 */
int dcb_grow(void *array_ptr, size_t *cap, size_t elem, size_t first);

#endif
