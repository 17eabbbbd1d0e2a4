/* libFuzzer: one line of `dcbkit store import` input (JSON Lines samples written by users or
 * other tools). Whatever parses must name a known metric. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sample_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    if (!line)
        return 0;
    memcpy(line, data, size);
    line[size] = '\0';
    struct dcb_sample s;
    char why[128];
    if (dcb_sample_from_json(line, &s, why, sizeof(why)) == 0 && !metric_info(s.metric))
        abort();
    free(line);
    return 0;
}
