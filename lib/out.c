#include "out.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

void out_init(struct dcb_out *o, FILE *fp, enum out_format format)
{
    memset(o, 0, sizeof(*o));
    o->fp = fp;
    o->format = format;
    o->first[0] = true;
}

int out_parse_format(const char *name, enum out_format *format)
{
    if (name && strcmp(name, "text") == 0)
        *format = OUT_TEXT;
    else if (name && strcmp(name, "json") == 0)
        *format = OUT_JSON;
    else
        return -1;
    return 0;
}

/* Appends to buf (bounded) and counts the full length, like snprintf. */
struct sink {
    char *buf;
    size_t len, used;
    FILE *fp;
};

static void sink_put(struct sink *k, const char *s, size_t n)
{
    if (k->fp) {
        fwrite_unlocked(s, 1, n, k->fp); /* one writer per stream; no lock per piece */
    } else {
        for (size_t i = 0; i < n; i++) {
            if (k->used + i + 1 < k->len)
                k->buf[k->used + i] = s[i];
        }
    }
    k->used += n;
}

static void json_escape(struct sink *k, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    sink_put(k, "\"", 1);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            char esc[2] = { '\\', (char)c };
            sink_put(k, esc, 2);
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            const char *named = c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
            if (named) {
                sink_put(k, named, 2);
            } else {
                char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
                sink_put(k, esc, 6);
            }
            p++;
        } else if (c < 0x80) {
            /* A run of plain ASCII goes out in one write: a write per byte dominated -T json. */
            const unsigned char *run = p;
            while (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
                p++;
            sink_put(k, (const char *)run, (size_t)(p - run));
        } else {
            size_t n = dcb_utf8_seq_len(p, NULL);
            if (n == 0) {
                sink_put(k, "\xef\xbf\xbd", 3); /* U+FFFD */
                p++;
            } else {
                sink_put(k, (const char *)p, n);
                p += n;
            }
        }
    }
    sink_put(k, "\"", 1);
}

void out_json_string(FILE *fp, const char *s)
{
    struct sink k = { NULL, 0, 0, fp };
    json_escape(&k, s);
}

size_t out_json_string_buf(char *buf, size_t len, const char *s)
{
    struct sink k = { buf, len, 0, NULL };
    json_escape(&k, s);
    if (len)
        buf[k.used < len ? k.used : len - 1] = '\0';
    return k.used;
}

/* The length of the UTF-8 sequence at p a terminal may show as is: 0 for a control (C0, DEL, a
 * C1 control encoded as U+0080..U+009F, which some terminals obey like ESC), or invalid UTF-8;
 * keep_layout lets newline and tab through. */
static size_t term_seq_len(const unsigned char *p, bool keep_layout)
{
    if (*p < 0x20 || *p == 0x7f)
        return keep_layout && (*p == '\n' || *p == '\t') ? 1 : 0;
    size_t n = dcb_utf8_seq_len(p, NULL);
    return n == 2 && p[0] == 0xc2 && p[1] < 0xa0 ? 0 : n;
}

/* Text mode: control bytes become \xNN; valid UTF-8 passes; invalid bytes become \xNN. */
static void text_sanitize(char *dst, size_t len, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p && o + 5 < len) {
        size_t n = term_seq_len(p, false);
        if (n == 0) {
            dst[o++] = '\\';
            dst[o++] = 'x';
            dst[o++] = hex[*p >> 4];
            dst[o++] = hex[*p & 15];
            p++;
        } else {
            if (o + n + 1 >= len)
                break;
            memcpy(dst + o, p, n);
            o += n;
            p += n;
        }
    }
    dst[o] = '\0';
}

/* Separator and key before a JSON member or array element. False for a keyless value inside
 * an object, which is text-only and not emitted. */
static bool json_member(struct dcb_out *o, const char *key)
{
    int d = o->depth;
    if (d > 0 && !key && !o->array[d])
        return false;
    if (!o->first[d])
        putc_unlocked(',', o->fp);
    o->first[d] = false;
    if (d > 0 && key) {
        out_json_string(o->fp, key);
        putc_unlocked(':', o->fp);
    }
    return true;
}

/* The text of a field printer: its caller's format (checked by clang at the call site, see
 * OUT_TEXT_FORMAT) with the one value. */
static void text_put(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 0)));
static void text_put(FILE *fp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(fp, fmt, ap);
    va_end(ap);
}

static void open_container(struct dcb_out *o, const char *key, char bracket)
{
    if (o->format != OUT_JSON)
        return;
    json_member(o, key);
    fputc(bracket, o->fp);
    if (o->depth + 1 < OUT_MAX_DEPTH)
        o->depth++;
    o->first[o->depth] = true;
    o->array[o->depth] = bracket == '[';
}

