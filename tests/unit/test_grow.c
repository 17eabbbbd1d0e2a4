#include "unit.h"

#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

struct pair {
    uint64_t a, b;
};

static void grows_from_first_then_doubles(void **state)
{
    (void)state;
    struct pair *v = NULL;
    size_t n = 0, cap = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        if (n == cap)
            assert_int_equal(dcb_grow(&v, &cap, sizeof(*v), 8), 0);
        v[n++] = (struct pair){ i, 2 * i };
    }
    assert_int_equal(cap, 1024); /* 8, 16, ... 1024 */
    for (uint64_t i = 0; i < 1000; i++)
        assert_true(v[i].a == i && v[i].b == 2 * i);
    free(v);
}

static void refuses_a_size_that_overflows(void **state)
{
    (void)state;
    char *v = NULL;
    size_t cap = SIZE_MAX / 2 + 1; /* doubling wraps */
    assert_int_equal(dcb_grow(&v, &cap, 1, 8), -1);
    assert_null(v);
    assert_true(cap == SIZE_MAX / 2 + 1);
    cap = SIZE_MAX / 16; /* cap * 2 * 16 bytes overflows */
    assert_int_equal(dcb_grow(&v, &cap, 16, 8), -1);
    assert_true(cap == SIZE_MAX / 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grows_from_first_then_doubles),
        cmocka_unit_test(refuses_a_size_that_overflows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
