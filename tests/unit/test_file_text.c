#include "unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_text.h"

static char dir[] = "/tmp/test_file_text.XXXXXX";

static void path_of(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
}

static void put_file(const char *path, const char *text, size_t len)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    assert_int_equal(fwrite(text, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
}

static void reads_a_regular_file_whole(void **state)
{
    (void)state;
    char path[256];
    path_of(path, sizeof(path), "a.txt");
    put_file(path, "one\ntwo\n", 8);
    char *text;
    size_t len;
    assert_int_equal(dcb_read_text_file(path, 1u << 20, &text, &len, NULL), 0);
    assert_int_equal(len, 8);
    assert_string_equal(text, "one\ntwo\n");
    free(text);
}

static void refuses_a_file_over_the_cap(void **state)
{
    (void)state;
    char path[256];
    path_of(path, sizeof(path), "big.txt");
    size_t size = (1u << 20) + 1;
    char *big = calloc(1, size);
    assert_non_null(big);
    memset(big, 'x', size);
    put_file(path, big, size);
    char *text = NULL;
    size_t len;
    struct dcb_err err;
    assert_int_equal(dcb_read_text_file(path, 1u << 20, &text, &len, &err), DCB_E_RANGE);
    assert_non_null(strstr(err.msg, "larger than 1 MiB"));
    assert_null(text);
    put_file(path, big, size - 1); /* exactly the cap is fine */
    assert_int_equal(dcb_read_text_file(path, 1u << 20, &text, &len, &err), 0);
    assert_int_equal(len, size - 1);
    free(text);
    free(big);
}

/* A pipe has no size to check up front: it is read to its end, and the cap still holds. */
static void reads_a_pipe_to_its_end(void **state)
{
    (void)state;
    char cmd[64], *text;
    size_t len;
    struct dcb_err err;
    FILE *p = popen("seq 1 100000", "r"); /* 588,895 bytes, more than one step of the buffer */
    assert_non_null(p);
    snprintf(cmd, sizeof(cmd), "/dev/fd/%d", fileno(p));
    assert_int_equal(dcb_read_text_file(cmd, 1u << 20, &text, &len, &err), 0);
    pclose(p);
    assert_int_equal(len, 588895);
    assert_true(!strncmp(text, "1\n2\n3\n", 6));
    assert_string_equal(text + len - 7, "100000\n");
    free(text);
    p = popen("seq 1 200000", "r"); /* 1,288,895 bytes: over 1 MiB */
    snprintf(cmd, sizeof(cmd), "/dev/fd/%d", fileno(p));
    assert_int_equal(dcb_read_text_file(cmd, 1u << 20, &text, &len, &err), DCB_E_RANGE);
    pclose(p);
}

static void refuses_a_directory(void **state)
{
    (void)state;
    char *text;
    size_t len;
    struct dcb_err err;
    assert_int_equal(dcb_read_text_file(dir, 1u << 20, &text, &len, &err), DCB_E_INVAL);
    assert_non_null(strstr(err.msg, "not a regular file"));
    char path[256];
    path_of(path, sizeof(path), "missing");
    assert_int_equal(dcb_read_text_file(path, 1u << 20, &text, &len, &err), DCB_E_NOTFOUND);
}

static int write_hello(FILE *fp, void *arg)
{
    fprintf(fp, "hello %s\n", (const char *)arg);
    return 0;
}

static int write_half_then_fail(FILE *fp, void *arg)
{
    (void)arg;
    fputs("half", fp);
    errno = ENOSPC;
    return -1;
}

static void atomic_write_replaces_whole_or_not_at_all(void **state)
{
    (void)state;
    char path[256], *text;
    size_t len;
    struct dcb_err err;
    path_of(path, sizeof(path), "out.txt");
    assert_int_equal(dcb_write_file_atomic(path, write_hello, "one", &err), 0);
    assert_int_equal(dcb_write_file_atomic(path, write_hello, "two", &err), 0);
    assert_int_equal(dcb_read_text_file(path, 1u << 20, &text, &len, &err), 0);
    assert_string_equal(text, "hello two\n");
    free(text);
    assert_int_equal(dcb_write_file_atomic(path, write_half_then_fail, NULL, &err), DCB_E_IO);
    assert_non_null(strstr(err.msg, "No space left"));
    assert_int_equal(dcb_read_text_file(path, 1u << 20, &text, &len, &err), 0);
    assert_string_equal(text, "hello two\n"); /* the old file stands */
    free(text);
    char tmp[300];
    snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
    assert_int_equal(access(tmp, F_OK), -1); /* and no temporary file is left */
    path_of(path, sizeof(path), "no/such/dir/out.txt");
    assert_int_equal(dcb_write_file_atomic(path, write_hello, "x", &err), DCB_E_IO);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_a_regular_file_whole),
        cmocka_unit_test(refuses_a_file_over_the_cap),
        cmocka_unit_test(reads_a_pipe_to_its_end),
        cmocka_unit_test(refuses_a_directory),
        cmocka_unit_test(atomic_write_replaces_whole_or_not_at_all),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
