/* Netlink attributes (struct nlattr, host order, 4-byte aligned) walked through the bounded
 * reader: the one walker the DCB and RDMA netlink parsers share. */
#ifndef DCB_NL_ATTR_H
#define DCB_NL_ATTR_H

#include <stdint.h>

#include "reader.h"

/* Called for each attribute with its payload as a sub-reader; non-zero stops the walk. */
typedef int (*nl_attr_fn)(uint16_t type, struct dcb_reader *payload, void *arg);

/* 0 when every attribute was walked (the last may omit its padding), -1 when one is malformed,
 * or what fn returned. */
int nl_attr_walk(struct dcb_reader *r, nl_attr_fn fn, void *arg);

#endif
