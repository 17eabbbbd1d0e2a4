#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "qos_config.h"
#include "qos_fields.h"
#include "qos_json.h"

/* A valid value for a field, as a user would type it, and the text get() returns for it. */
static void sample_value(const struct qos_field *f, char *in, char *out, size_t len)
{
    switch (f->type) {
    case QF_BOOL:
        snprintf(in, len, "yes");
        snprintf(out, len, "true");
        break;
    case QF_ENUM:
        snprintf(in, len, "%s", f->names[1].name ? f->names[1].name : f->names[0].name);
        snprintf(out, len, "%s", in);
        break;
    case QF_MASK:
        snprintf(in, len, "24");
        snprintf(out, len, "0x18");
        break;
    case QF_BYTES:
        if (f->max < 100000) {
            snprintf(in, len, "%lld", (long long)f->max);
            snprintf(out, len, "%s", in);
        } else {
            snprintf(in, len, "150KB");
            snprintf(out, len, "150000");
        }
        break;
    case QF_SPEED:
        snprintf(in, len, "400G");
        snprintf(out, len, "400G");
        break;
    case QF_MBPS:
        snprintf(in, len, "2G");
        snprintf(out, len, "2000");
        break;
    case QF_MS:
        snprintf(in, len, "0.4s");
        snprintf(out, len, "400ms");
        break;
    case QF_US:
        snprintf(in, len, "55");
        snprintf(out, len, "55us");
        break;
    case QF_LENGTH:
        snprintf(in, len, "250cm");
        snprintf(out, len, "2.5m");
        break;
    case QF_APP:
        snprintf(in, len, "3:4791:3, 5:26:3");
        snprintf(out, len, "3:4791:3,5:26:3");
        break;
    default:
        snprintf(in, len, "%lld", (long long)(f->max > 5 ? 5 : f->max));
        snprintf(out, len, "%s", in);
    }
}

struct path_list {
    int n;
    char paths[512][QOS_PATH_MAX];
};

static void collect_path(const char *path, const char *text, const char *help, void *arg)
{
    (void)help;
    struct path_list *l = arg;
    assert_null(text); /* a new config knows nothing */
    assert_true(l->n < 512);
    snprintf(l->paths[l->n++], QOS_PATH_MAX, "%s", path);
}

static int count_set(const struct qos_config *c)
{
    struct qos_config empty;
    qos_config_init(&empty);
    return qos_diff(&empty, c, NULL, NULL);
}

/* Every dotted path: set, get, save, load, get again; everything else stays unknown. */
static void every_path_round_trips(void **state)
{
    (void)state;
    static struct path_list paths;
    struct qos_config empty;
    qos_config_init(&empty);
    paths.n = 0;
    qos_each_field(&empty, collect_path, &paths);
    assert_true(paths.n > 180);
    for (int i = 0; i < paths.n; i++) {
        const char *path = paths.paths[i];
        int index;
        const struct qos_field *f = qos_find_field(path, &index);
        assert_non_null(f);
        char in[128], want[128], got[QOS_TEXT_MAX];
        sample_value(f, in, want, sizeof(in));
        struct qos_config c;
        qos_config_init(&c);
        struct dcb_err err;
        if (qos_set(&c, path, in, &err) != 0)
            fail_msg("%s=%s: %s", path, in, err.msg);
        assert_int_equal(qos_get(&c, path, got, sizeof(got), &err), 0);
        if (strcmp(got, want) != 0)
            fail_msg("%s: set '%s', got '%s', wanted '%s'", path, in, got, want);
        assert_int_equal(count_set(&c), 1);

        cJSON *j = qos_to_json(&c);
        char *text = cJSON_PrintUnformatted(j);
        cJSON_Delete(j);
        cJSON *back = cJSON_Parse(text);
        struct qos_config loaded;
        qos_config_init(&loaded);
        if (qos_from_json(&loaded, back, "", &err) != 0)
            fail_msg("%s: reload of %s: %s", path, text, err.msg);
        cJSON_Delete(back);
        assert_int_equal(qos_get(&loaded, path, got, sizeof(got), &err), 0);
        if (strcmp(got, want) != 0)
            fail_msg("%s: after save/load of %s got '%s'", path, text, got);
        assert_int_equal(qos_diff(&c, &loaded, NULL, NULL), 0);
        assert_int_equal(count_set(&loaded), 1); /* nothing else became 0 */
        free(text);
    }
}

