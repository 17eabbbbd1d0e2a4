#include "unit.h"

#include <stdio.h>

#include "err.h"
#include "metrics.h"
#include "sample.h"

static void names_are_unique_and_dotted(void **state)
{
    (void)state;
    assert_true(METRIC_COUNT >= 50);
    for (int i = 0; i < METRIC_COUNT; i++) {
        const struct metric_info *m = metric_info((enum metric_id)i);
        assert_non_null(m);
        assert_int_equal(m->id, i);
        assert_non_null(strchr(m->name, '.'));
        assert_true(strlen(m->help) > 10);
        assert_int_equal(metric_lookup(m->name), i);
        for (int j = i + 1; j < METRIC_COUNT; j++)
            assert_string_not_equal(m->name, metric_info((enum metric_id)j)->name);
    }
    assert_null(metric_info(METRIC_COUNT));
    assert_null(metric_info(METRIC_NONE));
    assert_int_equal(metric_lookup("pfc.nope"), METRIC_NONE);
    assert_int_equal(metric_lookup(NULL), METRIC_NONE);
}

static void first_set_from_the_architecture(void **state)
{
    (void)state;
    static const char *const required[] = {
        "port.rx_bytes",
        "prio.tx_packets",
        "pfc.rx_pause",
        "pfc.tx_pause_us",
        "pfc.rx_transitions",
        "pause.rx_global",
        "pause.storm_error",
        "ecn.marked",
        "roce.ecn_marked_rx",
        "cnp.sent",
        "cnp.handled",
        "cnp.ignored",
        "roce.out_of_sequence",
        "roce.retransmits",
        "drop.prio",
        "queue.wred_drops",
        "queue.depth_bytes",
        "pg.headroom_watermark_bytes",
        "pg.drops",
        "pfcwd.rx_drop",
        "link.down_events",
        "pci.stalled_wr",
    };
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
        assert_int_not_equal(metric_lookup(required[i]), METRIC_NONE);
    const struct metric_info *m = metric_info(metric_lookup("pfc.rx_pause"));
    assert_int_equal(m->kind, METRIC_COUNTER);
    assert_int_equal(m->labels, LABELS_PRIO);
    m = metric_info(metric_lookup("queue.depth_bytes"));
    assert_int_equal(m->kind, METRIC_GAUGE);
    assert_int_equal(m->labels, LABELS_QUEUE);
}

static void prometheus_names_in_base_units(void **state)
{
    (void)state;
    char b[128];
    assert_string_equal(metric_prom_name(METRIC_PFC_RX_PAUSE, b, sizeof(b)),
                        "dcbkit_pfc_rx_pause_total");
    assert_string_equal(metric_prom_name(METRIC_PFC_RX_PAUSE_US, b, sizeof(b)),
                        "dcbkit_pfc_rx_pause_seconds_total");
    assert_true(metric_prom_scale(METRIC_PFC_RX_PAUSE_US) == 1e-6);
    assert_string_equal(metric_prom_name(METRIC_PORT_RX_BYTES, b, sizeof(b)),
                        "dcbkit_port_rx_bytes_total");
    assert_string_equal(metric_prom_name(METRIC_QUEUE_DEPTH_BYTES, b, sizeof(b)),
                        "dcbkit_queue_depth_bytes");
    assert_true(metric_prom_scale(METRIC_QUEUE_DEPTH_BYTES) == 1.0);
    assert_string_equal(metric_prom_name(METRIC_LINK_SPEED_BPS, b, sizeof(b)),
                        "dcbkit_link_speed_bytes_per_second");
    assert_true(metric_prom_scale(METRIC_LINK_SPEED_BPS) == 0.125);
    assert_int_equal(metric_info(METRIC_LINK_SPEED_BPS)->kind, METRIC_GAUGE);
    assert_string_equal(metric_unit_name(UNIT_BITS_PER_SECOND), "bits/s");
}

static void events_and_samples(void **state)
{
    (void)state;
    assert_string_equal(dcb_event_kind_name(EVENT_COUNTER_RESET), "counter_reset");
    assert_int_equal(dcb_event_kind_lookup("pfc_xoff"), EVENT_PFC_XOFF);
    assert_int_equal(dcb_event_kind_lookup("finding"), EVENT_FINDING);
    assert_int_equal(dcb_event_kind_lookup("bogus"), EVENT_KIND_NONE);
    assert_string_equal(dcb_event_kind_name(EVENT_KIND_COUNT), "unknown");

    struct dcb_sample s;
    dcb_sample_set(&s, 42, "leaf1", "Ethernet0", METRIC_PFC_RX_PAUSE, 3, DCB_NO_INDEX);
    s.value.counter = 7;
    assert_string_equal(s.device, "leaf1");
    assert_int_equal(s.prio, 3);
    assert_int_equal(s.queue, -1);

    char longname[200];
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    dcb_sample_set(&s, 0, longname, longname, METRIC_PFC_RX_PAUSE, 0, 0);
    assert_int_equal(strlen(s.device), DCB_DEVICE_MAX - 1);
    assert_int_equal(strlen(s.ifname), DCB_IFNAME_MAX - 1);

    struct dcb_event e;
    dcb_event_set(&e, 1, EVENT_COUNTER_RESET, "h1", "eth2", -1, NULL);
    assert_string_equal(e.details, "{}");
    char big[DCB_DETAILS_MAX + 10];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    dcb_event_set(&e, 1, EVENT_DROP, "h1", "eth2", 3, big);
    assert_string_equal(e.details, "{\"truncated\":true}");
}

static void errors_carry_messages(void **state)
{
    (void)state;
    struct dcb_err err;
    assert_int_equal(dcb_err_set(&err, DCB_E_RANGE, "pfc.enabled: 0x%x has bits above priority 7",
                                 0x1ff),
                     DCB_E_RANGE);
    assert_string_equal(err.msg, "pfc.enabled: 0x1ff has bits above priority 7");
    assert_int_equal(dcb_err_set(NULL, DCB_E_IO, "x"), DCB_E_IO);
    dcb_err_clear(&err);
    assert_int_equal(err.code, 0);
    assert_string_equal(dcb_strerror(DCB_E_TRUNC), "truncated input");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_are_unique_and_dotted),
        cmocka_unit_test(first_set_from_the_architecture),
        cmocka_unit_test(prometheus_names_in_base_units),
        cmocka_unit_test(events_and_samples),
        cmocka_unit_test(errors_carry_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
