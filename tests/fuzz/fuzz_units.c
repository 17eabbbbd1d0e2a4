/* libFuzzer: the unit parsers (--link-speed, sizes, durations, cable lengths) on arbitrary text,
 * and the printers on whatever parsed: printed values must parse back. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[256];
    size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;
    memcpy(text, data, n);
    text[n] = '\0';

    struct dcb_err err;
    char buf[DCB_UNIT_BUF];
    uint64_t v;
    int64_t ns;
    if (dcb_parse_speed(text, &v, &err) == 0 && v < 1000000000000000ULL) {
        uint64_t back;
        dcb_fmt_speed(v, buf, sizeof(buf));
        if (dcb_parse_speed(buf, &back, NULL) != 0)
            abort();
    }
    if (dcb_parse_bytes(text, &v, &err) == 0)
        dcb_fmt_bytes(v, buf, sizeof(buf));
    if (dcb_parse_length(text, &v, &err) == 0)
        dcb_fmt_length(v, buf, sizeof(buf));
    if (dcb_parse_duration(text, &ns, &err) == 0) {
        if (ns < 0)
            abort();
        dcb_fmt_duration_ns((double)ns, buf, sizeof(buf));
    }
    return 0;
}
