/* One call site prints a field for humans or for machines, as iproute2's print_* do:
 *
 *     out_u64(o, "quanta", "quanta %" PRIu64 "\n", quanta);
 *
 * In text mode the printf-style text format is used (NULL prints nothing); in JSON mode the key
 * and value are emitted and the text format is ignored. Inside a JSON object a NULL key means
 * "text only"; inside an array values have no key. A top-level object closed in JSON mode
 * ends with a newline, so a stream of frames is JSON Lines with no extra code.
 *
 * Strings are made safe for their destination: in JSON, escaped, with invalid UTF-8 replaced by
 * U+FFFD; in text, control bytes printed as \xNN, so hostile LLDP names cannot drive the
 * terminal. Non-finite doubles are null in JSON. */
#ifndef DCB_OUT_H
#define DCB_OUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum out_format { OUT_TEXT, OUT_JSON };

#define OUT_MAX_DEPTH 32

struct dcb_out {
    FILE *fp;
    enum out_format format;
    int depth;
    bool first[OUT_MAX_DEPTH]; /* no member written yet at this depth */
    bool array[OUT_MAX_DEPTH]; /* the container at this depth is an array */
};

void out_init(struct dcb_out *o, FILE *fp, enum out_format format);
/* "text" or "json"; -1 for anything else. */
int out_parse_format(const char *name, enum out_format *format);
static inline bool out_is_json(const struct dcb_out *o)
{
    return o->format == OUT_JSON;
}

/* The text format of a field printer is a printf format for its one value (or NULL: no text).
 * clang checks it at every call site. gcc is left out: it reads a NULL format followed by the
 * value as "too many arguments for format". */
#ifdef __clang__
#define OUT_TEXT_FORMAT(n) __attribute__((format(printf, n, 0)))
#else
#define OUT_TEXT_FORMAT(n)
#endif

/* key is ignored at the top level and inside arrays. */
void out_obj_open(struct dcb_out *o, const char *key);
void out_obj_close(struct dcb_out *o);
void out_arr_open(struct dcb_out *o, const char *key);
void out_arr_close(struct dcb_out *o);

void out_str(struct dcb_out *o, const char *key, const char *text_fmt, const char *value)
    OUT_TEXT_FORMAT(3);
void out_u64(struct dcb_out *o, const char *key, const char *text_fmt, uint64_t value)
    OUT_TEXT_FORMAT(3);
void out_i64(struct dcb_out *o, const char *key, const char *text_fmt, int64_t value)
    OUT_TEXT_FORMAT(3);
void out_dbl(struct dcb_out *o, const char *key, const char *text_fmt, double value)
    OUT_TEXT_FORMAT(3);
/* The text format of a bool takes %s: "yes" or "no". */
void out_bool(struct dcb_out *o, const char *key, const char *text_fmt, bool value)
    OUT_TEXT_FORMAT(3);
/* A number already formatted (e.g. "1700000000.123456", which a double cannot carry exactly);
 * the caller guarantees it is a valid JSON number. The text format takes %s. */
void out_number(struct dcb_out *o, const char *key, const char *text_fmt, const char *literal)
    OUT_TEXT_FORMAT(3);
/* JSON null; in text mode text (if any) is printed as is. */
void out_null(struct dcb_out *o, const char *key, const char *text);
/* A JSON value already serialised (e.g. an event's details object); the caller guarantees it is
 * valid JSON. The text format takes %s: the JSON text, made safe as out_str does. */
void out_json_value(struct dcb_out *o, const char *key, const char *text_fmt, const char *json)
    OUT_TEXT_FORMAT(3);

/* Text mode only: free text (e.g. headings, units, newlines), made safe as out_term does. */
void out_text(struct dcb_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* printf to a terminal-bound stream with every byte that could drive the terminal shown as \xNN
 * (C0 controls but newline and tab, ESC, DEL, C1 controls raw or UTF-8 encoded, invalid UTF-8):
 * for messages that carry names from the network, a file or a store. Stored names keep their
 * bytes; this is the one place they are made safe on the way out. */
void out_term(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_vterm(FILE *fp, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* Flushes; 0, or -1 with errno set if anything failed to write (a full disk, a closed pipe). */
int out_finish(struct dcb_out *o);

/* Writes s as a JSON string literal (with quotes), for code that builds JSON by hand. */
void out_json_string(FILE *fp, const char *s);
/* Same, into a buffer; returns the length it needed (like snprintf). */
size_t out_json_string_buf(char *buf, size_t len, const char *s);

#endif
