#include "xml_escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "utf8.h"

/* One character of s at p: its escaped bytes in out (NUL-terminated) and its length in s. */
static size_t escape_one(const unsigned char *p, char out[16])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char c = *p;
    switch (c) {
    case '&': strcpy(out, "&amp;"); return 1;
    case '<': strcpy(out, "&lt;"); return 1;
    case '>': strcpy(out, "&gt;"); return 1;
    case '"': strcpy(out, "&quot;"); return 1;
    case '\'': strcpy(out, "&#39;"); return 1;
    default: break;
    }
    if (c < 0x20 || c == 0x7f) {
        out[0] = '\\';
        out[1] = 'x';
        out[2] = hex[c >> 4];
        out[3] = hex[c & 15];
        out[4] = '\0';
        return 1;
    }
    uint32_t cp;
    size_t n = dcb_utf8_seq_len(p, &cp);
    if (n == 0 || (cp >= 0x80 && cp <= 0x9f) || cp == 0xfffe || cp == 0xffff) {
        strcpy(out, "\xef\xbf\xbd"); /* U+FFFD */
        return n ? n : 1;
    }
    memcpy(out, p, n);
    out[n] = '\0';
    return n;
}

size_t xml_text_chars(const char *s)
{
    size_t chars = 0;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    char tmp[16];
    while (*p) {
        size_t n = escape_one(p, tmp);
        /* \xNN shows as four characters; every other escape as one */
        chars += tmp[0] == '\\' ? 4 : 1;
        p += n;
    }
    return chars;
}

size_t xml_escape(FILE *fp, const char *s, size_t max_chars)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    bool truncate = max_chars > 0 && xml_text_chars(s) > max_chars;
    size_t budget = truncate ? max_chars - 1 : (size_t)-1;
    size_t shown = 0;
    char tmp[16];
    while (*p) {
        const unsigned char *run = p;
        /* plain ASCII goes out in runs */
        while (*p >= 0x20 && *p < 0x7f && !strchr("&<>\"'", *p) && shown < budget) {
            p++;
            shown++;
        }
        if (p > run)
            fwrite(run, 1, (size_t)(p - run), fp);
        if (!*p || shown >= budget)
            break;
        size_t n = escape_one(p, tmp);
        size_t w = tmp[0] == '\\' ? 4 : 1;
        if (shown + w > budget)
            break;
        fputs(tmp, fp);
        shown += w;
        p += n;
    }
    if (truncate) {
        fputs("\xe2\x80\xa6", fp); /* … */
        shown++;
    }
    return shown;
}
