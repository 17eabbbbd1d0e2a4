/* Golden bytes: dcbkit's gNMI messages against messages encoded by hand in this file, field by
 * field, with the field numbers of gNMI v0.10 (../shared/background/telemetry.md section 2.6,
 * openconfig/gnmi proto/gnmi/gnmi.proto). A wrong number in collectors/gnmi/gnmi.proto changes
 * the bytes and fails here, even though the test peer and the client would agree. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "gnmi.pb-c.h"
#include "gnmi_msg.h"
#include "grpc_frame.h"
#include "pb_check.h"

/* A tiny protobuf writer: tags and lengths only, no schema. */
struct buf {
    uint8_t b[512];
    size_t n;
};

static void varint(struct buf *o, uint64_t v)
{
    while (v >= 0x80) {
        o->b[o->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    o->b[o->n++] = (uint8_t)v;
}

static void tag(struct buf *o, unsigned field, unsigned wiretype)
{
    varint(o, field << 3 | wiretype);
}
static void field_varint(struct buf *o, unsigned field, uint64_t v)
{
    tag(o, field, 0);
    varint(o, v);
}
static void field_bytes(struct buf *o, unsigned field, const void *p, size_t n)
{
    tag(o, field, 2);
    varint(o, n);
    memcpy(o->b + o->n, p, n);
    o->n += n;
}
static void field_str(struct buf *o, unsigned field, const char *s)
{
    field_bytes(o, field, s, strlen(s));
}
static void field_msg(struct buf *o, unsigned field, const struct buf *m)
{
    field_bytes(o, field, m->b, m->n);
}

/* PathElem{name=1, key=2 (map entry {key=1, value=2})} */
static void path_elem(struct buf *path, const char *name, const char *k, const char *v)
{
    struct buf e = { .n = 0 };
    field_str(&e, 1, name);
    if (k) {
        struct buf entry = { .n = 0 };
        field_str(&entry, 1, k);
        field_str(&entry, 2, v);
        field_msg(&e, 2, &entry);
    }
    field_msg(path, 3, &e); /* Path.elem = 3 */
}

static void expect_same(const uint8_t *got, size_t got_len, const struct buf *want)
{
    if (got_len != want->n || memcmp(got, want->b, want->n)) {
        fprintf(stderr, "got  (%zu):", got_len);
        for (size_t i = 0; i < got_len; i++)
            fprintf(stderr, " %02x", got[i]);
        fprintf(stderr, "\nwant (%zu):", want->n);
        for (size_t i = 0; i < want->n; i++)
            fprintf(stderr, " %02x", want->b[i]);
        fprintf(stderr, "\n");
    }
    assert_int_equal(got_len, want->n);
    assert_memory_equal(got, want->b, want->n);
}

static void get_request(void **state)
{
    (void)state;
    struct gnmi_request r;
    memset(&r, 0, sizeof(r));
    r.target = "COUNTERS_DB";
    r.paths[0] = "/COUNTERS/Ethernet0";
    r.npaths = 1;
    r.encoding = GNMI_ENC_JSON_IETF;
    r.get_type = 2; /* STATE */
    uint8_t *got;
    size_t len;
    assert_int_equal(gnmi_encode_get(&r, &got, &len, NULL), 0);

    struct buf prefix = { .n = 0 }, path = { .n = 0 }, want = { .n = 0 };
    field_str(&prefix, 4, "COUNTERS_DB"); /* Path.target = 4 */
    path_elem(&path, "COUNTERS", NULL, NULL);
    path_elem(&path, "Ethernet0", NULL, NULL);
    field_msg(&want, 1, &prefix); /* GetRequest.prefix = 1 */
    field_msg(&want, 2, &path);   /* GetRequest.path = 2 */
    field_varint(&want, 3, 2);    /* GetRequest.type = 3: STATE = 2 */
    field_varint(&want, 5, 4);    /* GetRequest.encoding = 5: JSON_IETF = 4 */
    expect_same(got, len, &want);
    free(got);
}

static void subscribe_request(void **state)
{
    (void)state;
    struct gnmi_request r;
    memset(&r, 0, sizeof(r));
    r.target = "OC";
    r.paths[0] = "openconfig:/interfaces/interface[name=Ethernet0]/state";
    r.npaths = 1;
    r.encoding = GNMI_ENC_JSON_IETF;
    r.mode = GNMI_POLL;
    uint8_t *got;
    size_t len;
    /* POLL: no per-subscription mode */
    assert_int_equal(gnmi_encode_subscribe(&r, &got, &len, NULL), 0);
    struct buf prefix = { .n = 0 }, path = { .n = 0 }, sub = { .n = 0 }, list = { .n = 0 },
               want = { .n = 0 };
    field_str(&prefix, 4, "OC");
    field_str(&path, 2, "openconfig"); /* Path.origin = 2 */
    path_elem(&path, "interfaces", NULL, NULL);
    path_elem(&path, "interface", "name", "Ethernet0");
    path_elem(&path, "state", NULL, NULL);
    field_msg(&sub, 1, &path);    /* Subscription.path = 1 */
    field_msg(&list, 1, &prefix); /* SubscriptionList.prefix = 1 */
    field_msg(&list, 2, &sub);    /* SubscriptionList.subscription = 2 */
    field_varint(&list, 5, 2);    /* SubscriptionList.mode = 5: POLL = 2 */
    field_varint(&list, 8, 4);    /* SubscriptionList.encoding = 8 */
    field_msg(&want, 1, &list);   /* SubscribeRequest.subscribe = 1 */
    expect_same(got, len, &want);
    free(got);

    /* STREAM SAMPLE every second */
    r.mode = GNMI_STREAM;
    r.stream_mode = GNMI_SAMPLE;
    r.sample_interval_ns = 1000000000ULL;
    r.updates_only = true;
    assert_int_equal(gnmi_encode_subscribe(&r, &got, &len, NULL), 0);
    sub.n = list.n = want.n = 0;
    field_msg(&sub, 1, &path);
    field_varint(&sub, 2, 2);             /* Subscription.mode = 2: SAMPLE = 2 */
    field_varint(&sub, 3, 1000000000ULL); /* Subscription.sample_interval = 3 (ns) */
    field_msg(&list, 1, &prefix);
    field_msg(&list, 2, &sub);
    field_varint(&list, 8, 4);
    field_varint(&list, 9, 1); /* SubscriptionList.updates_only = 9 */
    field_msg(&want, 1, &list);
    expect_same(got, len, &want);
    free(got);

    /* Poll: SubscribeRequest.poll = 3, an empty message */
    assert_int_equal(gnmi_encode_poll(&got, &len, NULL), 0);
    want.n = 0;
    field_bytes(&want, 3, "", 0);
    expect_same(got, len, &want);
    free(got);
}

struct leaves {
    int n;
    char path[4][128];
    char target[32];
    char value[4][64];
};

static int collect_leaf(const struct gnmi_leaf *l, void *arg)
{
    struct leaves *ls = arg;
    if (ls->n < 4) {
        snprintf(ls->path[ls->n], sizeof(ls->path[0]), "%s", l->path);
        gnmi_leaf_text(l, ls->value[ls->n], sizeof(ls->value[0]));
        snprintf(ls->target, sizeof(ls->target), "%s", l->target);
    }
    ls->n++;
    return 0;
}

static void subscribe_response(void **state)
{
    (void)state;
    /* by hand: SubscribeResponse{update=1: Notification{timestamp=1, prefix=2{target=4,
     * elem=3}, update=4: Update{path=1, val=3: TypedValue{json_ietf_val=11}}}} */
    static const char json[] = "{\"SAI_PORT_STAT_PFC_3_RX_PKTS\":\"1050\"}";
    struct buf prefix = { .n = 0 }, upath = { .n = 0 }, val = { .n = 0 }, upd = { .n = 0 },
               note = { .n = 0 }, want = { .n = 0 };
    path_elem(&prefix, "COUNTERS", NULL, NULL); /* fields in number order, as packers */
    field_str(&prefix, 4, "COUNTERS_DB");
    path_elem(&upath, "Ethernet0", NULL, NULL);
    field_bytes(&val, 11, json, strlen(json));      /* TypedValue.json_ietf_val = 11 */
    field_msg(&upd, 1, &upath);                     /* Update.path = 1 */
    field_msg(&upd, 3, &val);                       /* Update.val = 3 */
    field_varint(&note, 1, 1700000000123456789ULL); /* Notification.timestamp = 1 */
    field_msg(&note, 2, &prefix);                   /* Notification.prefix = 2 */
    field_msg(&note, 4, &upd);                      /* Notification.update = 4 */
    field_msg(&want, 1, &note);                     /* SubscribeResponse.update = 1 */

    /* the same message through protobuf-c */
    Gnmi__PathElem e1 = GNMI__PATH_ELEM__INIT, e2 = GNMI__PATH_ELEM__INIT;
    e1.name = (char *)"COUNTERS";
    e2.name = (char *)"Ethernet0";
    Gnmi__PathElem *pe1[] = { &e1 }, *pe2[] = { &e2 };
    Gnmi__Path p1 = GNMI__PATH__INIT, p2 = GNMI__PATH__INIT;
    p1.target = (char *)"COUNTERS_DB";
    p1.elem = pe1;
    p1.n_elem = 1;
    p2.elem = pe2;
    p2.n_elem = 1;
    Gnmi__TypedValue tv = GNMI__TYPED_VALUE__INIT;
    tv.value_case = GNMI__TYPED_VALUE__VALUE_JSON_IETF_VAL;
    tv.json_ietf_val.data = (uint8_t *)json;
    tv.json_ietf_val.len = strlen(json);
    Gnmi__Update u = GNMI__UPDATE__INIT;
    u.path = &p2;
    u.val = &tv;
    Gnmi__Update *up[] = { &u };
    Gnmi__Notification n = GNMI__NOTIFICATION__INIT;
    n.timestamp = 1700000000123456789LL;
    n.prefix = &p1;
    n.update = up;
    n.n_update = 1;
    Gnmi__SubscribeResponse r = GNMI__SUBSCRIBE_RESPONSE__INIT;
    r.response_case = GNMI__SUBSCRIBE_RESPONSE__RESPONSE_UPDATE;
    r.update = &n;
    uint8_t got[512];
    size_t len = gnmi__subscribe_response__pack(&r, got);
    expect_same(got, len, &want);

    /* and the hand-made bytes decode into the right leaf, the number still a string */
    Gnmi__SubscribeResponse *d = gnmi__subscribe_response__unpack(NULL, want.n, want.b);
    assert_non_null(d);
    assert_int_equal(d->response_case, GNMI__SUBSCRIBE_RESPONSE__RESPONSE_UPDATE);
    struct leaves ls;
    memset(&ls, 0, sizeof(ls));
    assert_int_equal(gnmi_notification_leaves(d->update, collect_leaf, &ls, NULL), 1);
    assert_string_equal(ls.path[0], "/COUNTERS/Ethernet0/SAI_PORT_STAT_PFC_3_RX_PKTS");
    assert_string_equal(ls.target, "COUNTERS_DB");
    assert_string_equal(ls.value[0], "1050");
    gnmi__subscribe_response__free_unpacked(d, NULL);

    /* sync_response = 3 (bool) */
    want.n = 0;
    field_varint(&want, 3, 1);
    d = gnmi__subscribe_response__unpack(NULL, want.n, want.b);
    assert_non_null(d);
    assert_int_equal(d->response_case, GNMI__SUBSCRIBE_RESPONSE__RESPONSE_SYNC_RESPONSE);
    assert_true(d->sync_response);
    gnmi__subscribe_response__free_unpacked(d, NULL);
}

static void scalar_values(void **state)
{
    (void)state;
    /* Update{path=1, val=3: TypedValue{uint_val=3}}, then double_val=14, string_val=1 */
    struct buf note = { .n = 0 };
    const struct {
        unsigned field;
        int kind;
    } vals[] = { { 3, 0 }, { 14, 1 }, { 1, 2 } };
    const char *names[] = { "a", "b", "c" };
    for (int i = 0; i < 3; i++) {
        struct buf path = { .n = 0 }, val = { .n = 0 }, upd = { .n = 0 };
        path_elem(&path, names[i], NULL, NULL);
        if (vals[i].kind == 0) {
            field_varint(&val, 3, 18446744073709551615ULL);
        } else if (vals[i].kind == 1) {
            double d = 2.5;
            tag(&val, 14, 1);
            memcpy(val.b + val.n, &d, 8);
            val.n += 8;
        } else {
            field_str(&val, 1, "12345678901234567890");
        }
        field_msg(&upd, 1, &path);
        field_msg(&upd, 3, &val);
        field_msg(&note, 4, &upd);
    }
    Gnmi__Notification *n = gnmi__notification__unpack(NULL, note.n, note.b);
    assert_non_null(n);
    struct leaves ls;
    memset(&ls, 0, sizeof(ls));
    assert_int_equal(gnmi_notification_leaves(n, collect_leaf, &ls, NULL), 3);
    assert_string_equal(ls.value[0], "18446744073709551615");
    assert_string_equal(ls.value[1], "2.5");
    assert_string_equal(ls.value[2], "12345678901234567890");
    gnmi__notification__free_unpacked(n, NULL);
    /* numbers sent as strings */
    struct gnmi_leaf l = { .kind = GNMI_VAL_STRING, .s = "12345678901234567890" };
    double d;
    uint64_t u;
    bool is_uint;
    assert_true(gnmi_leaf_number(&l, &d, &u, &is_uint));
    assert_true(is_uint);
    assert_true(u == 12345678901234567890ULL);
    l.s = "1.5e3";
    assert_true(gnmi_leaf_number(&l, &d, &u, &is_uint));
    assert_false(is_uint);
    assert_true(d == 1500.0);
    l.s = "operational";
    assert_false(gnmi_leaf_number(&l, &d, &u, &is_uint));
    l.s = "";
    assert_false(gnmi_leaf_number(&l, &d, &u, &is_uint));
}

struct got_msgs {
    int n;
    size_t len[4];
};

static int count_msg(const uint8_t *m, size_t len, void *arg)
{
    (void)m;
    struct got_msgs *g = arg;
    if (g->n < 4)
        g->len[g->n] = len;
    g->n++;
    return 0;
}

static void deframing(void **state)
{
    (void)state;
    /* two messages (3 bytes and 0 bytes) cut at every possible point */
    const uint8_t wire[] = { 0, 0, 0, 0, 3, 'a', 'b', 'c', 0, 0, 0, 0, 0 };
    for (size_t cut = 0; cut <= sizeof(wire); cut++) {
        struct grpc_deframer d;
        grpc_deframer_init(&d, 1024);
        struct got_msgs g = { 0 };
        assert_int_equal(grpc_deframer_feed(&d, wire, cut, count_msg, &g, NULL), 0);
        assert_int_equal(grpc_deframer_feed(&d, wire + cut, sizeof(wire) - cut, count_msg, &g,
                                            NULL),
                         0);
        assert_int_equal(g.n, 2);
        assert_int_equal(g.len[0], 3);
        assert_int_equal(g.len[1], 0);
        assert_true(grpc_deframer_idle(&d));
        grpc_deframer_free(&d);
    }
    struct dcb_err err;
    struct grpc_deframer d;
    /* a flag byte that is neither 0 nor 1 */
    grpc_deframer_init(&d, 1024);
    const uint8_t bad[] = { 7, 0xff, 0xff, 0xff, 0xff };
    assert_int_equal(grpc_deframer_feed(&d, bad, sizeof(bad), count_msg, NULL, &err), DCB_E_INVAL);
    assert_non_null(strstr(err.msg, "malformed"));
    grpc_deframer_free(&d);
    /* 64 MiB announced: refused from the prefix, nothing buffered */
    grpc_deframer_init(&d, 16u << 20);
    const uint8_t huge[] = { 0, 0x04, 0, 0, 0 };
    assert_int_equal(grpc_deframer_feed(&d, huge, sizeof(huge), count_msg, NULL, &err),
                     DCB_E_RANGE);
    assert_null(d.buf);
    grpc_deframer_free(&d);
    /* compressed without negotiation */
    grpc_deframer_init(&d, 1024);
    const uint8_t comp[] = { 1, 0, 0, 0, 1, 'x' };
    assert_int_equal(grpc_deframer_feed(&d, comp, sizeof(comp), count_msg, NULL, &err),
                     DCB_E_UNSUPP);
    grpc_deframer_free(&d);
    /* framing writes the prefix big-endian */
    uint8_t *out = NULL;
    size_t len = 0, cap = 0;
    assert_int_equal(grpc_frame_append(&out, &len, &cap, (const uint8_t *)"xyz", 3), 0);
    const uint8_t framed[] = { 0, 0, 0, 0, 3, 'x', 'y', 'z' };
    assert_int_equal(len, sizeof(framed));
    assert_memory_equal(out, framed, sizeof(framed));
    free(out);
}

static int refuse_msg(const uint8_t *m, size_t len, void *arg)
{
    (void)m;
    (void)len;
    (void)arg;
    return DCB_E_INVAL;
}

/* pb_check names what protobuf-c refuses, and where; and it agrees with protobuf-c. */
static void expect_fault(const struct buf *m, const char *want)
{
    char why[200];
    assert_false(pb_check(&gnmi__subscribe_response__descriptor, m->b, m->n, why, sizeof(why)));
    assert_string_equal(why, want);
}

static void undecodable_named(void **state)
{
    (void)state;
    /* the notification says 200 bytes and 30 follow */
    struct buf m = { .n = 0 };
    tag(&m, 1, 2);
    varint(&m, 200);
    for (int i = 0; i < 30; i++)
        m.b[m.n++] = 0x08;
    assert_null(gnmi__subscribe_response__unpack(NULL, m.n, m.b));
    expect_fault(&m, "update (field 1) at byte 0: 200 bytes announced, 30 left");

    /* deep inside: an int_val sent length-delimited, at byte 10 */
    struct buf tv = { .n = 0 }, up = { .n = 0 }, note = { .n = 0 };
    field_bytes(&tv, 2, "ab", 2);
    field_varint(&up, 4, 1);
    field_msg(&up, 3, &tv);
    field_varint(&note, 1, 5);
    field_msg(&note, 4, &up);
    m.n = 0;
    field_msg(&m, 1, &note);
    assert_null(gnmi__subscribe_response__unpack(NULL, m.n, m.b));
    expect_fault(&m, "update.update.val.int_val (field 2) at byte 10: wire type 2 "
                     "(length-delimited) for a varint field");

    /* a float cut short, a group, a key that does not end, field number 0 */
    tv.n = 0;
    tag(&tv, 6, 5);
    tv.b[tv.n++] = 0;
    up.n = 0;
    field_msg(&up, 3, &tv);
    note.n = 0;
    field_msg(&note, 4, &up);
    m.n = 0;
    field_msg(&m, 1, &note);
    assert_null(gnmi__subscribe_response__unpack(NULL, m.n, m.b));
    expect_fault(&m, "update.update.val.float_val (field 6) at byte 6: 4 bytes needed, 1 left");
    m.n = 0;
    field_varint(&m, 3, 1);
    tag(&m, 9, 3);
    assert_null(gnmi__subscribe_response__unpack(NULL, m.n, m.b));
    expect_fault(&m,
                 "field 9 at byte 2: wire type 3 (group start), which protobuf-c does not read");
    m.n = 0;
    m.b[m.n++] = 0x80;
    assert_null(gnmi__subscribe_response__unpack(NULL, m.n, m.b));
    expect_fault(&m, "at byte 0: a field key cut short by the end of the message");
    m.n = 0;
    field_varint(&m, 0, 1);
    assert_null(gnmi__subscribe_response__unpack(NULL, m.n, m.b));
    expect_fault(&m, "at byte 0: field number 0");

    /* TypedValue in ScalarArray in TypedValue...: 40 levels decode, but protobuf-c would
     * recurse for each; past PB_MAX_DEPTH it is refused before protobuf-c is asked */
    struct buf v = { .n = 0 }, a;
    for (int i = 0; i < 40; i++) {
        a.n = 0;
        field_msg(&a, 1, &v); /* ScalarArray.element */
        v.n = 0;
        field_msg(&v, 8, &a); /* TypedValue.leaflist_val */
    }
    Gnmi__TypedValue *deep = gnmi__typed_value__unpack(NULL, v.n, v.b);
    assert_non_null(deep);
    gnmi__typed_value__free_unpacked(deep, NULL);
    char why[200];
    assert_false(pb_check(&gnmi__typed_value__descriptor, v.b, v.n, why, sizeof(why)));
    assert_string_equal(why, "leaflist_val.element.leaflist_val...leaflist_val.element."
                             "leaflist_val (field 8) at byte 80: messages nested deeper than 32");

    /* sound messages pass, with nothing said */
    m.n = 0;
    field_msg(&m, 1, &note);
    m.n = 0;
    field_varint(&m, 3, 1);
    assert_true(pb_check(&gnmi__subscribe_response__descriptor, m.b, m.n, why, sizeof(why)));
    assert_string_equal(why, "");

    /* the deframer says which message its reader refused */
    struct grpc_deframer d;
    struct dcb_err err;
    grpc_deframer_init(&d, 1024);
    const uint8_t two[] = { 0, 0, 0, 0, 1, 'a', 0, 0, 0, 0, 2, 'b', 'c' };
    assert_int_equal(grpc_deframer_feed(&d, two, sizeof(two), refuse_msg, NULL, &err), DCB_E_INVAL);
    assert_string_equal(err.msg, "gRPC message 1 (1 bytes) could not be used");
    grpc_deframer_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(get_request),        cmocka_unit_test(subscribe_request),
        cmocka_unit_test(subscribe_response), cmocka_unit_test(scalar_values),
        cmocka_unit_test(deframing),          cmocka_unit_test(undecodable_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
