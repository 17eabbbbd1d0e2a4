#include "unit.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>

#include "prom.h"

static const char *label(const char *in, struct prom_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
    prom_put_label_value(b, in);
    return b->data ? b->data : "";
}

static void label_values_are_escaped(void **state)
{
    (void)state;
    struct prom_buf b;
    prom_buf_init(&b);
    assert_string_equal(label("eth0", &b), "eth0");
    assert_string_equal(label("a\"b\\c\nd", &b), "a\\\"b\\\\c\\nd");
    assert_string_equal(label("tab\there", &b), "tab\there"); /* tabs are fine in values */
    assert_string_equal(label("caf\xc3\xa9", &b), "caf\xc3\xa9");
    assert_string_equal(label("bad\xff\xc3(", &b), "bad\xef\xbf\xbd\xef\xbf\xbd(");
    assert_string_equal(label("", &b), "");
    b.len = 0;
    prom_put_help(&b, "quote \" stays, \\ and \n do not");
    assert_string_equal(b.data, "quote \" stays, \\\\ and \\n do not");
    prom_buf_free(&b);
}

static const char *value_of(const struct dcb_sample *s, struct prom_buf *b)
{
    b->len = 0;
    prom_put_sample_value(b, s);
    return b->data;
}

static void values_in_base_units(void **state)
{
    (void)state;
    struct prom_buf b;
    prom_buf_init(&b);
    struct dcb_sample s;
    dcb_sample_set(&s, 0, "d", "e", METRIC_PFC_RX_PAUSE_US, 3, -1);
    s.value.counter = 1234567;
    assert_string_equal(value_of(&s, &b), "1.234567"); /* microseconds -> seconds, exact */
    s.value.counter = 18446744073709551615ULL;
    assert_string_equal(value_of(&s, &b), "18446744073709.551615");
    dcb_sample_set(&s, 0, "d", "e", METRIC_PFC_RX_PAUSE, 3, -1);
    s.value.counter = 18446744073709551615ULL;
    assert_string_equal(value_of(&s, &b), "18446744073709551615");
    dcb_sample_set(&s, 0, "d", "e", METRIC_LINK_SPEED_BPS, -1, -1);
    s.value.gauge = 400e9;
    assert_string_equal(value_of(&s, &b), "50000000000"); /* bits/s -> bytes/s */
    dcb_sample_set(&s, 0, "d", "e", METRIC_QUEUE_DEPTH_BYTES, -1, 3);
    s.value.gauge = 0.1;
    assert_string_equal(value_of(&s, &b), "0.1");
    s.value.gauge = NAN;
    assert_string_equal(value_of(&s, &b), "NaN");
    s.value.gauge = -INFINITY;
    assert_string_equal(value_of(&s, &b), "-Inf");
    s.value.gauge = 1.0 / 3.0;
    assert_true(strtod(value_of(&s, &b), NULL) == 1.0 / 3.0);
    prom_buf_free(&b);
}

