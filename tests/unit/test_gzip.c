#include "unit.h"

#include <stdlib.h>
#include <zlib.h>

#include "gzip.h"

/* inflates a gzip stream (15 + 16: gzip only) into out; its length, or -1 */
static long gunzip(const void *in, size_t n, unsigned char *out, size_t cap)
{
    z_stream z = { 0 };
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return -1;
    z.next_in = (Bytef *)(uintptr_t)in;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    int rc = inflate(&z, Z_FINISH);
    long len = (long)z.total_out;
    inflateEnd(&z);
    return rc == Z_STREAM_END ? len : -1;
}

static void round_trip(void **state)
{
    (void)state;
    size_t n = 200000; /* a /metrics page's size, as repetitive */
    char *page = malloc(n);
    assert_non_null(page);
    for (size_t i = 0; i < n; i++)
        page[i] = "dcbkit_pfc_rx_frames_total{device=\"leaf1\",prio=\"3\"} 12345\n"[i % 57];
    void *gz;
    size_t gz_len;
    assert_int_equal(dcb_gzip(page, n, &gz, &gz_len, NULL), 0);
    const unsigned char *g = gz;
    assert_true(gz_len > 18 && g[0] == 0x1f && g[1] == 0x8b); /* the gzip magic */
    assert_true(gz_len < n / 20);
    unsigned char *back = malloc(n + 1);
    assert_non_null(back);
    assert_int_equal(gunzip(gz, gz_len, back, n + 1), (long)n);
    assert_memory_equal(back, page, n);
    free(back);
    free(gz);
    free(page);
}

static void empty(void **state)
{
    (void)state;
    void *gz;
    size_t gz_len;
    unsigned char back[4];
    assert_int_equal(dcb_gzip("", 0, &gz, &gz_len, NULL), 0);
    assert_int_equal(gunzip(gz, gz_len, back, sizeof(back)), 0);
    free(gz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
