#include "unit.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "event_details.h"
#include "out_event.h"
#include "sample_json.h"

/* The value of key in the object text, parsed back: what any JSON reader would see. */
static char *string_back(const char *json, const char *key)
{
    cJSON *j = cJSON_Parse(json);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, key);
    char *s = cJSON_IsString(v) ? strdup(v->valuestring) : NULL;
    cJSON_Delete(j);
    return s;
}

static void hostile_names_stay_one_string(void **state)
{
    (void)state;
    static const char *const names[] = { "rx_\"evil\"", "rx_back\\slash\x01", "a\",\"b\":\"c",
                                         "tab\there", "\x7f" };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        struct event_details d;
        event_details_init(&d);
        event_details_str(&d, "counter", names[i]);
        event_details_u64(&d, "previous", 100);
        const char *json = event_details_json(&d);
        assert_true(event_details_valid(json));
        char *back = string_back(json, "counter");
        assert_non_null(back);
        assert_string_equal(back, names[i]);
        free(back);
        cJSON *j = cJSON_Parse(json);
        assert_int_equal(cJSON_GetArraySize(j), 2); /* no key smuggled in */
        cJSON_Delete(j);
    }
}

static void numbers_and_bools(void **state)
{
    (void)state;
    struct event_details d;
    event_details_init(&d);
    assert_string_equal(event_details_json(&d), "{}");
    event_details_init(&d);
    event_details_u64(&d, "a", UINT64_MAX);
    event_details_i64(&d, "b", -5);
    event_details_bool(&d, "c", true);
    event_details_fixed(&d, "d", 1.23456, 3);
    event_details_fixed(&d, "e", NAN, 3);
    assert_string_equal(event_details_json(&d),
                        "{\"a\":18446744073709551615,\"b\":-5,\"c\":true,\"d\":1.235,\"e\":null}");
}

static void too_long_is_truncated_not_cut(void **state)
{
    (void)state;
    char big[DCB_DETAILS_MAX];
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    struct event_details d;
    event_details_init(&d);
    event_details_str(&d, "a", "short");
    event_details_str(&d, "b", big);
    event_details_u64(&d, "c", 1);
    assert_string_equal(event_details_json(&d), "{\"truncated\":true}");
    /* {"k":"x...x"} is the value and 8 bytes: the longest that fits fills the buffer, closed */
    size_t longest = DCB_DETAILS_MAX - 1 - 8;
    for (size_t n = longest - 2; n <= longest + 2; n++) {
        big[n] = '\0';
        event_details_init(&d);
        event_details_str(&d, "k", big);
        const char *json = event_details_json(&d);
        if (n <= longest)
            assert_int_equal(strlen(json), n + 8);
        else
            assert_string_equal(json, "{\"truncated\":true}");
        assert_true(event_details_valid(json));
        big[n] = 'x';
    }
}

static void valid_means_strict_json_object(void **state)
{
    (void)state;
    assert_true(event_details_valid("{\"a\":\"\\u0001\"}"));
    assert_false(event_details_valid("{\"counter\":\"rx_\"evil\"\"}"));
    assert_false(event_details_valid("{\"counter\":\"rx_back\\slash\"}"));
    assert_false(event_details_valid("{\"a\":\"\x01\"}"));
    assert_false(event_details_valid("{\"a\":\"\xff\"}"));
    assert_false(event_details_valid("[1]"));
    assert_false(event_details_valid("{} {}"));
    assert_false(event_details_valid(""));
}