static void page_groups_families(void **state)
{
    (void)state;
    struct dcb_sample v[4];
    dcb_sample_set(&v[0], 1, "sw1", "Ethernet8", METRIC_PFC_RX_PAUSE, 3, -1);
    v[0].value.counter = 7;
    dcb_sample_set(&v[1], 1, "h1", "eth0", METRIC_PORT_RX_BYTES, -1, -1);
    v[1].value.counter = 100;
    dcb_sample_set(&v[2], 1, "sw1", "Ethernet0", METRIC_PFC_RX_PAUSE, 3, -1);
    v[2].value.counter = 5;
    dcb_sample_set(&v[3], 1, "sw1", "Ethernet0", METRIC_QUEUE_DEPTH_BYTES, -1, 3);
    v[3].value.gauge = 2048;
    struct prom_finding f[4] = {
        { "pfc-storm", "crit", "sw1", "Ethernet0", 3, NULL },
        { "cfg-trust", "warn", "h1", "eth0", -1, NULL },
        { "pfc-storm", "crit", "sw1", "Ethernet0", 3, NULL }, /* a duplicate: written once */
        { "relay", "info", "sw1", "Ethernet8", 3, "victim" },
    };
    struct prom_source_stat src = { "local", 2, 4, 0.5, 1700000000123456789LL };
    struct prom_topology tp[2] = {
        { "sw1", "Ethernet8", "switch", "h\"9", "eth0", "host" },
        { "h1", "eth0", "host", "", "", "" }, /* no link partner known */
    };
    struct prom_missing_path mp[1] = { { "sw1", "COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd" } };
    struct prom_page page = { v, 4, f, 4, &src, 1, "1.0", NULL, 0, NULL, 0, tp, 2, mp, 1 };
    struct prom_buf b;
    prom_buf_init(&b);
    assert_int_equal(prom_render_page(&b, &page, NULL), 0);
    const char *want =
        "# HELP dcbkit_port_rx_bytes_total Bytes received on the physical port\n"
        "# TYPE dcbkit_port_rx_bytes_total counter\n"
        "dcbkit_port_rx_bytes_total{device=\"h1\",ifname=\"eth0\"} 100\n"
        "# HELP dcbkit_pfc_rx_pause_total PFC frames received for a priority\n"
        "# TYPE dcbkit_pfc_rx_pause_total counter\n"
        "dcbkit_pfc_rx_pause_total{device=\"sw1\",ifname=\"Ethernet0\",prio=\"3\"} 5\n"
        "dcbkit_pfc_rx_pause_total{device=\"sw1\",ifname=\"Ethernet8\",prio=\"3\"} 7\n"
        "# HELP dcbkit_queue_depth_bytes Current depth of a switch egress queue\n"
        "# TYPE dcbkit_queue_depth_bytes gauge\n"
        "dcbkit_queue_depth_bytes{device=\"sw1\",ifname=\"Ethernet0\",queue=\"3\"} 2048\n";
    assert_memory_equal(b.data, want, strlen(want));
    assert_non_null(strstr(b.data, "dcbkit_finding{rule=\"cfg-trust\",severity=\"warn\","
                                   "device=\"h1\",ifname=\"eth0\"} 1\n"
                                   "dcbkit_finding{rule=\"pfc-storm\",severity=\"crit\","
                                   "device=\"sw1\",ifname=\"Ethernet0\",prio=\"3\"} 1\n"
                                   "dcbkit_finding{rule=\"relay\",severity=\"info\","
                                   "device=\"sw1\",ifname=\"Ethernet8\",prio=\"3\","
                                   "cause=\"victim\"} 1\n#"));
    assert_non_null(strstr(b.data, "# TYPE dcbkit_topology_info gauge\n"
                                   "dcbkit_topology_info{device=\"sw1\",ifname=\"Ethernet8\","
                                   "role=\"switch\",peer_device=\"h\\\"9\",peer_ifname=\"eth0\","
                                   "peer_role=\"host\"} 1\n"
                                   "dcbkit_topology_info{device=\"h1\",ifname=\"eth0\","
                                   "role=\"host\"} 1\n"));
    assert_non_null(strstr(b.data, "# TYPE dcbkit_source_missing_path gauge\n"
                                   "dcbkit_source_missing_path{device=\"sw1\","
                                   "path=\"COUNTERS_DB:COUNTERS/Ethernet*/Pfcwd\"} 1\n"));
    assert_non_null(strstr(b.data, "dcbkit_scrape_errors_total{source=\"local\"} 2\n"));
    assert_non_null(strstr(b.data, "dcbkit_last_collect_timestamp_seconds{source=\"local\"} "
                                   "1700000000.123456789\n"));
    assert_non_null(strstr(b.data, "dcbkit_build_info{version=\"1.0\"} 1\n"));
    prom_buf_free(&b);
}

/* serve --store with no fresh sample and no finding: NULL arrays with a zero count (qsort of a
 * null array is undefined; the sanitizer build aborted here) */
static void empty_page(void **state)
{
    (void)state;
    struct prom_source_stat src = { "store", 0, 0, 0, 0 };
    struct prom_page page = {
        NULL, 0, NULL, 0, &src, 1, "1.0", NULL, 0, NULL, 0, NULL, 0, NULL, 0
    };
    struct prom_buf b;
    prom_buf_init(&b);
    assert_int_equal(prom_render_page(&b, &page, NULL), 0);
    assert_null(strstr(b.data, "dcbkit_finding{"));
    assert_non_null(strstr(b.data, "dcbkit_build_info{version=\"1.0\"} 1\n"));
    prom_buf_free(&b);
}

