/* libFuzzer: a QoS config as JSON, and the same bytes as a --set assignment. Whatever loads
 * must save and load back to the same config (unknown fields staying unknown). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qos_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    struct qos_config c;
    qos_config_init(&c);
    struct dcb_err err;
    qos_set_assignment(&c, text, &err);

    qos_config_init(&c);
    cJSON *j = cJSON_Parse(text);
    if (j && qos_from_json(&c, j, "", &err) == 0) {
        cJSON *saved = qos_to_json(&c);
        struct qos_config back;
        qos_config_init(&back);
        if (qos_from_json(&back, saved, "", &err) != 0 || qos_diff(&c, &back, NULL, NULL) != 0)
            abort();
        qos_validate(&c, "", &err);
        cJSON_Delete(saved);
    }
    cJSON_Delete(j);
    free(text);
    return 0;
}
