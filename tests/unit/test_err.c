#include "unit.h"

#include "err.h"

static const char *line(const char *what, const char *msg)
{
    static char out[512];
    dcb_err_line(out, sizeof(out), what, msg);
    return out;
}

static void path_said_once(void **state)
{
    (void)state;
    /* the caller names the file and so does the library's message */
    assert_string_equal(line("/x.pcap", "/x.pcap: No such file or directory"),
                        "/x.pcap: No such file or directory");
    /* the caller's own words end with it */
    assert_string_equal(line("replay", "store /d/x.db: /d/x.db: opening: unable to open"),
                        "replay: store /d/x.db: opening: unable to open");
    assert_string_equal(line("a", "a: a: a: b"), "a: b");
}

static void distinct_parts_stay(void **state)
{
    (void)state;
    assert_string_equal(line("collect", "/x.json: No such file or directory"),
                        "collect: /x.json: No such file or directory");
    assert_string_equal(line(NULL, "/x.db: no store there"), "/x.db: no store there");
    assert_string_equal(line("", "plain"), "plain");
    /* a part that only ends with the next one's text, not after a space, is another name */
    assert_string_equal(line("host1.db", "1.db: bad"), "host1.db: 1.db: bad");
    assert_string_equal(line("store", "store /x.db: opening"), "store: store /x.db: opening");
    /* ":" without a space is not a separator (an address, a JSON path) */
    assert_string_equal(line("gnmi", "leaf1:8080: refused"), "gnmi: leaf1:8080: refused");
}

static void truncates_safely(void **state)
{
    (void)state;
    char small[8];
    dcb_err_line(small, sizeof(small), "what", "a long message");
    assert_string_equal(small, "what: a");
    dcb_err_line(small, 1, "what", "msg");
    assert_string_equal(small, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(path_said_once),
        cmocka_unit_test(distinct_parts_stay),
        cmocka_unit_test(truncates_safely),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
