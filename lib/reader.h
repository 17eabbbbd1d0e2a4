/* The bounded byte reader: the only way decoders touch untrusted bytes.
 *
 * Every read is checked against the end of the buffer. A read past the end returns 0 (or NULL),
 * reads nothing, and makes the reader "failed" for good, remembering where and how much was
 * wanted; later reads also fail. A decoder reads all fields of a header and checks rd_ok() once,
 * as tcpdump's GET_ macros do, but without a longjmp. Multi-byte reads are network order
 * (big-endian) unless named _le. Nothing allocates. */
#ifndef DCB_READER_H
#define DCB_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dcb_reader {
    const uint8_t *base;
    size_t len;
    size_t off;
    bool failed;
    size_t fail_off;  /* offset of the first read that did not fit */
    size_t fail_want; /* bytes it wanted */
};

static inline void rd_init(struct dcb_reader *r, const void *data, size_t len)
{
    r->base = (const uint8_t *)data;
    r->len = data ? len : 0;
    r->off = 0;
    r->failed = false;
    r->fail_off = 0;
    r->fail_want = 0;
}

static inline bool rd_ok(const struct dcb_reader *r)
{
    return !r->failed;
}
static inline size_t rd_offset(const struct dcb_reader *r)
{
    return r->off;
}
static inline size_t rd_remaining(const struct dcb_reader *r)
{
    return r->failed ? 0 : r->len - r->off;
}

/* True if n more bytes can be read; never fails the reader. */
static inline bool rd_has(const struct dcb_reader *r, size_t n)
{
    return !r->failed && n <= r->len - r->off;
}

/* Marks the reader failed (first failure wins) and returns false. */
static inline bool rd_fail(struct dcb_reader *r, size_t want)
{
    if (!r->failed) {
        r->failed = true;
        r->fail_off = r->off;
        r->fail_want = want;
    }
    return false;
}

static inline bool rd_need(struct dcb_reader *r, size_t n)
{
    return rd_has(r, n) ? true : rd_fail(r, n);
}

static inline uint8_t rd_u8(struct dcb_reader *r)
{
    if (!rd_need(r, 1))
        return 0;
    return r->base[r->off++];
}

static inline uint16_t rd_be16(struct dcb_reader *r)
{
    if (!rd_need(r, 2))
        return 0;
    const uint8_t *p = r->base + r->off;
    r->off += 2;
    return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static inline uint32_t rd_be24(struct dcb_reader *r)
{
    if (!rd_need(r, 3))
        return 0;
    const uint8_t *p = r->base + r->off;
    r->off += 3;
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t rd_be32(struct dcb_reader *r)
{
    if (!rd_need(r, 4))
        return 0;
    const uint8_t *p = r->base + r->off;
    r->off += 4;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t rd_be64(struct dcb_reader *r)
{
    if (!rd_need(r, 8))
        return 0;
    uint64_t hi = rd_be32(r);
    return hi << 32 | rd_be32(r);
}

static inline uint16_t rd_le16(struct dcb_reader *r)
{
    if (!rd_need(r, 2))
        return 0;
    const uint8_t *p = r->base + r->off;
    r->off += 2;
    return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t rd_le32(struct dcb_reader *r)
{
    if (!rd_need(r, 4))
        return 0;
    const uint8_t *p = r->base + r->off;
    r->off += 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd_le64(struct dcb_reader *r)
{
    if (!rd_need(r, 8))
        return 0;
    uint64_t lo = rd_le32(r);
    return lo | (uint64_t)rd_le32(r) << 32;
}

/* Zero-copy: a pointer to the next n bytes, or NULL (and the reader fails). */
static inline const uint8_t *rd_bytes(struct dcb_reader *r, size_t n)
{
    if (!rd_need(r, n))
        return NULL;
    const uint8_t *p = r->base + r->off;
    r->off += n;
    return p;
}

/* Copies n bytes into dst; on failure dst is zeroed. */
static inline bool rd_copy(struct dcb_reader *r, void *dst, size_t n)
{
    const uint8_t *p = rd_bytes(r, n);
    if (!p) {
        for (size_t i = 0; i < n; i++)
            ((uint8_t *)dst)[i] = 0;
        return false;
    }
    for (size_t i = 0; i < n; i++)
        ((uint8_t *)dst)[i] = p[i];
    return true;
}

static inline bool rd_skip(struct dcb_reader *r, size_t n)
{
    if (!rd_need(r, n))
        return false;
    r->off += n;
    return true;
}

/* Looks at byte `ahead` past the cursor without moving; 0 if out of range (does not fail). */
static inline uint8_t rd_peek_u8(const struct dcb_reader *r, size_t ahead)
{
    if (!rd_has(r, ahead + 1))
        return 0;
    return r->base[r->off + ahead];
}

/* Splits off the next n bytes as their own reader (for a TLV body): the parent moves past them.
 * If fewer than n bytes remain, both fail. */
static inline bool rd_sub(struct dcb_reader *r, size_t n, struct dcb_reader *sub)
{
    const uint8_t *p = rd_bytes(r, n);
    rd_init(sub, p, p ? n : 0);
    if (!p)
        rd_fail(sub, n);
    return p != NULL;
}

/* Everything that is left, as a sub-reader; the parent ends up empty. */
static inline void rd_rest(struct dcb_reader *r, struct dcb_reader *sub)
{
    rd_sub(r, rd_remaining(r), sub);
}

/* "needed 2 bytes at offset 14, 1 left" for a failed reader; "" otherwise. Returns buf. */
char *rd_describe_failure(const struct dcb_reader *r, char *buf, size_t len);

#endif