static void aliases_and_prefixes(void **state)
{
    (void)state;
    struct qos_config c;
    qos_config_init(&c);
    char got[64];
    assert_int_equal(qos_set(&c, "wred.3.min_bytes", "1MiB", NULL), 0);
    assert_int_equal(qos_get(&c, "switch.wred.3.min_bytes", got, sizeof(got), NULL), 0);
    assert_string_equal(got, "1048576");
    assert_int_equal(qos_set_assignment(&c, "nic.dcqcn.rai_mbps=5", NULL), 0);
    assert_int_equal(qos_get(&c, "dcqcn.rai_mbps", got, sizeof(got), NULL), 0);
    assert_string_equal(got, "5");
    assert_int_equal(qos_unset(&c, "dcqcn.rai_mbps", NULL), 0);
    assert_int_equal(qos_get(&c, "nic.dcqcn.rai_mbps", got, sizeof(got), NULL), DCB_E_NOTFOUND);
}

static void errors_name_path_and_value(void **state)
{
    (void)state;
    struct qos_config c;
    qos_config_init(&c);
    struct dcb_err err;
    static const struct {
        const char *assign, *msg;
    } bad[] = {
        { "pfc.enabled=0x1ff", "pfc.enabled: 0x1ff has bits above priority 7" },
        { "dscp2prio.26=9", "dscp2prio.26: 9 is out of range (0 to 7)" },
        { "dscp2prio.64=1", "dscp2prio.64: no such setting (see 'dcbkit fabric paths')" },
        { "trust=mpls", "trust: 'mpls' is not one of dscp|pcp" },
        { "switch.wred.3.min_bytes=lots",
          "switch.wred.3.min_bytes: 'lots': size must start with a number" },
        { "speed_bps=400X", "speed_bps: '400X': unknown link speed unit 'X'" },
        { "switch.pfcwd.detect_ms=5us",
          "switch.pfcwd.detect_ms: '5us' is not a whole number of ms" },
        { "app=5:99:3", "app: entry 5:99:3 out of range (selector 1-5, protocol 0-65535, DSCP "
                        "0-63, priority 0-7)" },
        { "app=5:26", "app: '5:26' is not a list of selector:protocol:priority" },
        { "pfc.willing=maybe", "pfc.willing: 'maybe' is not true or false" },
        { "nonsense", "'nonsense': expected path=value" },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_not_equal(qos_set_assignment(&c, bad[i].assign, &err), 0);
        if (strcmp(err.msg, bad[i].msg) != 0)
            fail_msg("%s: got '%s'", bad[i].assign, err.msg);
    }
    assert_int_equal(count_set(&c), 0); /* nothing half-set */
}

struct diff_rows {
    int n;
    char rows[8][128];
};

static void diff_row(const char *path, const char *a, const char *b, void *arg)
{
    struct diff_rows *d = arg;
    snprintf(d->rows[d->n++ % 8], 128, "%s %s %s", path, a ? a : "unknown", b ? b : "unknown");
}

