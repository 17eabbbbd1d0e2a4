#include "pb_check.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "reader.h"

struct walk {
    char *why;
    size_t cap;
    /* the fields down to the message being walked (update, update: "update.update"); names
     * are joined only for a fault */
    const ProtobufCFieldDescriptor *down[PB_MAX_DEPTH];
    int depth;
};

enum { V_OK, V_LONG, V_CUT };

/* A varint of at most max bytes: protobuf-c reads keys and lengths in 5, values in 10. */
static int varint(struct dcb_reader *r, size_t max, uint64_t *v)
{
    *v = 0;
    for (size_t i = 0; i < max; i++) {
        if (!rd_has(r, 1))
            return V_CUT;
        uint8_t b = rd_u8(r);
        *v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80))
            return V_OK;
    }
    return V_LONG;
}

static const char *varint_fault(int v)
{
    return v == V_LONG ? "longer than protobuf reads" : "cut short by the end of the message";
}

/* Names the field (f known, or by number; num 0: the key itself) and returns false. */
__attribute__((format(printf, 5, 6))) static bool fault(struct walk *w,
                                                        const ProtobufCFieldDescriptor *f,
                                                        uint64_t num, size_t at, const char *fmt,
                                                        ...)
{
    char where[128] = "";
    size_t n = 0;
    for (int i = 0; i < w->depth && n < sizeof(where); i++) {
        if (w->depth > 6 && i >= 3 && i < w->depth - 2)
            continue; /* deep nesting: the first three and the last two */
        int k = snprintf(where + n, sizeof(where) - n, "%s%s",
                         !i                                  ? ""
                         : i == w->depth - 2 && w->depth > 6 ? "..."
                                                             : ".",
                         w->down[i]->name);
        n += k > 0 ? (size_t)k : 0;
    }
    const char *dot = where[0] ? "." : "", *of = where[0] ? " of " : "";
    int o;
    if (f)
        o = snprintf(w->why, w->cap, "%s%s%s (field %u) at byte %zu: ", where, dot, f->name, f->id,
                     at);
    else if (num)
        o = snprintf(w->why, w->cap, "field %llu%s%s at byte %zu: ", (unsigned long long)num, of,
                     where, at);
    else
        o = snprintf(w->why, w->cap, "%s%sat byte %zu: ", where, where[0] ? " " : "", at);
    if (o >= 0 && (size_t)o < w->cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w->why + o, w->cap - (size_t)o, fmt, ap);
        va_end(ap);
    }
    return false;
}

static const char *wire_name(unsigned wt)
{
    static const char *const names[] = { "varint",      "64-bit",    "length-delimited",
                                         "group start", "group end", "32-bit",
                                         "6",           "7" };
    return names[wt & 7];
}

/* The wire type protobuf-c takes for a field of this type (-1: any; a bool is read from any). */
static int wire_of(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT: return PROTOBUF_C_WIRE_TYPE_32BIT;
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE: return PROTOBUF_C_WIRE_TYPE_64BIT;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE: return PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
    case PROTOBUF_C_TYPE_BOOL: return -1;
    default: return PROTOBUF_C_WIRE_TYPE_VARINT;
    }
}

/* Packed repeated scalars: whole fixed-size values, or varints that each end. */
static bool packed(struct walk *w, const ProtobufCFieldDescriptor *f, struct dcb_reader *r,
                   size_t base)
{
    size_t len = rd_remaining(r);
    int wt = wire_of(f->type);
    if (wt == PROTOBUF_C_WIRE_TYPE_32BIT || wt == PROTOBUF_C_WIRE_TYPE_64BIT) {
        size_t size = wt == PROTOBUF_C_WIRE_TYPE_32BIT ? 4 : 8;
        return len % size == 0 ||
               fault(w, f, f->id, base, "%zu bytes of packed values, not a multiple of %zu", len,
                     size);
    }
    while (rd_remaining(r)) {
        size_t at = base + rd_offset(r);
        uint64_t v;
        int vr = varint(r, 10, &v);
        if (vr != V_OK)
            return fault(w, f, f->id, at, "a packed varint %s", varint_fault(vr));
    }
    return true;
}

