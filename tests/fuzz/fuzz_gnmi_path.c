/* libFuzzer: gNMI path text as users and fabric files write it (origin:/a/b[k=v]/c). A path
 * that parses prints back to text that parses to the same elements. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gnmi_path.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[1100];
    if (size >= sizeof(text))
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    Gnmi__Path *p;
    struct dcb_err err;
    if (gnmi_path_parse(text, "T", &p, &err) < 0)
        return 0;
    char out[4096];
    int n = gnmi_path_append(out, sizeof(out), 0, p);
    if (n >= 0) {
        Gnmi__Path *q;
        if (gnmi_path_parse(out, NULL, &q, &err) < 0)
            abort();
        char again[4096];
        int m = gnmi_path_append(again, sizeof(again), 0, q);
        if (m != n || memcmp(out, again, (size_t)n))
            abort();
        gnmi_path_free(q);
    }
    gnmi_path_free(p);
    return 0;
}
