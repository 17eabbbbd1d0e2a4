/* libFuzzer: a stored report.json (--from-json, --baseline) through the loader, the comparison
 * and both renderers (report/, in the library). Whatever the document holds, the HTML must stay
 * free of injected elements and valid UTF-8, and the Markdown must carry no '<' at all (every
 * string is escaped). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "utf8.h"

static void check_utf8(const char *doc, size_t len)
{
    const unsigned char *p = (const unsigned char *)doc, *end = p + len;
    while (p < end) {
        size_t n = dcb_utf8_seq_len(p, NULL);
        if (n == 0)
            abort();
        p += n;
    }
}

static char *render(int (*fn)(const cJSON *, FILE *), const cJSON *m, size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);
    if (!fp)
        return NULL;
    fn(m, fp);
    fclose(fp);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    cJSON *m = report_model_parse((const char *)data, size, NULL);
    if (!m)
        return 0;
    cJSON *base = cJSON_Duplicate(m, true);
    report_diff(m, base, "fuzz");
    size_t len;
    char *html = render(report_write_html, m, &len);
    if (html) {
        check_utf8(html, len);
        if (strstr(html, "<script") || strstr(html, "<img") || strstr(html, "<iframe") ||
            strstr(html, "<x"))
            abort();
        free(html);
    }
    char *md = render(report_write_md, m, &len);
    if (md) {
        check_utf8(md, len);
        if (memchr(md, '<', len))
            abort();
        free(md);
    }
    cJSON_Delete(base);
    cJSON_Delete(m);
    return 0;
}