static bool walk_message(struct walk *w, const ProtobufCMessageDescriptor *d, struct dcb_reader *r,
                         size_t base);

/* A length-delimited field's body: a known message is walked in turn. */
static bool body(struct walk *w, const ProtobufCFieldDescriptor *f, struct dcb_reader *sub,
                 size_t base, size_t at)
{
    if (f->type != PROTOBUF_C_TYPE_MESSAGE)
        return f->label != PROTOBUF_C_LABEL_REPEATED ||
               wire_of(f->type) == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED || packed(w, f, sub, base);
    if (w->depth >= PB_MAX_DEPTH)
        return fault(w, f, f->id, at, "messages nested deeper than %d", PB_MAX_DEPTH);
    w->down[w->depth++] = f;
    bool ok = walk_message(w, f->descriptor, sub, base);
    w->depth--;
    return ok;
}

static bool walk_message(struct walk *w, const ProtobufCMessageDescriptor *d, struct dcb_reader *r,
                         size_t base)
{
    while (rd_remaining(r)) {
        size_t at = base + rd_offset(r);
        uint64_t key;
        int vr = varint(r, 5, &key);
        if (vr != V_OK)
            return fault(w, NULL, 0, at, "a field key %s", varint_fault(vr));
        unsigned wt = (unsigned)(key & 7);
        uint64_t num = key >> 3;
        if (num == 0)
            return fault(w, NULL, 0, at, "field number 0");
        const ProtobufCFieldDescriptor *f =
            num <= UINT_MAX ? protobuf_c_message_descriptor_get_field(d, (unsigned)num) : NULL;
        int want = f ? wire_of(f->type) : -1;
        bool packable = f && f->label == PROTOBUF_C_LABEL_REPEATED &&
                        want != PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
        if (want >= 0 && (int)wt != want &&
            !(packable && wt == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED))
            return fault(w, f, num, at, "wire type %u (%s) for a %s field", wt, wire_name(wt),
                         wire_name((unsigned)want));
        uint64_t v;
        switch (wt) {
        case PROTOBUF_C_WIRE_TYPE_VARINT:
            if ((vr = varint(r, 10, &v)) != V_OK)
                return fault(w, f, num, at, "a varint %s", varint_fault(vr));
            break;
        case PROTOBUF_C_WIRE_TYPE_64BIT:
        case PROTOBUF_C_WIRE_TYPE_32BIT: {
            size_t size = wt == PROTOBUF_C_WIRE_TYPE_32BIT ? 4 : 8;
            if (!rd_has(r, size))
                return fault(w, f, num, at, "%zu bytes needed, %zu left", size, rd_remaining(r));
            rd_skip(r, size);
            break;
        }
        case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED: {
            if ((vr = varint(r, 5, &v)) != V_OK)
                return fault(w, f, num, at, "a length %s", varint_fault(vr));
            if (v > INT_MAX || !rd_has(r, (size_t)v))
                return fault(w, f, num, at, "%llu bytes announced, %zu left", (unsigned long long)v,
                             rd_remaining(r));
            size_t from = base + rd_offset(r);
            struct dcb_reader sub;
            rd_sub(r, (size_t)v, &sub);
            if (f && !body(w, f, &sub, from, at))
                return false;
            break;
        }
        default:
            return fault(w, f, num, at, "wire type %u (%s), which protobuf-c does not read", wt,
                         wire_name(wt));
        }
    }
    return true;
}

bool pb_check(const ProtobufCMessageDescriptor *d, const uint8_t *msg, size_t len, char *why,
              size_t cap)
{
    struct walk w = { .why = why, .cap = cap };
    if (cap)
        why[0] = '\0';
    struct dcb_reader r;
    rd_init(&r, msg, len);
    return walk_message(&w, d, &r, 0);
}
