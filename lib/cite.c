/* Citations: see cite.h. */
#include "cite.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data_dir.h"

static size_t id_span(const char *s)
{
    size_t n = 0;
    while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '-')
        n++;
    return n;
}

/* The length of an anchor written at s ("docs/rules-references.md#qbb" when doc_form, else
 * "#qbb"), 0 when there is none; *id and *id_len name it. */
static size_t anchor_at(const char *s, bool doc_form, const char **id, size_t *id_len)
{
    size_t pre = doc_form ? strlen(CITE_DOC) : 0;
    if (doc_form && strncmp(s, CITE_DOC, pre) != 0)
        return 0;
    if (s[pre] != '#')
        return 0;
    size_t n = id_span(s + pre + 1);
    if (!n)
        return 0;
    *id = s + pre + 1;
    *id_len = n;
    return pre + 1 + n;
}

void cite_walk(const char *ref, cite_part_fn fn, void *ctx)
{
    const char *text = ref, *s = ref;
    while (*s) {
        const char *id;
        size_t id_len, n = anchor_at(s, true, &id, &id_len);
        if (!n) {
            s++;
            continue;
        }
        if (s > text)
            fn(ctx, text, (size_t)(s - text), NULL, 0);
        fn(ctx, s, n, id, id_len);
        s += n;
        /* "#id" after spaces continues the list of the same document */
        for (;;) {
            size_t sp = strspn(s, " \t\n");
            size_t m = anchor_at(s + sp, false, &id, &id_len);
            if (!m)
                break;
            if (sp)
                fn(ctx, s, sp, NULL, 0);
            fn(ctx, s + sp, m, id, id_len);
            s += sp + m;
        }
        text = s;
    }
    if (s > text)
        fn(ctx, text, (size_t)(s - text), NULL, 0);
}

struct anchor_list {
    char (*ids)[CITE_ID_MAX];
    size_t max, n;
};

static void collect_anchor(void *ctx, const char *text, size_t len, const char *id, size_t id_len)
{
    struct anchor_list *a = ctx;
    (void)text;
    (void)len;
    if (!id)
        return;
    if (a->n < a->max)
        snprintf(a->ids[a->n], CITE_ID_MAX, "%.*s", (int)id_len, id);
    a->n++;
}

size_t cite_anchors(const char *ref, char ids[][CITE_ID_MAX], size_t max)
{
    struct anchor_list a = { ids, max, 0 };
    cite_walk(ref, collect_anchor, &a);
    return a.n;
}

int cite_doc_path(char *buf, size_t len)
{
    char dir[4096];
    if (dcb_data_dir("DCBKIT_DOCS", "docs", DCBKIT_SOURCE_DOCS, dir, sizeof(dir)) < 0)
        return -1;
    char path[4096 + 32], real[PATH_MAX];
    struct stat st;
    snprintf(path, sizeof(path), "%s/rules-references.md", dir);
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    /* "<bin>/../share/..." shown as the plain path a person would type */
    const char *shown = realpath(path, real) ? real : path;
    return snprintf(buf, len, "%s", shown) < (int)len ? 0 : -1;
}

/* Copies the rest of the line at s, at most cap - 1 bytes. */
static void copy_line(char *dst, size_t cap, const char *s)
{
    size_t n = strcspn(s, "\n");
    snprintf(dst, cap, "%.*s", (int)(n < cap ? n : cap - 1), s);
}

int cite_entry_find(const char *doc, const char *id, struct cite_entry *e)
{
    char mark[CITE_ID_MAX + 16];
    snprintf(mark, sizeof(mark), "<a id=\"%s\"></a>", id);
    const char *at = strstr(doc, mark);
    if (!at)
        return -1;
    memset(e, 0, sizeof(*e));
    const char *end = strstr(at + strlen(mark), "<a id=\"");
    const char *head = strstr(at, "\n### ");
    if (head && (!end || head < end)) {
        head += 5;
        const char *colon = strstr(head, ": ");
        if (colon && colon < head + strcspn(head, "\n"))
            head = colon + 2;
        copy_line(e->title, sizeof(e->title), head);
    }
    const char *url = strstr(at, "<https://");
    if (url && (!end || url < end)) {
        size_t n = strcspn(url + 1, ">\n");
        snprintf(e->url, sizeof(e->url), "%.*s", (int)n, url + 1);
    }
    return 0;
}
