/* libFuzzer: the scenario loader (JSON users write: fabric, workload, faults, options) with
 * --set overrides taken from the input's trailing "\n--set PATH=VALUE" lines; whatever loads runs
 * for a few simulated microseconds, so faults and workloads meet the simulator too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

#define MAX_SETS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *sets[MAX_SETS];
    size_t nsets = 0, len = size;
    for (char *s = strstr(text, "\n--set "); s && nsets < MAX_SETS; s = strstr(s + 1, "\n--set ")) {
        if (nsets == 0)
            len = (size_t)(s - text);
        *s = '\0';
        sets[nsets++] = s + 7;
        char *nl = strchr(s + 7, '\n');
        if (nl)
            *nl = '\0';
        s = nl ? nl - 1 : s + 6;
    }
    struct scenario sc;
    struct dcb_err err;
    /* a fabric named by path is looked up in a folder that does not exist */
    if (scenario_load_text(&sc, text, len, "fuzz", "/nonexistent-dcbkit-fuzz", sets, nsets, &err) ==
        0) {
        if (sc.fabric.ndevices <= 64 && sc.workload.nflows <= 64) {
            if (sc.options.duration_ns > 20000)
                sc.options.duration_ns = 20000;
            if (sc.options.sample_interval_ns > 0 && sc.options.sample_interval_ns < 5000)
                sc.options.sample_interval_ns = 5000;
            if (sc.options.series_interval_ns > 0 && sc.options.series_interval_ns < 5000)
                sc.options.series_interval_ns = 5000;
            struct scenario_run_options ro = { .duration_ns = sc.options.duration_ns };
            struct scenario_result res;
            if (scenario_run(&sc, &ro, NULL, &res, &err) == 0)
                scenario_result_free(&res);
        }
        scenario_free(&sc);
    }
    free(text);
    return 0;
}
