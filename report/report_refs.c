/* The documents a report cites. Each finding's reference links its anchors
 * ("docs/rules-references.md#qbb") to a copy of that entry of the shipped list at the end of the
 * report, so the report stays self-contained when it is mailed; the copy links on to the
 * primary source's public address and to the list as installed on the machine that wrote the
 * report. */
#include <stdlib.h>
#include <string.h>

#include "cite.h"
#include "file_text.h"
#include "report.h"
#include "xml_escape.h"

#define REFS_MAX 64
#define REFS_DOC_MAX (1u << 20)

struct report_refs {
    char ids[REFS_MAX][CITE_ID_MAX];
    struct cite_entry entry[REFS_MAX];
    bool found[REFS_MAX];
    size_t n;
    char doc_path[4096];
    bool have_doc;
};

static void add_ids(struct report_refs *r, const char *ref)
{
    char ids[REFS_MAX][CITE_ID_MAX];
    size_t n = cite_anchors(ref, ids, REFS_MAX);
    for (size_t i = 0; i < n && i < REFS_MAX; i++) {
        size_t k = 0;
        while (k < r->n && strcmp(r->ids[k], ids[i]))
            k++;
        if (k == r->n && r->n < REFS_MAX)
            memcpy(r->ids[r->n++], ids[i], CITE_ID_MAX);
    }
}

/* The ids the findings cite, first cited first, with their entries from the shipped list. */
static struct report_refs *refs_gather(const cJSON *m)
{
    struct report_refs *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    const cJSON *f;
    cJSON_ArrayForEach(f, report_get(m, "findings")) {
        add_ids(r, report_str(f, "reference"));
    }
    char *doc = NULL;
    size_t len;
    struct dcb_err err = { 0 };
    if (r->n && cite_doc_path(r->doc_path, sizeof(r->doc_path)) == 0 &&
        dcb_read_text_file(r->doc_path, REFS_DOC_MAX, &doc, &len, &err) == 0) {
        r->have_doc = true;
        for (size_t i = 0; i < r->n; i++)
            r->found[i] = cite_entry_find(doc, r->ids[i], &r->entry[i]) == 0;
    }
    free(doc);
    return r;
}

/* ---- HTML ---------------------------------------------------------------------------------- */

static void html_part(void *ctx, const char *text, size_t len, const char *id, size_t id_len)
{
    FILE *fp = ctx;
    char *s = strndup(text, len);
    if (!s)
        return;
    if (id)
        fprintf(fp, "<a href=\"#ref-%.*s\">", (int)id_len, id);
    xml_escape(fp, s, 0);
    if (id)
        fputs("</a>", fp);
    free(s);
}

void report_html_reference(FILE *fp, const char *ref)
{
    cite_walk(ref, html_part, fp);
}

/* file:// and the path, with the characters a URL cannot hold as they are escaped. */
static void file_url(FILE *fp, const char *path, const char *id)
{
    fputs("file://", fp);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p <= ' ' || *p >= 0x7f || strchr("\"#%<>?&'", *p))
            fprintf(fp, "%%%02X", *p);
        else
            fputc(*p, fp);
    }
    fprintf(fp, "#%s", id);
}

void report_html_references(FILE *fp, const cJSON *m)
{
    struct report_refs *r = refs_gather(m);
    if (!r || !r->n) {
        free(r);
        return;
    }
    fprintf(fp,
            "<section id=\"references\">\n<details><summary><h2>References</h2> %zu documents"
            " the findings cite, from <code>" CITE_DOC "</code></summary>\n<ul>\n",
            r->n);
    for (size_t i = 0; i < r->n; i++) {
        fprintf(fp, "<li id=\"ref-%s\"><b>%s</b>: ", r->ids[i], r->ids[i]);
        if (r->found[i]) {
            xml_escape(fp, r->entry[i].title, 0);
            if (r->entry[i].url[0]) {
                fputs(" · <a href=\"", fp);
                xml_escape(fp, r->entry[i].url, 0);
                fputs("\">", fp);
                xml_escape(fp, r->entry[i].url, 0);
                fputs("</a>", fp);
            }
            fputs(" · <a href=\"", fp);
            file_url(fp, r->doc_path, r->ids[i]);
            fprintf(fp, "\">" CITE_DOC "#%s</a>", r->ids[i]);
        } else {
            fputs(r->have_doc ? "not in " CITE_DOC : CITE_DOC " was not found", fp);
        }
        fputs("</li>\n", fp);
    }
    fputs("</ul>\n</details>\n</section>\n", fp);
    free(r);
}

/* ---- Markdown ------------------------------------------------------------------------------ */

static void md_part(void *ctx, const char *text, size_t len, const char *id, size_t id_len)
{
    FILE *fp = ctx;
    char *s = strndup(text, len);
    if (!s)
        return;
    if (id)
        fputc('[', fp);
    md_escape(fp, s);
    if (id)
        fprintf(fp, "](#ref-%.*s)", (int)id_len, id);
    free(s);
}

void report_md_reference(FILE *fp, const char *ref)
{
    cite_walk(ref, md_part, fp);
}

void report_md_references(FILE *fp, const cJSON *m)
{
    struct report_refs *r = refs_gather(m);
    if (!r || !r->n) {
        free(r);
        return;
    }
    fputs("\n## References\n\nThe documents the findings cite, from `" CITE_DOC "`.\n\n", fp);
    for (size_t i = 0; i < r->n; i++) {
        fprintf(fp, "- <a id=\"ref-%s\"></a>**%s**: ", r->ids[i], r->ids[i]);
        if (r->found[i]) {
            md_escape(fp, r->entry[i].title);
            if (r->entry[i].url[0])
                fprintf(fp, " <%s>", r->entry[i].url);
        } else {
            fputs(r->have_doc ? "not in the list" : "the list was not found", fp);
        }
        fputc('\n', fp);
    }
    free(r);
}