static void import_tells_lines_by_top_level_keys(void **state)
{
    (void)state;
    assert_int_equal(dcb_json_line_kind("{\"ts\":1,\"device\":\"h\",\"ifname\":\"e\","
                                        "\"metric\":\"pfc.rx_pause\",\"value\":1}"),
                     DCB_LINE_SAMPLE);
    /* a gNMI counter_reset: "metric" only inside the details */
    assert_int_equal(dcb_json_line_kind("{\"ts\":1,\"event\":\"counter_reset\",\"device\":\"h\","
                                        "\"ifname\":\"e\",\"details\":{\"metric\":\"x\"}}"),
                     DCB_LINE_EVENT);
    assert_int_equal(dcb_json_line_kind("{\"ts\":1,\"kind\":\"drop\",\"device\":\"h\","
                                        "\"ifname\":\"e\"}"),
                     DCB_LINE_EVENT);
    assert_int_equal(dcb_json_line_kind("{\"ts\":1,\"device\":\"h\",\"ifname\":\"e\","
                                        "\"counter\":\"rx_x\",\"metric\":null,\"value\":1}"),
                     DCB_LINE_RAW_COUNTER);
    assert_int_equal(dcb_json_line_kind("{\"ts\":1,\"device\":\"h\",\"ifname\":\"e\","
                                        "\"config_source\":\"lldp\",\"config\":{}}"),
                     DCB_LINE_CONFIG);
    struct dcb_event e;
    char why[128];
    assert_int_equal(dcb_event_from_json("{\"ts\":5,\"event\":\"pfc_xoff\",\"device\":\"h\","
                                         "\"ifname\":\"e\",\"prio\":3,\"details\":{\"q\":1}}",
                                         &e, why, sizeof(why)),
                     0);
    assert_true(e.kind == EVENT_PFC_XOFF && e.prio == 3 && e.time_ns == 5);
    assert_string_equal(e.details, "{\"q\":1}");
    /* what the store keeps must be JSON a strict reader takes: no invalid UTF-8 let through */
    assert_int_equal(dcb_event_from_json("{\"ts\":5,\"kind\":\"drop\",\"device\":\"h\","
                                         "\"ifname\":\"e\",\"details\":{\"q\":\"\xff\"}}",
                                         &e, why, sizeof(why)),
                     -1);
    assert_string_equal(why, "an event's details must be valid UTF-8");
}

static char *printed(const struct dcb_event *e, enum out_format format,
                     const struct out_event_form *form)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    struct dcb_out o;
    out_init(&o, fp, format);
    out_event(&o, e, form);
    fclose(fp);
    return buf;
}

static void out_event_forms(void **state)
{
    (void)state;
    struct dcb_event e;
    dcb_event_set(&e, 7, EVENT_COUNTER_RESET, "gpu1", "eth0", -1, "{\"counter\":\"rx_\\\"q\\\"\"}");
    const struct out_event_form stream = { .kind = "event %s ",
                                           .ifname = "%s ",
                                           .details = "%s\n",
                                           .stream = true };
    char *s = printed(&e, OUT_JSON, &stream);
    assert_string_equal(s, "{\"schema\":2,\"ts\":7,\"kind\":\"counter_reset\",\"event\":"
                           "\"counter_reset\",\"device\":\"gpu1\",\"ifname\":\"eth0\",\"prio\":-1,"
                           "\"details\":{\"counter\":\"rx_\\\"q\\\"\"}}\n");
    free(s);
    s = printed(&e, OUT_TEXT, &stream);
    assert_string_equal(s, "event counter_reset eth0 {\"counter\":\"rx_\\\"q\\\"\"}\n");
    free(s);
    /* a row a store kept before the builder: still one JSON line */
    const struct out_event_form row = { .stream = false };
    dcb_event_set(&e, 7, EVENT_COUNTER_RESET, "gpu1", "eth0", -1, "{\"counter\":\"rx_\"evil\"\"}");
    s = printed(&e, OUT_JSON, &row);
    assert_string_equal(s, "{\"ts\":7,\"kind\":\"counter_reset\",\"device\":\"gpu1\",\"ifname\":"
                           "\"eth0\",\"prio\":-1,\"details\":{\"unparsed\":"
                           "\"{\\\"counter\\\":\\\"rx_\\\"evil\\\"\\\"}\"}}\n");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hostile_names_stay_one_string),
        cmocka_unit_test(numbers_and_bools),
        cmocka_unit_test(too_long_is_truncated_not_cut),
        cmocka_unit_test(valid_means_strict_json_object),
        cmocka_unit_test(import_tells_lines_by_top_level_keys),
        cmocka_unit_test(out_event_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
