#ifndef DCB_FABRIC_JSON_H
#define DCB_FABRIC_JSON_H

#include <cjson/cJSON.h>

#include "fabric.h"

/* The fabric as a fabric file with generators expanded; NULL when out of memory. */
cJSON *fabric_to_json(const struct fabric *f);

#endif
