/* libFuzzer: one line of `dcbkit store import` input (JSON Lines samples, events and config
 * snapshots written by users or other tools). Whatever parses must name a known metric or
 * event kind, and a config's JSON must be a string the store can keep. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record_json.h"
#include "sample_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    if (!line)
        return 0;
    memcpy(line, data, size);
    line[size] = '\0';
    struct dcb_sample s;
    char why[300];
    if (dcb_sample_from_json(line, &s, why, sizeof(why)) == 0 && !metric_info(s.metric))
        abort();
    struct dcb_record r;
    if (dcb_record_from_json(line, &r, why, sizeof(why)) == 0) {
        if (r.kind == RECORD_SAMPLE && !metric_info(r.sample.metric))
            abort();
        if (r.kind == RECORD_EVENT && !dcb_event_kind_name(r.event.kind))
            abort();
        if (r.kind == RECORD_CONFIG && (!r.json || !r.source[0]))
            abort();
        free(r.json);
    }
    free(line);
    return 0;
}