static void close_container(struct dcb_out *o, char bracket)
{
    if (o->format != OUT_JSON)
        return;
    fputc(bracket, o->fp);
    if (o->depth > 0)
        o->depth--;
    if (o->depth == 0) {
        fputc('\n', o->fp);
        o->first[0] = true;
    }
}

void out_obj_open(struct dcb_out *o, const char *key)
{
    open_container(o, key, '{');
}
void out_obj_close(struct dcb_out *o)
{
    close_container(o, '}');
}
void out_arr_open(struct dcb_out *o, const char *key)
{
    open_container(o, key, '[');
}
void out_arr_close(struct dcb_out *o)
{
    close_container(o, ']');
}

void out_str(struct dcb_out *o, const char *key, const char *text_fmt, const char *value)
{
    if (o->format == OUT_JSON) {
        if (!json_member(o, key))
            return;
        if (value)
            out_json_string(o->fp, value);
        else
            fputs("null", o->fp);
    } else if (text_fmt) {
        char safe[4096];
        text_sanitize(safe, sizeof(safe), value ? value : "-");
        text_put(o->fp, text_fmt, safe);
    }
}

/* Decimal digits without printf: per-frame JSON prints dozens of integers. */
static void put_u64(FILE *fp, uint64_t value)
{
    char digits[20];
    size_t n = sizeof(digits);
    do {
        digits[--n] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    fwrite_unlocked(digits + n, 1, sizeof(digits) - n, fp);
}

void out_u64(struct dcb_out *o, const char *key, const char *text_fmt, uint64_t value)
{
    if (o->format == OUT_JSON) {
        if (!json_member(o, key))
            return;
        put_u64(o->fp, value);
    } else if (text_fmt) {
        text_put(o->fp, text_fmt, value);
    }
}

void out_i64(struct dcb_out *o, const char *key, const char *text_fmt, int64_t value)
{
    if (o->format == OUT_JSON) {
        if (!json_member(o, key))
            return;
        fprintf(o->fp, "%" PRId64, value);
    } else if (text_fmt) {
        text_put(o->fp, text_fmt, value);
    }
}

void out_dbl(struct dcb_out *o, const char *key, const char *text_fmt, double value)
{
    if (o->format == OUT_JSON) {
        if (!json_member(o, key))
            return;
        if (isfinite(value))
            fprintf(o->fp, "%.15g", value);
        else
            fputs("null", o->fp);
    } else if (text_fmt) {
        text_put(o->fp, text_fmt, value);
    }
}

void out_bool(struct dcb_out *o, const char *key, const char *text_fmt, bool value)
{
    if (o->format == OUT_JSON) {
        if (!json_member(o, key))
            return;
        fputs(value ? "true" : "false", o->fp);
    } else if (text_fmt) {
        text_put(o->fp, text_fmt, value ? "yes" : "no");
    }
}

void out_number(struct dcb_out *o, const char *key, const char *text_fmt, const char *literal)
{
    if (o->format == OUT_JSON) {
        if (!json_member(o, key))
            return;
        fputs(literal, o->fp);
    } else if (text_fmt) {
        text_put(o->fp, text_fmt, literal);
    }
}

void out_null(struct dcb_out *o, const char *key, const char *text)
{
    if (o->format == OUT_JSON) {
        if (!json_member(o, key))
            return;
        fputs("null", o->fp);
    } else if (text) {
        fputs(text, o->fp);
    }
}

void out_json_value(struct dcb_out *o, const char *key, const char *text_fmt, const char *json)
{
    if (o->format == OUT_JSON) {
        if (json_member(o, key))
            fputs(json, o->fp);
    } else if (text_fmt) {
        char safe[4096];
        text_sanitize(safe, sizeof(safe), json);
        text_put(o->fp, text_fmt, safe);
    }
}

void out_vterm(FILE *fp, const char *fmt, va_list ap)
{
    char small[1024], *text = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    if (n >= (int)sizeof(small) && !(text = malloc((size_t)n + 1)))
        text = NULL;
    if (text && text != small)
        vsnprintf(text, (size_t)n + 1, fmt, again);
    va_end(again);
    if (n < 0 || !text)
        return;
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        size_t run = 0, k;
        while (p[run] && (k = term_seq_len(p + run, true)) > 0)
            run += k;
        fwrite(p, 1, run, fp);
        p += run;
        if (*p)
            fprintf(fp, "\\x%02x", *p++);
    }
    if (text != small)
        free(text);
}

void out_term(FILE *fp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out_vterm(fp, fmt, ap);
    va_end(ap);
}

void out_text(struct dcb_out *o, const char *fmt, ...)
{
    if (o->format != OUT_TEXT)
        return;
    va_list ap;
    va_start(ap, fmt);
    out_vterm(o->fp, fmt, ap);
    va_end(ap);
}

int out_finish(struct dcb_out *o)
{
    if (fflush(o->fp) != 0 || ferror(o->fp)) {
        if (errno == 0)
            errno = EIO;
        return -1;
    }
    return 0;
}
