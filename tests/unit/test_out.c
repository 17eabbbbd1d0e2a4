#include "unit.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "out.h"

struct capture {
    char *buf;
    size_t len;
    FILE *fp;
};

static void cap_open(struct capture *c)
{
    c->buf = NULL;
    c->len = 0;
    c->fp = open_memstream(&c->buf, &c->len);
    assert_non_null(c->fp);
}

static const char *cap_text(struct capture *c)
{
    fflush(c->fp);
    return c->buf;
}

static void cap_close(struct capture *c)
{
    fclose(c->fp);
    free(c->buf);
}

/* The same calls print a text line or a JSON object. */
static void emit_pause(struct dcb_out *o)
{
    out_obj_open(o, NULL);
    out_u64(o, "quanta", "quanta %" PRIu64, 65535);
    out_str(o, "speed", " at %s", "400G");
    out_dbl(o, "ns", " = %.1f", 83884.8);
    out_str(o, NULL, " %s", "ns"); /* text only: no key in an object */
    out_bool(o, "capped", " capped=%s", false);
    out_arr_open(o, "prios");
    out_i64(o, NULL, " p%" PRId64, 3);
    out_i64(o, NULL, ",%" PRId64, 4);
    out_arr_close(o);
    out_obj_open(o, "nested");
    out_null(o, "missing", " missing=-");
    out_obj_close(o);
    out_text(o, "\n");
    out_obj_close(o);
}

static void one_call_site_two_formats(void **state)
{
    (void)state;
    struct capture c;
    struct dcb_out o;
    cap_open(&c);
    out_init(&o, c.fp, OUT_TEXT);
    emit_pause(&o);
    assert_string_equal(cap_text(&c),
                        "quanta 65535 at 400G = 83884.8 ns capped=no p3,4 missing=-\n");
    cap_close(&c);

    cap_open(&c);
    out_init(&o, c.fp, OUT_JSON);
    emit_pause(&o);
    assert_string_equal(cap_text(&c),
                        "{\"quanta\":65535,\"speed\":\"400G\",\"ns\":83884.8,\"capped\":false,"
                        "\"prios\":[3,4],\"nested\":{\"missing\":null}}\n");
    cap_close(&c);
}

/* Top-level objects one after another are JSON Lines. */
static void json_lines(void **state)
{
    (void)state;
    struct capture c;
    struct dcb_out o;
    cap_open(&c);
    out_init(&o, c.fp, OUT_JSON);
    for (int i = 0; i < 3; i++) {
        out_obj_open(&o, NULL);
        out_i64(&o, "frame", NULL, i + 1);
        out_obj_close(&o);
    }
    assert_string_equal(cap_text(&c), "{\"frame\":1}\n{\"frame\":2}\n{\"frame\":3}\n");
    assert_int_equal(out_finish(&o), 0);
    cap_close(&c);
}

static void strings_are_escaped(void **state)
{
    (void)state;
    struct capture c;
    struct dcb_out o;
    cap_open(&c);
    out_init(&o, c.fp, OUT_JSON);
    out_obj_open(&o, NULL);
    out_str(&o, "name", NULL, "sw\"1\\\n\x01\x1b[31m");
    out_str(&o, "utf8", NULL, "Ethernet\xc2\xb5");
    out_str(&o, "bad", NULL,
            "a\xff"
            "b\xc0\xaf"); /* invalid UTF-8 */
    out_str(&o, "null", NULL, NULL);
    out_dbl(&o, "nan", NULL, NAN);
    out_dbl(&o, "inf", NULL, INFINITY);
    out_obj_close(&o);
    assert_string_equal(cap_text(&c), "{\"name\":\"sw\\\"1\\\\\\n\\u0001\\u001b[31m\",\"utf8\":"
                                      "\"Ethernet\xc2\xb5\","
                                      "\"bad\":\"a\xef\xbf\xbd"
                                      "b\xef\xbf\xbd\xef\xbf\xbd\",\"null\":null,"
                                      "\"nan\":null,\"inf\":null}\n");
    cap_close(&c);

    /* text mode: a hostile LLDP system name cannot drive the terminal */
    cap_open(&c);
    out_init(&o, c.fp, OUT_TEXT);
    out_str(&o, "name", "[%s]", "sw\x1b[2J\n1\xff");
    assert_string_equal(cap_text(&c), "[sw\\x1b[2J\\x0a1\\xff]");
    cap_close(&c);
}

static void json_string_into_buffer(void **state)
{
    (void)state;
    char b[16];
    assert_int_equal(out_json_string_buf(b, sizeof(b), "ab\"c"), 7);
    assert_string_equal(b, "\"ab\\\"c\"");
    char small[4];
    assert_int_equal(out_json_string_buf(small, sizeof(small), "abcdef"), 8);
    assert_string_equal(small, "\"ab");
}

static void format_names(void **state)
{
    (void)state;
    enum out_format f;
    assert_int_equal(out_parse_format("json", &f), 0);
    assert_int_equal(f, OUT_JSON);
    assert_int_equal(out_parse_format("text", &f), 0);
    assert_int_equal(f, OUT_TEXT);
    assert_int_equal(out_parse_format("yaml", &f), -1);
}

/* A full disk is reported, not ignored. */
static void write_failure_is_reported(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    struct dcb_out o;
    out_init(&o, full, OUT_JSON);
    out_obj_open(&o, NULL);
    out_str(&o, "k", NULL, "v");
    out_obj_close(&o);
    assert_int_equal(out_finish(&o), -1);
    fclose(full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_call_site_two_formats),
        cmocka_unit_test(json_lines),
        cmocka_unit_test(strings_are_escaped),
        cmocka_unit_test(json_string_into_buffer),
        cmocka_unit_test(format_names),
        cmocka_unit_test(write_failure_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