static void accept_encoding(void **state)
{
    (void)state;
    assert_true(prom_accepts_gzip("gzip"));
    assert_true(prom_accepts_gzip("gzip, deflate, br")); /* curl --compressed */
    assert_true(prom_accepts_gzip("deflate;q=1.0, GZIP;q=0.5"));
    assert_true(prom_accepts_gzip("x-gzip"));
    assert_true(prom_accepts_gzip("*"));
    assert_true(prom_accepts_gzip("identity, *;q=0.1"));
    assert_false(prom_accepts_gzip(NULL));
    assert_false(prom_accepts_gzip(""));
    assert_false(prom_accepts_gzip("identity"));
    assert_false(prom_accepts_gzip("deflate, br"));
    assert_false(prom_accepts_gzip("gzip;q=0"));
    assert_false(prom_accepts_gzip("gzip; q=0.000, deflate"));
    assert_false(prom_accepts_gzip("*, gzip;q=0")); /* named beats the star */
    assert_false(prom_accepts_gzip("gzipper"));
    assert_false(prom_accepts_gzip("*;q=0"));
}

static void routes(void **state)
{
    (void)state;
    assert_int_equal(prom_route("GET", "/metrics"), PROM_ROUTE_METRICS);
    assert_int_equal(prom_route("HEAD", "/metrics?x=1"), PROM_ROUTE_METRICS);
    assert_int_equal(prom_route("GET", "/healthz"), PROM_ROUTE_HEALTH);
    assert_int_equal(prom_route("GET", "/"), PROM_ROUTE_INDEX);
    assert_int_equal(prom_route("GET", "/metricsx"), PROM_ROUTE_NOT_FOUND);
    assert_int_equal(prom_route("GET", "/metrics/"), PROM_ROUTE_NOT_FOUND);
    assert_int_equal(prom_route("GET", ""), PROM_ROUTE_NOT_FOUND);
    assert_int_equal(prom_route("POST", "/metrics"), PROM_ROUTE_BAD_METHOD);
    assert_int_equal(prom_route("get", "/metrics"), PROM_ROUTE_BAD_METHOD);
    assert_int_equal(prom_route(NULL, "/metrics"), PROM_ROUTE_NOT_FOUND);
    assert_int_equal(prom_route("GET", NULL), PROM_ROUTE_NOT_FOUND);
}

static void listen_addresses(void **state)
{
    (void)state;
    struct prom_listen l;
    struct dcb_err err;
    assert_int_equal(prom_parse_listen("127.0.0.1:9876", &l, &err), 0);
    assert_true(l.loopback);
    assert_int_equal(ntohs(((struct sockaddr_in *)&l.addr)->sin_port), 9876);
    assert_string_equal(l.text, "127.0.0.1:9876");
    assert_int_equal(prom_parse_listen("127.1.2.3:0", &l, &err), 0);
    assert_true(l.loopback);
    assert_int_equal(prom_parse_listen("0.0.0.0:9876", &l, &err), 0);
    assert_false(l.loopback);
    assert_int_equal(prom_parse_listen("10.0.0.5:80", &l, &err), 0);
    assert_false(l.loopback);
    assert_int_equal(prom_parse_listen("[::1]:9876", &l, &err), 0);
    assert_true(l.loopback);
    assert_int_equal(l.addr.ss_family, AF_INET6);
    assert_string_equal(l.text, "[::1]:9876");
    assert_int_equal(prom_parse_listen("[::]:9876", &l, &err), 0);
    assert_false(l.loopback);
    static const char *const bad[] = {
        "",           ":9876",           "9876",         "localhost:9876", "127.0.0.1",
        "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:+80",  "127.0.0.1:8x",
        "::1:9876",   "[::1]9876",       "[::1]:",       "[zz]:80",        "1.2.3.4.5:80"
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(prom_parse_listen(bad[i], &l, &err), DCB_E_INVAL);
        assert_true(strlen(err.msg) > 10);
    }
    assert_int_equal(prom_parse_listen(NULL, &l, &err), DCB_E_INVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(label_values_are_escaped),
        cmocka_unit_test(values_in_base_units),
        cmocka_unit_test(page_groups_families),
        cmocka_unit_test(empty_page),
        cmocka_unit_test(routes),
        cmocka_unit_test(accept_encoding),
        cmocka_unit_test(listen_addresses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
