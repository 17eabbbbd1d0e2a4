/* libFuzzer: one line of `dcbkit store import` input (JSON Lines written by users or other
 * tools): a sample, an event or a config snapshot. Whatever parses must name a known metric or
 * event kind, and a config snapshot must carry its object's text; a line import skips as a raw
 * counter is no sample. */
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
    int sample = dcb_sample_from_json(line, &s, why, sizeof(why));
    if (sample == 0 && !metric_info(s.metric))
        abort();
    if (dcb_json_line_kind(line) == DCB_LINE_RAW_COUNTER && sample == 0)
        abort();
    struct dcb_event e;
    if (dcb_event_from_json(line, &e, why, sizeof(why)) == 0 &&
        (!dcb_event_kind_name(e.kind) || e.details[DCB_DETAILS_MAX - 1] != '\0'))
        abort();
    struct dcb_config_line c;
    if (dcb_config_from_json(line, &c, why, sizeof(why)) == 0 && (!c.json || c.json[0] != '{'))
        abort();
    free(c.json);
    free(line);
    return 0;
}