static void diff_shows_path_old_new(void **state)
{
    (void)state;
    struct qos_config a, b;
    qos_config_init(&a);
    qos_config_init(&b);
    qos_set(&a, "pfc.enabled", "0x08", NULL);
    qos_set(&b, "pfc.enabled", "0x18", NULL);
    qos_set(&b, "dscp2prio.26", "3", NULL);
    qos_set(&a, "mtu", "9216", NULL);
    qos_set(&b, "mtu", "9216", NULL);
    struct diff_rows d = { 0 };
    assert_int_equal(qos_diff(&a, &b, diff_row, &d), 2);
    assert_string_equal(d.rows[0], "dscp2prio.26 unknown 3");
    assert_string_equal(d.rows[1], "pfc.enabled 0x08 0x18");
}

static void merge_and_validate(void **state)
{
    (void)state;
    struct qos_config def, dev;
    qos_config_init(&def);
    qos_config_init(&dev);
    qos_set(&def, "pfc.enabled", "0x08", NULL);
    qos_set(&def, "mtu", "9216", NULL);
    qos_set(&dev, "mtu", "4200", NULL);
    qos_merge(&def, &dev);
    char got[32];
    qos_get(&def, "mtu", got, sizeof(got), NULL);
    assert_string_equal(got, "4200");
    qos_get(&def, "pfc.enabled", got, sizeof(got), NULL);
    assert_string_equal(got, "0x08");

    struct dcb_err err;
    assert_int_equal(qos_validate(&def, "", &err), 0);
    qos_set(&def, "wred.3.min_bytes", "2MB", NULL);
    qos_set(&def, "wred.3.max_bytes", "1MB", NULL);
    assert_int_not_equal(qos_validate(&def, "devices[1].config.", &err), 0);
    assert_string_equal(err.msg, "devices[1].config.switch.wred.3.min_bytes: 2000000 is above "
                                 "max_bytes 1000000");
    qos_config_init(&def);
    char p[16];
    for (int tc = 0; tc < 8; tc++) {
        snprintf(p, sizeof(p), "ets.bw.%d", tc);
        qos_set(&def, p, tc == 3 ? "50" : "10", NULL);
    }
    assert_int_not_equal(qos_validate(&def, "", &err), 0);
    assert_string_equal(err.msg, "ets.bw: sums to 120%, not 100%");
}

static void json_errors_carry_prefix(void **state)
{
    (void)state;
    struct qos_config c;
    qos_config_init(&c);
    struct dcb_err err;
    cJSON *j = cJSON_Parse("{\"pfc\": {\"enabled\": 511}}");
    assert_int_not_equal(qos_from_json(&c, j, "devices[2].config.", &err), 0);
    assert_string_equal(err.msg, "devices[2].config.pfc.enabled: 0x1ff has bits above priority 7");
    cJSON_Delete(j);
    j = cJSON_Parse("{\"pfc\": {\"enabeld\": 8}}");
    assert_int_not_equal(qos_from_json(&c, j, "defaults.", &err), 0);
    assert_string_equal(err.msg,
                        "defaults.pfc.enabeld: no such setting (see 'dcbkit fabric paths')");
    cJSON_Delete(j);
    j = cJSON_Parse("{\"prio2tc\": [0, null, 0, 3], \"cable_m\": 2.5, \"mtu\": \"9KiB\"}");
    assert_int_equal(qos_from_json(&c, j, "", &err), 0);
    cJSON_Delete(j);
    char got[32];
    assert_int_equal(qos_get(&c, "prio2tc.1", got, sizeof(got), NULL), DCB_E_NOTFOUND);
    qos_get(&c, "prio2tc.3", got, sizeof(got), NULL);
    assert_string_equal(got, "3");
    qos_get(&c, "cable_m", got, sizeof(got), NULL);
    assert_string_equal(got, "2.5m");
    qos_get(&c, "mtu", got, sizeof(got), NULL);
    assert_string_equal(got, "9216");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_path_round_trips),     cmocka_unit_test(aliases_and_prefixes),
        cmocka_unit_test(errors_name_path_and_value), cmocka_unit_test(diff_shows_path_old_new),
        cmocka_unit_test(merge_and_validate),         cmocka_unit_test(json_errors_carry_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
