#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cite.h"

struct parts {
    char joined[512];
    char anchors[256];
};

static void add_part(void *ctx, const char *text, size_t len, const char *id, size_t id_len)
{
    struct parts *p = ctx;
    snprintf(p->joined + strlen(p->joined), sizeof(p->joined) - strlen(p->joined), "%.*s", (int)len,
             text);
    if (id)
        snprintf(p->anchors + strlen(p->anchors), sizeof(p->anchors) - strlen(p->anchors),
                 "<%.*s|%.*s>", (int)id_len, id, (int)len, text);
}

/* The parts give back the reference byte for byte; anchors are the list's path with one id,
 * then "#id" after blanks; a '#' elsewhere, or another file's anchor, is text. */
static void walk_splits_anchors(void **state)
{
    (void)state;
    const char *ref =
        "IEEE 802.1Q clause 36 [docs/rules-references.md#qbb #nvidia-roce\n"
        "             #pause]; see #notes and other.md#x (docs/rules-references.md#lldp)";
    struct parts p = { "", "" };
    cite_walk(ref, add_part, &p);
    assert_string_equal(p.joined, ref);
    assert_string_equal(p.anchors, "<qbb|docs/rules-references.md#qbb><nvidia-roce|#nvidia-roce>"
                                   "<pause|#pause><lldp|docs/rules-references.md#lldp>");
    char ids[2][CITE_ID_MAX];
    assert_int_equal(cite_anchors(ref, ids, 2), 4);
    assert_string_equal(ids[0], "qbb");
    assert_string_equal(ids[1], "nvidia-roce");
    assert_int_equal(cite_anchors("no anchors here [docs/rules-references.md#]", ids, 2), 0);
}

static void entry_reads_heading_and_url(void **state)
{
    (void)state;
    const char *doc = "# title\n\n<a id=\"qbb\"></a>\n### qbb: priority-based flow control\n\n"
                      "Text <https://1.ieee802.org/dcb/802-1qbb/> more.\n\n"
                      "<a id=\"lldp\"></a>\n### lldp: LLDP\n\nNo address here.\n\n"
                      "<a id=\"x\"></a>\n### x: next <https://example.org/x>\n";
    struct cite_entry e;
    assert_int_equal(cite_entry_find(doc, "qbb", &e), 0);
    assert_string_equal(e.title, "priority-based flow control");
    assert_string_equal(e.url, "https://1.ieee802.org/dcb/802-1qbb/");
    /* an entry without an address does not take the next entry's */
    assert_int_equal(cite_entry_find(doc, "lldp", &e), 0);
    assert_string_equal(e.title, "LLDP");
    assert_string_equal(e.url, "");
    assert_int_equal(cite_entry_find(doc, "ql", &e), -1);
}

/* $DCBKIT_DOCS names the folder; the path returned is the list in it, or -1 when absent. */
static void doc_path_follows_the_environment(void **state)
{
    (void)state;
    char dir[] = "/tmp/dcbkit-cite-XXXXXX", path[4096], file[600];
    assert_non_null(mkdtemp(dir));
    setenv("DCBKIT_DOCS", dir, 1);
    assert_int_equal(cite_doc_path(path, sizeof(path)), -1);
    snprintf(file, sizeof(file), "%s/rules-references.md", dir);
    FILE *fp = fopen(file, "w");
    assert_non_null(fp);
    fclose(fp);
    assert_int_equal(cite_doc_path(path, sizeof(path)), 0);
    assert_string_equal(path, file);
    assert_int_equal(cite_doc_path(path, 8), -1);
    unlink(file);
    rmdir(dir);
    unsetenv("DCBKIT_DOCS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walk_splits_anchors),
        cmocka_unit_test(entry_reads_heading_and_url),
        cmocka_unit_test(doc_path_follows_the_environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
